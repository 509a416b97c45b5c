import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { makePng } from '../fakes/images/image-bytes.js'
import { startFakeOpenAI, type FakeOpenAI } from '../fakes/openai.js'
import { chatConfig, TEST_KEY, type TestGateway } from '../helpers/gateway.js'
import { freshDatabase } from '../helpers/pg-database.js'
import { newSecretKey, startReplica } from '../helpers/team.js'
import { until } from '../helpers/until.js'

/** Two replicas (two in-process gateways) on one database, a lease time of 1 s (heartbeat every 333 ms). */
let fake: FakeOpenAI
let a: TestGateway
let b: TestGateway
let databaseUrl: string
let secretKey: string
const CAPPED_KEY = 'sk-capped-0123456789'
const body = { model: 'test-gpt', messages: [{ role: 'user', content: 'hello' }] }
const as = (key: string) => ({ authorization: `Bearer ${key}` })
const errorOf = async (res: Response) => ((await res.json()) as { error: { code: string; message: string } }).error
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))
beforeAll(async () => {
  fake = await startFakeOpenAI()
  databaseUrl = await freshDatabase()
  secretKey = newSecretKey()
  const config = chatConfig([{ id: 'a', baseUrl: fake.url }], { account: { balance: 100, concurrency: 3 }, team: { leaseSeconds: 1 } })
  config.keys!.push({ key: CAPPED_KEY, group: 'main', concurrency: 1 })
  ;[a, b] = await Promise.all([startReplica(databaseUrl, secretKey, config), startReplica(databaseUrl, secretKey, config)])
})
afterAll(async () => {
  await Promise.all([a?.stop(), b?.stop()])
  await fake?.close()
})
beforeEach(() => fake.reset())
const sql = () => a.services.store.sql
const leaseCount = async () => (await sql().get<{ n: number }>('SELECT count(*) AS n FROM leases'))!.n

describe('team mode: concurrency caps across replicas', () => {
  it('8 requests over two replicas with a cap of 3: three are served, five get 429 user_concurrency_limit', async () => {
    fake.setScenario({ kind: 'slow', delayMs: 600 })
    const answers = await Promise.all(Array.from({ length: 8 }, (_, i) => (i % 2 ? b : a).post('/v1/chat/completions', body)))
    const statuses = answers.map((r) => r.status).sort()
    expect(statuses).toEqual([200, 200, 200, 429, 429, 429, 429, 429])
    for (const r of answers.filter((r) => r.status === 429)) {
      expect(r.headers.get('retry-after')).toBe('1')
      expect(await errorOf(r)).toMatchObject({ code: 'user_concurrency_limit', message: 'Too many requests in flight for this account (limit 3); retry after the current ones finish.' })
    }
    // Every slot is given back.
    await until('every lease given back', 3_000, async () => (await leaseCount()) === 0)
    expect(a.services.limiter.inFlight() + b.services.limiter.inFlight()).toBe(0)
  })

  it("a key's own cap holds across replicas: apikey_concurrency_limit on the other one", async () => {
    fake.setScenario({ kind: 'slow', delayMs: 400 })
    const held = a.post('/v1/chat/completions', body, as(CAPPED_KEY))
    await until('one lease held', 3_000, async () => (await leaseCount()) === 1)
    const refused = await b.post('/v1/chat/completions', body, as(CAPPED_KEY))
    expect(refused.status).toBe(429)
    expect(refused.headers.get('retry-after-ms')).toBe('1000')
    expect((await errorOf(refused)).code).toBe('apikey_concurrency_limit')
    expect((await held).status).toBe(200)
    fake.setScenario({ kind: 'ok' })
    await until('every lease given back', 3_000, async () => (await leaseCount()) === 0)
    expect((await b.post('/v1/chat/completions', body, as(CAPPED_KEY))).status).toBe(200)
  })

  it("a stopped replica's slots come back when its leases lapse (1 s here)", async () => {
    await sql().run(
      "INSERT INTO leases (id, replica, key_id, expires_at) SELECT 'dead-' || g, 'gone-replica', 'k', clock_timestamp() + interval '1 second' FROM generate_series(1, 3) g",
    )
    const refused = await a.post('/v1/chat/completions', body)
    expect(refused.status).toBe(429)
    expect((await errorOf(refused)).code).toBe('user_concurrency_limit')
    await sleep(1_100)
    expect((await b.post('/v1/chat/completions', body)).status).toBe(200)
  })

  it("the heartbeat renews this replica's leases and records that it was seen", async () => {
    const replica = a.services.store.replica
    await sql().run("INSERT INTO leases (id, replica, key_id, expires_at) VALUES ('held-long', ?, 'k', clock_timestamp() + interval '1 second')", [replica])
    await sleep(1_500)
    expect(await sql().get("SELECT count(*) AS n FROM leases WHERE id = 'held-long' AND expires_at > clock_timestamp()")).toEqual({ n: 1 })
    expect(await sql().get("SELECT count(*) AS n FROM replicas WHERE id = ? AND seen_at > clock_timestamp() - interval '1 second'", [replica])).toEqual({ n: 1 })
    await sql().run("DELETE FROM leases WHERE id = 'held-long'")
  })

  it('a database error while taking the slot answers 503 shared_store_unavailable, never a 500', async () => {
    await sql().run('ALTER FUNCTION take_lease(TEXT, TEXT, TEXT, INTEGER, INTEGER, BIGINT) RENAME TO take_lease_gone')
    try {
      const res = await a.post('/v1/chat/completions', body)
      expect(res.status).toBe(503)
      expect(res.headers.get('retry-after')).toBe('1')
      expect(await errorOf(res)).toMatchObject({
        code: 'shared_store_unavailable',
        message: 'The gateway could not reach its shared database to take a concurrency slot; retry in a moment.',
      })
      const zh = await a.post('/v1/chat/completions', body, { 'accept-language': 'zh-CN' })
      expect((await errorOf(zh)).message).toBe('网关无法连接共享数据库以获取并发名额，请稍后重试。')
      expect(fake.calls).toHaveLength(0)
    } finally {
      await sql().run('ALTER FUNCTION take_lease_gone(TEXT, TEXT, TEXT, INTEGER, INTEGER, BIGINT) RENAME TO take_lease')
    }
    expect((await a.post('/v1/chat/completions', body)).status).toBe(200)
  })
})

describe('team mode: changes and money reach every replica', () => {
  it('media kept through one replica are served by the other, bytes and type intact', async () => {
    const png = makePng(64, 48)
    const upload = await fetch(`${a.url}/admin/v1/media?request=team-media`, { method: 'POST', headers: { authorization: `Bearer ${a.adminToken}`, 'content-type': 'image/png' }, body: new Uint8Array(png) })
    expect(upload.status).toBe(201)
    const { id } = (await upload.json()) as { id: string }
    const served = await fetch(`${b.url}/admin/v1/media/${id}`, { headers: { authorization: `Bearer ${b.adminToken}` } })
    expect([served.status, served.headers.get('content-type')]).toEqual([200, 'image/png'])
    expect(Buffer.from(await served.arrayBuffer()).equals(png)).toBe(true)
  })

  it('a key created through one replica works on the other within a second', async () => {
    const created = await fetch(`${a.url}/admin/v1/keys`, {
      method: 'POST',
      headers: { authorization: `Bearer ${a.adminToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ group: 'main', name: 'made on a' }),
    })
    expect(created.status).toBe(201)
    const { key } = (await created.json()) as { key: string }
    await until('the new key accepted by the other replica', 1_000, async () => (await fetch(`${b.url}/v1/models`, { headers: as(key) })).status === 200)
    expect((await b.post('/v1/chat/completions', body, as(key))).status).toBe(200)
  })

  it("a change of the account's cap through one replica applies on the other", async () => {
    const patch = (concurrency: number) =>
      fetch(`${b.url}/admin/v1/account`, { method: 'PATCH', headers: { authorization: `Bearer ${b.adminToken}`, 'content-type': 'application/json' }, body: JSON.stringify({ concurrency }) })
    expect((await patch(4)).status).toBe(200)
    await until('the account cap of 4 on the other replica', 1_000, () => a.services.registry.account.concurrency === 4)
    expect((await patch(3)).status).toBe(200)
    await until('the account cap of 3 on the other replica', 1_000, () => a.services.registry.account.concurrency === 3)
  })

  it("one replica's charges are seen by the other's pre-call checks within a second", async () => {
    const keyOnB = () => b.services.registry.findKey(TEST_KEY)!
    const before = { balance: b.services.registry.account.balanceNano, used: keyOnB().usedNano }
    const res = await a.post('/v1/chat/completions', body)
    expect(res.status).toBe(200)
    await a.services.store.ledger.flush()
    const charged = (await sql().get<{ cost_nano: number }>('SELECT cost_nano FROM requests WHERE id = ?', [res.headers.get('x-request-id')]))!.cost_nano
    expect(charged).toBeGreaterThan(0)
    await until('the other replica\'s charges seen', 2_000, () => b.services.registry.account.balanceNano === before.balance - charged && keyOnB().usedNano === before.used + charged)
    expect(b.services.registry.upstreams.get('a')!.spentNano).toBe((await sql().get<{ spent_nano: number }>("SELECT spent_nano FROM upstreams WHERE id = 'a'"))!.spent_nano)
  })
})

describe("team mode: the work a stopped replica leaves", () => {
  it("settles its streams and fails its image tasks once, and leaves a live replica's alone", async () => {
    const keyId = a.services.registry.findKey(TEST_KEY)!.id
    const balance = async () => (await sql().get<{ balance_nano: number }>('SELECT balance_nano FROM account'))!.balance_nano
    await a.services.store.ledger.flush()
    await b.services.store.ledger.flush()
    const before = await balance()
    const now = Date.now()
    const pending = (id: string, replica: string) =>
      sql().run(
        `INSERT INTO pending_requests (id, key_id, group_id, model, endpoint, upstream_id, input_tokens, output_tokens, usage, cost_nano, started_at, checkpointed_at, replica)
         VALUES (?, ?, 'main', 'test-gpt', '/v1/chat/completions', 'a', 10, 20, NULL, 7000, ?, ?, ?)`,
        [id, keyId, now - 500, now, replica],
      )
    await pending('req_dead_stream', 'gone-replica')
    await pending('req_live_stream', b.services.store.replica)
    const task = (id: string, replica: string) =>
      sql().run(
        `INSERT INTO tasks (id, kind, key_id, group_id, model, endpoint, status, created_at, updated_at, replica)
         VALUES (?, 'image', ?, 'main', 'test-image', '/v1/images/generations', 'running', ?, ?, ?)`,
        [id, keyId, now, now, replica],
      )
    await task('task_dead', 'gone-replica')
    await task('task_live', a.services.store.replica)

    // Both replicas sweep every second; the dead one's work is settled by one of them, once.
    await until('both leftovers settled', 3_000, async () => (await sql().get<{ n: number }>("SELECT count(*) AS n FROM requests WHERE id IN ('req_dead_stream', 'task_dead')"))!.n === 2)
    await sleep(1_200)
    expect(await sql().get("SELECT status, error_code, cost_nano, output_tokens FROM requests WHERE id = 'req_dead_stream'")).toEqual({
      status: 499, error_code: 'interrupted_by_restart', cost_nano: 7000, output_tokens: 20,
    })
    expect(await balance()).toBe(before - 7000)
    expect(await sql().get("SELECT status, settled FROM tasks WHERE id = 'task_dead'")).toEqual({ status: 'failed', settled: 1 })
    expect(await sql().get("SELECT status, error_code, cost_nano FROM requests WHERE id = 'task_dead'")).toEqual({ status: 503, error_code: 'task_interrupted', cost_nano: 0 })
    // The live replicas' work is theirs.
    expect(await sql().get("SELECT count(*) AS n FROM pending_requests WHERE id = 'req_live_stream'")).toEqual({ n: 1 })
    expect(await sql().get("SELECT status, settled FROM tasks WHERE id = 'task_live'")).toEqual({ status: 'running', settled: 0 })
    await sql().run("DELETE FROM pending_requests WHERE id = 'req_live_stream'")
    await sql().run("DELETE FROM tasks WHERE id = 'task_live'")
  })

  it("does not take a video task another replica has claimed at start; its claim lapses instead", async () => {
    const keyId = a.services.registry.findKey(TEST_KEY)!.id
    const claimedUntil = Date.now() + 60_000
    // Claimed by a live replica (a): a stopped replica's claim is handed back by the sweep (team-video.test.ts).
    await sql().run(
      `INSERT INTO tasks (id, kind, key_id, group_id, model, endpoint, status, created_at, updated_at, next_poll_at, vendor_task_id, upstream_id, replica)
       VALUES ('task_video_claimed', 'video', ?, 'main', 'test-gpt', '/v1/videos', 'running', ?, ?, ?, 'vendor-1', 'a', ?)`,
      [keyId, Date.now(), Date.now(), claimedUntil, a.services.store.replica],
    )
    // A replica starting now resumes nothing another may be polling.
    const third = await startReplica(databaseUrl, secretKey, {})
    try {
      await sleep(300)
      expect(await sql().get("SELECT next_poll_at FROM tasks WHERE id = 'task_video_claimed'")).toEqual({ next_poll_at: claimedUntil })
    } finally {
      await third.stop()
      await sql().run("DELETE FROM tasks WHERE id = 'task_video_claimed'")
    }
  })
})

describe('team mode: close', () => {
  it("gives back every lease the replica holds and stops its heartbeat", async () => {
    const c = await startReplica(databaseUrl, secretKey, {})
    const replica = c.services.store.replica
    await sql().run("INSERT INTO leases (id, replica, key_id, expires_at) VALUES ('held-by-c', ?, 'k', clock_timestamp() + interval '1 minute')", [replica])
    await c.stop()
    expect(await sql().get('SELECT count(*) AS n FROM leases WHERE replica = ?', [replica])).toEqual({ n: 0 })
    const seen = await sql().get<{ seen_at: Date }>('SELECT seen_at FROM replicas WHERE id = ?', [replica])
    await sleep(700)
    expect(await sql().get<{ seen_at: Date }>('SELECT seen_at FROM replicas WHERE id = ?', [replica])).toEqual(seen)
  })
})
