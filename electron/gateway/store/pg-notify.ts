import pg from 'pg'
import type { Sql } from './sql.js'

/**
 * Change notices between replicas (team mode): a replica that changes shared state (keys, groups, settings…) sends
 * a notice; every replica listening reloads. PostgreSQL delivers a notice sent in a transaction at its commit, and
 * not at all when it rolls back.
 */
export const CHANGES_CHANNEL = 'gatehouse_changes'
/** The topic reported after a reconnect: notices may have been missed meanwhile, so anything may have changed. */
export const ANY_CHANGE = '*'

const FIRST_RETRY_MS = 100
const LAST_RETRY_MS = 5_000

/** Sends a notice (at the commit of the transaction `sql` belongs to, if any). */
export async function notifyChanges(sql: Sql, topic: string = ANY_CHANGE): Promise<void> {
  await sql.get(`SELECT pg_notify('${CHANGES_CHANNEL}', ?)`, [topic])
}

export interface ChangeListener {
  close(): Promise<void>
}

/**
 * Listens on one dedicated connection (not one of the pool's: it is held for good). When the connection drops,
 * reconnects with a backoff of 100 ms doubling up to 5 s, for as long as it is open, then reports ANY_CHANGE.
 * Resolves once listening; rejects when the first connection fails.
 */
export async function listenChanges(source: pg.Pool | string, onChange: (topic: string) => void, log: (line: string) => void): Promise<ChangeListener> {
  const config: pg.ClientConfig =
    typeof source === 'string' ? { connectionString: source, application_name: 'gatehouse', keepAlive: true } : source.options
  let client: pg.Client | undefined
  let closed = false
  let retry: NodeJS.Timeout | undefined

  const connect = async () => {
    const candidate = new pg.Client(config)
    candidate.on('notification', (notice) => {
      if (notice.channel === CHANGES_CHANNEL) onChange(notice.payload ?? ANY_CHANGE)
    })
    // Without an error listener a dropped connection would crash the process.
    candidate.on('error', (err) => dropped(candidate, err.message))
    candidate.on('end', () => dropped(candidate, 'connection ended'))
    try {
      await candidate.connect()
      await candidate.query(`LISTEN ${CHANGES_CHANNEL}`)
    } catch (err) {
      candidate.end().catch(() => {})
      throw err
    }
    client = candidate
  }

  const dropped = (which: pg.Client, why: string) => {
    if (which !== client || closed) return
    client = undefined
    which.end().catch(() => {})
    log(`database: change notices lost (${why}); reconnecting`)
    schedule(1)
  }

  const schedule = (attempt: number) => {
    retry = setTimeout(() => void reconnect(attempt), Math.min(FIRST_RETRY_MS * 2 ** (attempt - 1), LAST_RETRY_MS))
    retry.unref()
  }

  const reconnect = async (attempt: number) => {
    if (closed) return
    try {
      await connect()
    } catch (err) {
      log(`database: change notices: reconnect failed (${(err as Error).message})`)
      if (!closed) schedule(attempt + 1)
      return
    }
    if (closed) return void client?.end().catch(() => {})
    log('database: change notices back')
    onChange(ANY_CHANGE)
  }

  await connect()
  return {
    async close() {
      closed = true
      clearTimeout(retry)
      const last = client
      client = undefined
      await last?.end()
    },
  }
}
