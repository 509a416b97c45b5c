// Gatehouse's ledger after a run, read from its data dir once the gateway has stopped (so every row is committed).
import Database from 'better-sqlite3'
import { existsSync } from 'node:fs'
import { join } from 'node:path'

export interface LedgerCount {
  /** rows with a 2xx status */
  ok: number
  /** rows with any other status (errors, requests the client abandoned) */
  other: number
}

export function countLedger(dataDir: string): LedgerCount | undefined {
  const file = join(dataDir, 'gatehouse.sqlite')
  if (!existsSync(file)) return undefined
  const db = new Database(file, { readonly: true, fileMustExist: true })
  try {
    const row = db.prepare('SELECT SUM(status BETWEEN 200 AND 299) AS ok, SUM(status NOT BETWEEN 200 AND 299) AS other FROM requests').get() as { ok: number | null; other: number | null }
    return { ok: row.ok ?? 0, other: row.other ?? 0 }
  } finally {
    db.close()
  }
}
