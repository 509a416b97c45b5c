// Video tasks survive what breaks other gateways: two pollers racing on one task, a restart mid-task, polls that
// time out or fail. Settlement and release happen exactly once; a task is never failed because a poll failed.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import type { GatewayConfig } from '../../electron/gateway/config/load-config.js'
import type { RunningGateway } from '../../electron/gateway/gateway.js'
import { pollVideoTask } from '../../electron/gateway/tasks/video-poller.js'
import { DEFAULT_VIDEO_POLL, type VideoPollOptions } from '../../electron/gateway/tasks/video-runtime.js'
import { startFakeArk } from '../fakes/video/ark.js'
import type { FakeVideoServer } from '../fakes/video/task-script.js'
import { startFakeXai } from '../fakes/video/xai.js'
import { startGatewayOnTestStore, TEST_KEY, tempDataDir } from '../helpers/gateway.js'

const SEEDANCE = 'doubao-seedance-2-0-260128'
const GROK = 'grok-imagine-video'
const FAST: Partial<VideoPollOptions> = { intervalMs: 15, maxIntervalMs: 40, timeoutMs: 200 }
const MANUAL: Partial<VideoPollOptions> = { enabled: false, timeoutMs: 200 }

let ark: FakeVideoServer
let xai: FakeVideoServer
const open: RunningGateway[] = []
const dirs: Array<{ dir: string; remove(): void }> = []

function config(): GatewayConfig {
  return {
    account: { balance: 50, concurrency: 10 },
    upstreams: [
      { id: 'ark', vendor: 'ark', baseUrl: `${ark.url}/api/v3`, apiKey: 'ark-test-key' },
      { id: 'xai', vendor: 'xai', baseUrl: `${xai.url}/v1`, apiKey: 'xai-test-key' },
    ],
    groups: [{ id: 'video', protocol: 'chat', models: [SEEDANCE, GROK], upstreams: ['ark', 'xai'] }],
    keys: [{ key: TEST_KEY, group: 'video' }],
    // The fakes' video links are on 127.0.0.1.
    network: { allowPrivateAddresses: true },
  }
}

/** A gateway on `dir` (a new one unless given: a restart reuses the dir). */
async function start(videoPoll: Partial<VideoPollOptions>, dir?: string, logs: string[] = []): Promise<RunningGateway> {
  if (dir === undefined) {
    const data = tempDataDir()
    dirs.push(data)
    dir = data.dir
  }
  const gw = await startGatewayOnTestStore({ dataDir: dir, config: config(), port: 0, log: (l) => logs.push(l), videoPoll })
  open.push(gw)
  return gw
}
async function close(gw: RunningGateway): Promise<void> {
  open.splice(open.indexOf(gw), 1)
  await gw.close(1_000)
}

beforeAll(async () => {
  ark = await startFakeArk()
  xai = await startFakeXai()
})
afterAll(async () => {
  await Promise.all(open.map((gw) => gw.close(1_000)))
  for (const d of dirs) d.remove()
  await Promise.all([ark.close(), xai.close()])
})
beforeEach(() => {
  ark.reset()
  xai.reset()
})

const auth = { authorization: `Bearer ${TEST_KEY}` }
async function submit(gw: RunningGateway, body: object): Promise<string> {
  const res = await fetch(`${gw.url}/v1/video/generate`, { method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body: JSON.stringify(body) })
  expect(res.status).toBe(202)
  return ((await res.json()) as { task_id: string }).task_id
}
const view = async (gw: RunningGateway, id: string) => (await (await fetch(`${gw.url}/v1/video/tasks/${id}`, { headers: auth })).json()) as Record<string, any>
async function until(gw: RunningGateway, id: string, status: string, ms = 5_000): Promise<Record<string, any>> {
  const deadline = Date.now() + ms
  for (;;) {
    const task = await view(gw, id)
    if (task.status === status) return task
    if (Date.now() > deadline) throw new Error(`task ${id} not ${status}: ${JSON.stringify(task)}`)
    await new Promise((r) => setTimeout(r, 15))
  }
}
const account = (gw: RunningGateway) => gw.services.store.account.get()
const ledgerCount = async (gw: RunningGateway, id: string) => (await gw.services.store.sql.get<{ n: number }>('SELECT COUNT(*) AS n FROM requests WHERE id = ?', [id]))!.n
const keyUsed = async (gw: RunningGateway) => (await gw.services.store.sql.get<{ used_nano: number }>('SELECT used_nano FROM api_keys'))!.used_nano
const polls = (fake: FakeVideoServer) => fake.calls.filter((c) => c.method === 'GET')

describe('exactly-once settlement', () => {
  it('two pollers racing on one finished task bill it once and release once', async () => {
    const gw = await start(MANUAL)
    const before = (await account(gw))
    xai.script(['succeeded'])
    xai.switches.slow = 80 // both polls are in flight at the same time
    const id = await submit(gw, { model: GROK, prompt: 'race', duration: 5, resolution: '480p' })
    expect((await account(gw)).reserved_nano).toBe(before.reserved_nano + 250_000_000)
    const opts = { ...DEFAULT_VIDEO_POLL, ...MANUAL }
    const outcomes = await Promise.all([pollVideoTask(gw.services, id, opts), pollVideoTask(gw.services, id, opts)])
    expect(outcomes.sort()).toEqual(['already', 'settled'])
    expect(polls(xai)).toHaveLength(2)
    expect((await ledgerCount(gw, id))).toBe(1)
    expect((await account(gw))).toMatchObject({ balance_nano: before.balance_nano - 250_000_000, reserved_nano: before.reserved_nano })
    expect((await keyUsed(gw))).toBe(250_000_000)
    expect(gw.services.registry.account).toMatchObject({ balanceNano: before.balance_nano - 250_000_000, reservedNano: before.reserved_nano })
    expect([...gw.services.registry.keysByHash.values()][0].usedNano).toBe(250_000_000)
    // A third poll after the end changes nothing.
    await pollVideoTask(gw.services, id, opts)
    expect((await account(gw)).balance_nano).toBe(before.balance_nano - 250_000_000)
    await close(gw)
  })

  it('two gateways with live pollers on one data dir settle a task once', async () => {
    const a = await start(FAST)
    const b = await start(FAST, dirs[dirs.length - 1].dir)
    const before = (await account(a))
    ark.script(['queued', 'running', 'running', 'succeeded'])
    const id = await submit(a, { model: SEEDANCE, prompt: 'two pollers', duration: 4, resolution: '480p' })
    await until(a, id, 'succeeded')
    await until(b, id, 'succeeded')
    await new Promise((r) => setTimeout(r, 100)) // any late poll of either would have settled by now
    expect((await ledgerCount(a, id))).toBe(1)
    expect((await account(a))).toMatchObject({ balance_nano: before.balance_nano - 252_000_000, reserved_nano: before.reserved_nano })
    await Promise.all([close(a), close(b)])
  })
})

describe('restart mid-task', () => {
  it('a new gateway on the same data dir resumes the task, completes it and bills it once', async () => {
    const first = await start(MANUAL)
    const dir = dirs[dirs.length - 1].dir
    const before = (await account(first))
    ark.script(['queued', 'running', 'running', 'running', 'succeeded'])
    const id = await submit(first, { model: SEEDANCE, prompt: 'survive a restart', duration: 5, resolution: '720p' })
    const opts = { ...DEFAULT_VIDEO_POLL, ...MANUAL }
    expect(await pollVideoTask(first.services, id, opts)).toBe('pending')
    expect(await pollVideoTask(first.services, id, opts)).toBe('pending')
    expect((await view(first, id)).status).toBe('running')
    await close(first)

    const second = await start(FAST, dir)
    // The reservation survived the restart (the task needs three more polls before it can settle).
    expect(second.services.registry.account.reservedNano).toBe(before.reserved_nano + 699_500_000)
    const task = await until(second, id, 'succeeded')
    expect(task.usage).toEqual({ seconds: 5, cost: 0.6995 })
    expect(ark.calls.filter((c) => c.method === 'POST')).toHaveLength(1) // resumed, not resubmitted
    expect(new Set(polls(ark).map((c) => c.path)).size).toBe(1) // one vendor task throughout
    expect((await ledgerCount(second, id))).toBe(1)
    expect((await account(second))).toMatchObject({ balance_nano: before.balance_nano - 699_500_000, reserved_nano: before.reserved_nano })
    expect((await fetch(`${second.url}/v1/usage`, { headers: auth }).then((r) => r.json()) as { reserved: number }).reserved).toBe(0)
    await close(second)
  })
})

describe('a submission cut off by a restart', () => {
  it('is left alone while its vendor call may still answer, then failed unbilled with its reservation released', async () => {
    const gw = await start({ ...MANUAL, submitTimeoutMs: 1_000 })
    const opts = { ...DEFAULT_VIDEO_POLL, ...MANUAL, submitTimeoutMs: 1_000 }
    const before = (await account(gw))
    const now = Date.now()
    const row = {
      id: 'task_cutoff', kind: 'video' as const, key_id: (await gw.services.store.apiKeys.all())[0].id, group_id: 'video', model: GROK, endpoint: 'video.generate',
      upstream_id: null, vendor_task_id: null, status: 'queued' as const, progress: null,
      request: JSON.stringify({ price: { rateUsd: 0.05, maxSeconds: 4, fallbackSeconds: 4, reservedNano: 200_000_000 } }), result: null, error: null,
      reserved_nano: 200_000_000, cost_nano: 0, settled: 0, idempotency_key: null, created_at: now, updated_at: now,
      next_poll_at: now, poll_attempts: 0, request_hash: 'h', vendor_status: null,
    }
    expect((await gw.services.store.tasks.video.reserve(row, { idempotencyKey: null, keySince: 0, since: now })).kind).toBe('created')
    expect((await account(gw)).reserved_nano).toBe(before.reserved_nano + 200_000_000)
    expect(await pollVideoTask(gw.services, row.id, opts)).toBe('pending')
    expect((await gw.services.store.tasks.video.get(row.id))!.next_poll_at).toBe(now + 2_000)
    await gw.services.store.sql.run('UPDATE tasks SET created_at = ? WHERE id = ?', [now - 2_001, row.id])
    expect(await pollVideoTask(gw.services, row.id, opts)).toBe('settled')
    expect(await view(gw, row.id)).toMatchObject({ status: 'failed', error: { code: 'task_interrupted' }, reserved: 0 })
    expect((await account(gw))).toMatchObject({ balance_nano: before.balance_nano, reserved_nano: before.reserved_nano })
    expect(xai.calls).toHaveLength(0)
    await close(gw)
  })
})

describe('poll errors and timeouts never fail a task', () => {
  it('errors and hung polls are retried later; the task stays as it was', async () => {
    const gw = await start(MANUAL)
    const opts = { ...DEFAULT_VIDEO_POLL, ...MANUAL }
    ark.script(['running', 'succeeded'])
    const id = await submit(gw, { model: SEEDANCE, prompt: 'flaky vendor', duration: 4, resolution: '480p' })
    ark.switches.errorOnPoll = { status: 500, count: 2 }
    ark.switches.timeoutOnPoll = 1
    for (let i = 0; i < 3; i++) expect(await pollVideoTask(gw.services, id, opts)).toBe('pending')
    const row = (await gw.services.store.tasks.video.get(id))!
    expect([row.status, row.settled, row.poll_attempts]).toEqual(['queued', 0, 3])
    expect(row.next_poll_at).toBeGreaterThan(Date.now())
    expect(await pollVideoTask(gw.services, id, opts)).toBe('pending')
    expect((await view(gw, id)).status).toBe('running')
    expect(await pollVideoTask(gw.services, id, opts)).toBe('settled')
    expect((await view(gw, id)).status).toBe('succeeded')
    await close(gw)
  })

  it('the background poller rides through timeouts and 429s to the vendor\'s answer', async () => {
    const logs: string[] = []
    const gw = await start(FAST, undefined, logs)
    xai.script(['queued', 'running', 'succeeded'])
    xai.switches.timeoutOnPoll = 2
    xai.switches.errorOnPoll = { status: 429, count: 2 }
    const id = await submit(gw, { model: GROK, prompt: 'patience', duration: 3, resolution: '480p' })
    const task = await until(gw, id, 'succeeded')
    expect(task.usage).toEqual({ seconds: 3, cost: 0.15 })
    expect(logs.filter((l) => l.includes('trying again later'))).toHaveLength(4)
    await close(gw)
  })

  it('only a task past the maximum age is given up, unbilled', async () => {
    const gw = await start({ ...MANUAL, maxAgeMs: 60_000 })
    const before = (await account(gw))
    const id = await submit(gw, { model: GROK, prompt: 'lost', duration: 2, resolution: '480p' })
    xai.switches.errorOnPoll = { status: 503, count: 5 }
    const opts = { ...DEFAULT_VIDEO_POLL, ...MANUAL, maxAgeMs: 60_000 }
    expect(await pollVideoTask(gw.services, id, opts)).toBe('pending')
    await gw.services.store.sql.run('UPDATE tasks SET created_at = ? WHERE id = ?', [Date.now() - 61_000, id])
    expect(await pollVideoTask(gw.services, id, opts)).toBe('settled')
    expect(await view(gw, id)).toMatchObject({ status: 'failed', error: { code: 'task_expired' }, reserved: 0 })
    expect((await account(gw))).toMatchObject({ balance_nano: before.balance_nano, reserved_nano: before.reserved_nano })
    await close(gw)
  })
})
