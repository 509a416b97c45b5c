import type { CatalogModel, GroupProtocol, Vendor } from '../../shared/types.js'
import { createCatalog, loadBuiltinModels, type Catalog } from './catalog/catalog.js'
import type { SecretBox } from './secrets.js'
import type { GroupOptions } from './store/groups.js'
import type { Store } from './store/index.js'

export interface UpstreamAccount {
  id: string
  vendor: Vendor
  baseUrl: string
  apiKey: string
  /** undefined: every catalog model of the vendor (every model for a `gateway` upstream). */
  models?: ReadonlySet<string>
  priority: number
}

export interface Group {
  id: string
  name: string | null
  protocol: GroupProtocol
  models: readonly string[]
  modelSet: ReadonlySet<string>
  upstreams: readonly string[]
  options: GroupOptions
}

export interface ApiKey {
  id: string
  hint: string
  groupId: string
  name: string | null
  concurrency: number | null
  quotaNano: number | null
  usedNano: number
  expiresAt: number | null
  disabled: boolean
}

export interface Account {
  balanceNano: number
  reservedNano: number
  concurrency: number
}

/**
 * What the request path reads on every call, held in memory and rebuilt from the store
 * whenever configuration changes, so that a request never waits on a query to authorize.
 */
export class Registry {
  catalog!: Catalog
  groups = new Map<string, Group>()
  upstreams = new Map<string, UpstreamAccount>()
  keysByHash = new Map<string, ApiKey>()
  account!: Account
  readonly builtinModels: CatalogModel[] = loadBuiltinModels()

  constructor(private readonly store: Store, private readonly secrets: SecretBox) {
    this.reload()
  }

  reload(): void {
    const { store } = this
    // Charges still queued would be lost when balances are read back from the store.
    store.ledger.flush()
    this.candidateCache = new Map()
    this.catalog = createCatalog(this.builtinModels, store.modelOverrides.all())
    this.groups = new Map(store.groups.all().map((g) => [g.id, { ...g, modelSet: new Set(g.models) }]))
    this.upstreams = new Map(
      store.upstreams.all().map((u) => [
        u.id,
        {
          id: u.id,
          vendor: u.vendor,
          baseUrl: u.base_url.replace(/\/+$/, ''),
          apiKey: this.secrets.decrypt(u.api_key_enc),
          models: u.models === null ? undefined : new Set(JSON.parse(u.models) as string[]),
          priority: u.priority,
        },
      ]),
    )
    this.keysByHash = new Map(
      store.apiKeys.all().map((k) => [
        k.hash,
        {
          id: k.id,
          hint: k.hint,
          groupId: k.group_id,
          name: k.name,
          concurrency: k.concurrency,
          quotaNano: k.quota_nano,
          usedNano: k.used_nano,
          expiresAt: k.expires_at,
          disabled: k.disabled === 1,
        },
      ]),
    )
    const account = store.account.get()
    this.account = { balanceNano: account.balance_nano, reservedNano: account.reserved_nano, concurrency: account.concurrency }
  }

  /** Does this upstream account serve the model? */
  serves(upstream: UpstreamAccount, model: CatalogModel): boolean {
    if (upstream.models) return upstream.models.has(model.id)
    return upstream.vendor === 'gateway' || upstream.vendor === model.vendor
  }

  /**
   * The group's accounts that serve the model with a capability, in failover order (higher priority first,
   * then the group's order). Cached until the next reload: every request asks.
   */
  candidates(group: Group, model: CatalogModel, capability: string, usable: (u: UpstreamAccount) => boolean): UpstreamAccount[] {
    const cacheKey = `${group.id}\u0000${model.id}\u0000${capability}`
    let found = this.candidateCache.get(cacheKey)
    if (found === undefined) {
      found = group.upstreams
        .map((id) => this.upstreams.get(id))
        .filter((u): u is UpstreamAccount => u !== undefined && this.serves(u, model) && usable(u))
        .sort((a, b) => b.priority - a.priority)
      this.candidateCache.set(cacheKey, found)
    }
    return found
  }

  private candidateCache = new Map<string, UpstreamAccount[]>()
}
