// Hard caps for video (issue 24): a video submission's reservation (its largest possible cost) counts against the
// budget of the upstream account it is sent to, as a request's hold does. Failover skips an account whose budget,
// less what was spent through it and what other requests and video tasks hold on it, cannot take the video
// (`skipped: budget`); when none can, the answer is 402 before any task is created; the reservation is the task's
// hold (store/holds.ts), which the task's end settles.
// Runs on SQLite (node) and PostgreSQL (node-pg).
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import type { RunningGateway } from '../../electron/gateway/gateway.js'
import { pollVideoTask } from '../../electron/gateway/tasks/video-poller.js'
import { DEFAULT_VIDEO_POLL } from '../../electron/gateway/tasks/video-runtime.js'
import type { FakeVideoServer } from '../fakes/video/task-script.js'
import { startFakeXai } from '../fakes/video/xai.js'
import { startGatewayOnTestStore, TEST_KEY, tempDataDir } from '../helpers/gateway.js'
import { adminClient } from './admin/admin-helpers.js'

const GROK = 'grok-imagine-video'
// 6 s at 720p, $0.07 a second: what each submission reserves.
const VIDEO = { model: GROK, prompt: 'a fox', duration: 6, resolution: '720p' }
const RESERVED = 420_000_000
// Room for two reservations on account x1, not three.
const X1_BUDGET = 3 * RESERVED - 1
const usd = (nano: number) => (nano / 1e9).toFixed(9).replace(/\.?0+$/, '')

let x1: FakeVideoServer
let x2: FakeVideoServer
let gw: RunningGateway
let data: { dir: string; remove(): void }

beforeAll(async () => {
  ;[x1, x2] = await Promise.all([startFakeXai(), startFakeXai()])
  data = tempDataDir()
  gw = await startGatewayOnTestStore({
    dataDir: data.dir, port: 0, log: () => {},
    // The poller is off: each task stays under way until the test polls it.
    videoPoll: { enabled: false, timeoutMs: 300 },
    config: {
      account: { balance: 100, concurrency: 20 },
      upstreams: [
        { id: 'x1', vendor: 'xai', baseUrl: `${x1.url}/v1`, apiKey: 'xai-test-key' },
        { id: 'x2', vendor: 'xai', baseUrl: `${x2.url}/v1`, apiKey: 'xai-test-key' },
      ],
      groups: [{ id: 'video', protocol: 'chat', models: [GROK], upstreams: ['x1', 'x2'] }],
      keys: [{ key: TEST_KEY, group: 'video' }],
      network: { allowPrivateAddresses: true },
    },
  })
})
afterAll(async () => {
  await gw?.close(1_000)
  data?.remove()
  await Promise.all([x1?.close(), x2?.close()])
})

const admin = () => adminClient(gw as never)

beforeEach(async () => {
  x1.reset()
  x2.reset()
  // Limits counted anew from each change.
  for (const id of ['x1', 'x2']) expect((await admin().patch(`/admin/v1/upstreams/${id}`, { budget: null })).status).toBe(200)
})

async function submit(body: unknown = VIDEO): Promise<{ status: number; body: Record<string, any>; id: string }> {
  const res = await fetch(`${gw.url}/v1/video/generate`, {
    method: 'POST', headers: { authorization: `Bearer ${TEST_KEY}`, 'content-type': 'application/json' }, body: JSON.stringify(body),
  })
  return { status: res.status, body: (await res.json()) as Record<string, any>, id: res.headers.get('x-request-id')! }
}

const creates = (fake: FakeVideoServer) => fake.calls.filter((c) => c.method === 'POST').length
const sql = () => gw.services.store.sql
const spent = async (id: string) => Number((await sql().get<{ spent_nano: number }>('SELECT spent_nano FROM upstreams WHERE id = ?', [id]))!.spent_nano)

/** Polls a task until it is settled (bounded). */
async function settle(taskId: string): Promise<void> {
  for (let i = 0; i < 20; i++) {
    await pollVideoTask(gw.services, taskId, { ...DEFAULT_VIDEO_POLL, enabled: false, timeoutMs: 300 })
    const row = await sql().get<{ settled: number; next_poll_at: number | null }>('SELECT settled, next_poll_at FROM tasks WHERE id = ?', [taskId])
    if (row?.settled === 1 && row.next_poll_at === null) return
  }
  throw new Error(`task ${taskId} never settled`)
}

describe('a video reservation counts against the budget of the upstream account it is sent to', () => {
  it('of five at once, two go to the account whose budget holds two, three skip it (skipped: budget) to the next', async () => {
    expect((await admin().patch('/admin/v1/upstreams/x1', { budget: X1_BUDGET / 1e9 })).status).toBe(200)
    const answers = await Promise.all(Array.from({ length: 5 }, (_, i) => submit({ ...VIDEO, seed: i })))
    expect(answers.map((a) => a.status)).toEqual([202, 202, 202, 202, 202])
    expect(answers.map((a) => a.body.reserved)).toEqual([0.42, 0.42, 0.42, 0.42, 0.42])
    expect([creates(x1), creates(x2)]).toEqual([2, 3])
    const ids = answers.map((a) => a.body.task_id as string)
    const onX1 = await sql().all<{ id: string }>(`SELECT id FROM tasks WHERE upstream_id = 'x1' AND settled = 0 AND id IN (${ids.map(() => '?').join(', ')})`, ids)
    expect(onX1).toHaveLength(2)
    await gw.services.store.ledger.flush()
    const requestIds = answers.map((a) => a.id)
    expect(await sql().get(`SELECT COUNT(*) AS n FROM requests WHERE attempts LIKE '%skipped: budget%' AND id IN (${requestIds.map(() => '?').join(', ')})`, requestIds))
      .toEqual({ n: 3 })
    // Settled as each ends: the account's spend is what its two tasks cost, and nothing is reserved on it any more.
    for (const id of ids) await settle(id)
    await gw.services.store.ledger.flush()
    const billed = await sql().get<{ n: number }>(`SELECT COALESCE(SUM(cost_nano), 0) AS n FROM requests WHERE upstream_id = 'x1' AND id IN (${ids.map(() => '?').join(', ')})`, ids)
    expect(Number(billed!.n)).toBeGreaterThan(0)
    expect(await spent('x1')).toBe(Number(billed!.n))
    expect(await sql().get("SELECT COUNT(*) AS n FROM tasks WHERE upstream_id = 'x1' AND settled = 0")).toEqual({ n: 0 })
    expect(Number((await gw.services.store.account.get()).reserved_nano)).toBe(0)
  })

  it('when no account has room, the answer is 402 before any task or vendor call, naming the accounts and what is left', async () => {
    expect((await admin().patch('/admin/v1/upstreams/x1', { budget: (RESERVED - 1) / 1e9 })).status).toBe(200)
    expect((await admin().patch('/admin/v1/upstreams/x2', { budget: (RESERVED - 2) / 1e9 })).status).toBe(200)
    const tasksBefore = await sql().get<{ n: number }>('SELECT COUNT(*) AS n FROM tasks')
    const refused = await submit()
    expect(refused.status).toBe(402)
    expect(refused.body).toEqual({ error: {
      message: `This request could cost up to ${usd(RESERVED)} USD, more than is left of the budget of any upstream account that serves ${GROK} (x1, x2; at most ${usd(RESERVED - 1)} USD left).`,
      type: 'insufficient_quota', param: null, code: 'insufficient_quota',
    } })
    expect([creates(x1), creates(x2)]).toEqual([0, 0])
    expect(await sql().get<{ n: number }>('SELECT COUNT(*) AS n FROM tasks')).toEqual(tasksBefore)
    expect(Number((await gw.services.store.account.get()).reserved_nano)).toBe(0)
  })

  it('a video under way keeps its reservation on the account until its end settles it', async () => {
    // Room for one video's reservation and nothing more.
    expect((await admin().patch('/admin/v1/upstreams/x1', { budget: RESERVED / 1e9 })).status).toBe(200)
    expect((await admin().patch('/admin/v1/upstreams/x2', { budget: 0 })).status).toBe(200)
    const video = await submit()
    expect(video.status).toBe(202)
    expect([creates(x1), creates(x2)]).toEqual([1, 0])
    // The reservation is the task's hold, on the account that took it.
    expect(await sql().get('SELECT amount_nano, upstream_id FROM holds WHERE id = ?', [video.body.task_id])).toEqual({ amount_nano: RESERVED, upstream_id: 'x1' })
    // A second video has no room on x1 (its budget is the first video's reservation); x2, whose budget is 0, is
    // no longer an account of the model at all.
    const second = await submit({ ...VIDEO, seed: 7 })
    expect(second.status).toBe(402)
    expect(second.body.error.message).toBe(
      `This request could cost up to ${usd(RESERVED)} USD, more than is left of the budget of any upstream account that serves ${GROK} (x1; at most 0 USD left).`,
    )
    expect([creates(x1), creates(x2)]).toEqual([1, 0])
    // The task's end charges what it cost and gives the rest back: the account's spend is the task's bill.
    await settle(video.body.task_id)
    await gw.services.store.ledger.flush()
    const row = await sql().get<{ cost_nano: number; upstream_id: string }>('SELECT cost_nano, upstream_id FROM requests WHERE id = ?', [video.body.task_id])
    expect(row!.upstream_id).toBe('x1')
    expect(await spent('x1')).toBe(Number(row!.cost_nano))
    expect(await sql().get("SELECT COUNT(*) AS n FROM tasks WHERE upstream_id = 'x1' AND settled = 0")).toEqual({ n: 0 })
    expect(await sql().get('SELECT COUNT(*) AS n FROM holds WHERE id = ?', [video.body.task_id])).toEqual({ n: 0 })
  })
})
