import { inject } from 'vitest'

declare module 'vitest' {
  export interface ProvidedContext {
    /** The base URL of the run's database broker (test/helpers/pg-global-setup.ts). */
    pgDatabases: string
  }
}

/**
 * A new, empty database on the run's private PostgreSQL cluster (started on first use), as a `postgres://` URL.
 * Fails with the cluster's own words when it cannot start (e.g. "install Debian's postgresql").
 */
export async function freshDatabase(): Promise<string> {
  const res = await fetch(`${inject('pgDatabases')}/database`, { method: 'POST', signal: AbortSignal.timeout(60_000) })
  const text = await res.text()
  if (!res.ok) throw new Error(`no test database: ${text}`)
  return text
}
