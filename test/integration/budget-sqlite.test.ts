// The budget of a SQLite store an older version left (budget.test.ts holds the budget rules, on either store).
import Database from 'better-sqlite3'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { MIGRATIONS } from '../../electron/gateway/store/db.js'
import { startTestGateway, tempDataDir } from '../helpers/gateway.js'
import { adminClient } from './admin/admin-helpers.js'
import { configWithoutAccount } from './budget-config.js'

describe('the budget of a store made by an older version', () => {
  it('keeps its balance as its budget (a new store has none: budget.test.ts)', async () => {
    const dataDir = tempDataDir()
    // A store at the schema before budgets, with its groups seeded and a balance of 7 USD.
    const db = new Database(join(dataDir.dir, 'gatehouse.sqlite'))
    const before = MIGRATIONS.findIndex((m) => m.includes('ALTER TABLE account ADD COLUMN budget_nano'))
    expect(before).toBeGreaterThan(0)
    for (const migration of MIGRATIONS.slice(0, before)) db.exec(migration)
    db.pragma(`user_version = ${before}`)
    db.prepare("INSERT INTO groups (id, name, protocol, models, upstreams) VALUES ('default', NULL, 'chat', '[]', '[]')").run()
    db.prepare('UPDATE account SET balance_nano = 7000000000').run()
    db.close()
    // no request is made: the upstream is never called
    const older = await startTestGateway(configWithoutAccount([{ id: 'a', baseUrl: 'http://127.0.0.1:9' }]), dataDir)
    try {
      expect((await adminClient(older).get('/admin/v1/account')).json).toMatchObject({ budget: 7, spent: 0, remaining: 7, balance: 7 })
    } finally {
      await older.stop()
    }
  })
})
