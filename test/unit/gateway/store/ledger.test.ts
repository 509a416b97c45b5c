import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { openDb, type Db } from '../../../../electron/gateway/store/db.js'
import { ledgerRepo, type LedgerEntry, type PendingEntry } from '../../../../electron/gateway/store/ledger.js'
import type { Sql } from '../../../../electron/gateway/store/sql.js'
import { sqliteSql } from '../../../../electron/gateway/store/sqlite-sql.js'
import { tempDataDir } from '../../../helpers/gateway.js'
import { until } from '../../../helpers/until.js'

const entry = (id: string, cost: number): LedgerEntry => ({
  id, key_id: 'k', group_id: 'g', model: 'm', endpoint: 'chat.completions', status: 200, error_code: null, upstream_id: null,
  input_tokens: 1, output_tokens: 1, usage: null, cost_nano: cost, latency_ms: 1, created_at: 0,
})
const pendingRow = (id: string): PendingEntry => ({
  id, key_id: 'k', group_id: 'g', model: 'm', endpoint: 'chat.completions', upstream_id: null, input_tokens: 1, output_tokens: 0,
  usage: null, cost_nano: 5, started_at: 0, checkpointed_at: 0,
})

describe('the ledger over the asynchronous store', () => {
  let dir: ReturnType<typeof tempDataDir>
  let db: Db
  // The SQLite Sql, its transactions slowed down (each takes a timer turn) and counted, optionally failing once.
  let open = 0
  let mostOpen = 0
  let transactions = 0
  let failNext = false
  let sql: Sql
  beforeEach(() => {
    dir = tempDataDir()
    db = openDb(dir.dir)
    db.prepare("INSERT INTO api_keys (id, hash, hint, group_id, created_at) VALUES ('k', 'h', 'x', 'g', 0)").run()
    const inner = sqliteSql(db)
    ;[open, mostOpen, transactions, failNext] = [0, 0, 0, false]
    sql = {
      ...inner,
      async transaction<T>(fn: (tx: Sql) => Promise<T>): Promise<T> {
        transactions++
        mostOpen = Math.max(mostOpen, ++open)
        try {
          await new Promise((resolve) => setTimeout(resolve, 5))
          if (failNext) {
            failNext = false
            throw new Error('disk is busy')
          }
          return await inner.transaction(fn)
        } finally {
          open--
        }
      },
    }
  })
  afterEach(() => {
    db.close()
    dir.remove()
  })
  const money = () => db.prepare("SELECT (SELECT balance_nano FROM account) AS balance, (SELECT used_nano FROM api_keys WHERE id = 'k') AS used").get() as { balance: number; used: number }

  it('runs one commit at a time: a flush during a commit waits for it, then commits what was queued since', async () => {
    const ledger = ledgerRepo(sql, () => {})
    ledger.enqueue(entry('a', 10))
    const first = ledger.flush()
    // Before its commit began, a second flush is the same one.
    expect(ledger.flush()).toBe(first)
    await new Promise((resolve) => setImmediate(resolve))
    expect(open).toBe(1)
    ledger.enqueue(entry('b', 20))
    const second = ledger.flush()
    expect(second).not.toBe(first)
    // A third flush before the second began shares it.
    expect(ledger.flush()).toBe(second)
    await Promise.all([first, second])
    expect([mostOpen, transactions]).toEqual([1, 2])
    expect((await ledger.recent(null, 10)).map((r) => r.id).sort()).toEqual(['a', 'b'])
    expect(money()).toEqual({ balance: -30, used: 30 })
  })

  it('a failed commit keeps its rows for the next one, which charges them once', async () => {
    const ledger = ledgerRepo(sql, () => {})
    ledger.enqueue(entry('a', 10))
    failNext = true
    await expect(ledger.flush()).rejects.toThrow('disk is busy')
    expect(money()).toEqual({ balance: 0, used: 0 })
    ledger.enqueue(entry('b', 20))
    await ledger.flush()
    expect((await ledger.recent(null, 10)).map((r) => r.id).sort()).toEqual(['a', 'b'])
    expect(money()).toEqual({ balance: -30, used: 30 })
  })

  it('a stream whose final row is queued while its pending row is being committed leaves no pending row behind', async () => {
    const ledger = ledgerRepo(sql, () => {})
    ledger.openPending(pendingRow('s'))
    const committing = ledger.flush()
    ledger.enqueue(entry('s', 7))
    await committing
    expect(await ledger.getPending('s')).toBeUndefined()
    expect(await ledger.get('s')).toMatchObject({ cost_nano: 7 })
    // Nothing is left for a restart to bill again.
    expect(await ledgerRepo(sql, () => {}).settleInterrupted()).toBe(0)
    expect(money()).toEqual({ balance: -7, used: 7 })
  })

  it('the timer commits queued rows by itself, and a failure there is logged and retried', async () => {
    const logs: string[] = []
    const ledger = ledgerRepo(sql, (line) => logs.push(line))
    failNext = true
    ledger.enqueue(entry('a', 10))
    await until('the retried commit', 5_000, () => money().used === 10).catch(() => {})
    expect(money()).toEqual({ balance: -10, used: 10 })
    expect(logs).toEqual(['[gatehouse] ledger commit failed, retrying: disk is busy'])
  })
})
