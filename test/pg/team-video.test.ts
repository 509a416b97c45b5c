import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { GatewayConfig } from '../../electron/gateway/config/load-config.js'
import { startFakeXai } from '../fakes/video/xai.js'
import type { FakeVideoServer } from '../fakes/video/task-script.js'
import { TEST_KEY, type TestGateway } from '../helpers/gateway.js'
import { freshDatabase } from '../helpers/pg-database.js'
import { newSecretKey, startReplica } from '../helpers/team.js'
import { until } from '../helpers/until.js'

const GROK = 'grok-imagine-video'
const LEASE_MS = 800
/** A claim far longer than the test: only the sweep can give it back in time. */
const CLAIM_MS = 60_000
let xai: FakeVideoServer
beforeAll(async () => {
  xai = await startFakeXai()
})
afterAll(() => xai.close())

const config = (): GatewayConfig => ({
  account: { balance: 50, concurrency: 10 },
  upstreams: [{ id: 'xai', vendor: 'xai', baseUrl: `${xai.url}/v1`, apiKey: 'xai-test-key' }],
  groups: [{ id: 'video', protocol: 'chat', models: [GROK], upstreams: ['xai'] }],
  keys: [{ key: TEST_KEY, group: 'video' }],
})
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

describe('team mode: a video task a stopped replica was polling', () => {
  it('is handed back by the sweep at once, long before its claim would lapse, then polled by another replica and settled once', async () => {
    const url = await freshDatabase()
    const key = newSecretKey()
    xai.reset()
    xai.script(['succeeded'])
    // `first` submits and claims a poll, then stops without polling: its claim stays in the database, as a killed one's
    // would. Stopped, it is no longer seen, so the sweep of the next replica gives the claim back.
    const first = await startReplica(url, key, config(), { videoPoll: { enabled: false, leaseMs: LEASE_MS } })
    let sql = first.services.store.sql
    let second: TestGateway | undefined
    try {
      const before = (await sql.get<{ balance_nano: number; reserved_nano: number }>('SELECT balance_nano, reserved_nano FROM account'))!
      const res = await first.post('/v1/video/generate', { model: GROK, prompt: 'left behind', duration: 5, resolution: '480p' })
      expect(res.status).toBe(202)
      const id = ((await res.json()) as { task_id: string }).task_id
      const now = Date.now()
      expect(await first.services.store.tasks.video.claimDue(now + 10_000, 1, now + CLAIM_MS)).toEqual([id])
      expect(await sql.get('SELECT replica, next_poll_at FROM tasks WHERE id = ?', [id])).toEqual({ replica: first.services.store.replica, next_poll_at: now + CLAIM_MS })
      await first.stop()

      second = await startReplica(url, key, config(), { videoPoll: { intervalMs: 15, maxIntervalMs: 40, timeoutMs: 200, leaseMs: LEASE_MS } })
      sql = second.services.store.sql
      await until('the task settled', 5_000, async () => (await sql.get<{ settled: number }>('SELECT settled FROM tasks WHERE id = ?', [id]))!.settled === 1)
      expect(Date.now()).toBeLessThan(now + CLAIM_MS)
      await sleep(200) // a second settlement, if any, would have landed by now
      expect(xai.calls.filter((c) => c.method === 'GET')).toHaveLength(1)
      expect(await sql.get('SELECT count(*) AS n FROM requests WHERE id = ?', [id])).toEqual({ n: 1 })
      expect(await sql.get('SELECT status FROM tasks WHERE id = ?', [id])).toEqual({ status: 'succeeded' })
      expect(await sql.get('SELECT balance_nano, reserved_nano FROM account')).toEqual({ balance_nano: before.balance_nano - 250_000_000, reserved_nano: before.reserved_nano })
    } finally {
      await second?.stop()
    }
  })

  it("a live replica's poll that outlasts its lease keeps its claim: another replica's poller leaves the task alone until it ends", async () => {
    const url = await freshDatabase()
    const key = newSecretKey()
    xai.reset()
    xai.script(['succeeded'])
    xai.switches.timeoutOnPoll = 1 // the first poll is held open by the vendor until its own deadline
    const polls = { intervalMs: 15, maxIntervalMs: 40, leaseMs: LEASE_MS }
    const first = await startReplica(url, key, config(), { videoPoll: { ...polls, timeoutMs: 6_000 } })
    let second: TestGateway | undefined
    try {
      const sql = first.services.store.sql
      const res = await first.post('/v1/video/generate', { model: GROK, prompt: 'a long poll', duration: 5, resolution: '480p' })
      expect(res.status).toBe(202)
      const id = ((await res.json()) as { task_id: string }).task_id
      const gets = () => xai.calls.filter((c) => c.method === 'GET')
      await until('the poll held open', 5_000, () => gets().length === 1)
      const heldAt = Date.now()
      second = await startReplica(url, key, config(), { videoPoll: { ...polls, timeoutMs: 200 } })
      // Three leases and more while the first's poll is under way: its claim is renewed, so the second never polls.
      await sleep(Math.max(0, heldAt + 3 * LEASE_MS + 200 - Date.now()))
      expect(gets()).toHaveLength(1)
      const row = (await sql.get<{ replica: string; next_poll_at: number; settled: number }>('SELECT replica, next_poll_at, settled FROM tasks WHERE id = ?', [id]))!
      expect(row).toMatchObject({ replica: first.services.store.replica, settled: 0 })
      expect(row.next_poll_at).toBeGreaterThan(Date.now())
      // The held poll ends at its deadline; the task is polled again, by either replica, and settled once.
      await until('the task settled', 15_000, async () => (await sql.get<{ settled: number }>('SELECT settled FROM tasks WHERE id = ?', [id]))!.settled === 1)
      await sleep(200)
      expect(gets()).toHaveLength(2)
      expect(await sql.get('SELECT count(*) AS n FROM requests WHERE id = ?', [id])).toEqual({ n: 1 })
    } finally {
      await second?.stop()
      await first.stop()
    }
  })

  it('a submission a stopped replica left before the vendor accepted it is ended unbilled by another, its reservation released', async () => {
    const url = await freshDatabase()
    const key = newSecretKey()
    xai.reset()
    xai.script(['succeeded'])
    const first = await startReplica(url, key, config(), { videoPoll: { enabled: false, leaseMs: LEASE_MS } })
    let second: TestGateway | undefined
    try {
      const sql = first.services.store.sql
      const before = (await sql.get<{ balance_nano: number; reserved_nano: number }>('SELECT balance_nano, reserved_nano FROM account'))!
      const res = await first.post('/v1/video/generate', { model: GROK, prompt: 'never accepted', duration: 5, resolution: '480p' })
      expect(res.status).toBe(202)
      const id = ((await res.json()) as { task_id: string }).task_id
      // The row as a replica killed between its reservation and the vendor's answer leaves it: reserved, nothing scheduled.
      await sql.run('UPDATE tasks SET vendor_task_id = NULL, next_poll_at = NULL WHERE id = ?', [id])
      expect((await sql.get<{ reserved_nano: number }>('SELECT reserved_nano FROM account'))!.reserved_nano).toBeGreaterThan(before.reserved_nano)
      await first.stop()

      second = await startReplica(url, key, config(), { videoPoll: { intervalMs: 15, maxIntervalMs: 40, timeoutMs: 200, submitTimeoutMs: 50, leaseMs: LEASE_MS } })
      await until('the submission ended', 5_000, async () => (await second!.services.store.sql.get<{ settled: number }>('SELECT settled FROM tasks WHERE id = ?', [id]))!.settled === 1)
      const db = second.services.store.sql
      expect(await db.get('SELECT status, cost_nano FROM tasks WHERE id = ?', [id])).toEqual({ status: 'failed', cost_nano: 0 })
      expect(await db.get('SELECT count(*) AS n, SUM(cost_nano) AS cost FROM requests WHERE id = ?', [id])).toEqual({ n: 1, cost: 0 })
      expect(await db.get('SELECT balance_nano, reserved_nano FROM account')).toEqual(before)
      const task = (await (await second.get(`/v1/video/tasks/${id}`)).json()) as { status: string; error: { code: string } }
      expect(task).toMatchObject({ status: 'failed', error: { code: 'task_interrupted' } })
    } finally {
      await second?.stop()
    }
  })
})
