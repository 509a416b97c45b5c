import type { Http } from './http.js'
import type { ConcurrencyLimiter } from './limits.js'
import type { Registry } from './registry.js'
import type { Store } from './store/index.js'

/** What route handlers work with; built once per gateway. */
export interface Services {
  store: Store
  registry: Registry
  http: Http
  limiter: ConcurrencyLimiter
  /** where the store and saved media live */
  dataDir: string
}
