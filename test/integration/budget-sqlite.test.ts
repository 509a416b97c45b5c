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

describe('video tasks under way in a store made before their reservations were holds', () => {
  it('get their holds at the upgrade, counted once, and keep them over a start', async () => {
    const dataDir = tempDataDir()
    const db = new Database(join(dataDir.dir, 'gatehouse.sqlite'))
    const before = MIGRATIONS.findIndex((m) => m.includes("kind = 'video' AND settled = 0 AND reserved_nano <> 0"))
    expect(before).toBeGreaterThan(0)
    for (const migration of MIGRATIONS.slice(0, before)) db.exec(migration)
    db.pragma(`user_version = ${before}`)
    db.prepare("INSERT INTO groups (id, name, protocol, models, upstreams) VALUES ('default', NULL, 'chat', '[]', '[]')").run()
    // Then a video task's reservation was its row's reserved_nano, counted in the account's reserved_nano.
    const task = db.prepare(`INSERT INTO tasks (id, kind, key_id, group_id, model, endpoint, upstream_id, status, reserved_nano, cost_nano, settled,
      created_at, updated_at, replica) VALUES (?, 'video', 'key-1', 'default', 'grok-imagine-video', 'video.generate', 'a', ?, ?, 0, ?, 5, 5, 'old')`)
    task.run('task_running', 'running', 420_000_000, 0)
    task.run('task_done', 'succeeded', 300_000_000, 1)
    db.prepare('UPDATE account SET balance_nano = 7000000000, reserved_nano = 420000000').run()
    db.close()
    const older = await startTestGateway(configWithoutAccount([{ id: 'a', baseUrl: 'http://127.0.0.1:9' }]), dataDir)
    try {
      const { sql } = older.services.store
      expect(await sql.all('SELECT id, key_id, upstream_id, amount_nano FROM holds')).toEqual([
        { id: 'task_running', key_id: 'key-1', upstream_id: 'a', amount_nano: 420_000_000 },
      ])
      expect(await sql.get('SELECT reserved_nano FROM account')).toEqual({ reserved_nano: 420_000_000 })
    } finally {
      await older.stop()
    }
  })
})
