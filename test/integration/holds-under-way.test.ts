// The holds of requests under way (issue 27): one process on SQLite keeps them in memory, not as rows; team mode
// (PostgreSQL) keeps rows that every replica reads. Either way a request under way is counted as reserved wherever
// money is shown, and by every other funds check: another request's, and a video submission's reservation.
// Runs on SQLite (node) and PostgreSQL (node-pg).
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { startFakeOpenAI } from '../fakes/openai.js'
import { startFakeXai } from '../fakes/video/xai.js'
import { chatConfig, TEST_KEY, withGateway } from '../helpers/gateway.js'
import { until } from '../helpers/until.js'
import { adminClient } from './admin/admin-helpers.js'

// test-gpt: 2000 nano-USD an input token, 8000 an output token.
const MAX_TOKENS = 40
const PROMPT_TOKENS = 4
const chat = { model: 'test-gpt', max_tokens: MAX_TOKENS, messages: [{ role: 'user', content: 'hello there' }] }
/** What the chat holds while it runs: the prompt and max_tokens of output. */
const WORST = PROMPT_TOKENS * 2000 + MAX_TOKENS * 8000
const GROK = 'grok-imagine-video'
/** A 6 s 720p video at $0.07 a second: its reservation. */
const VIDEO = { model: GROK, prompt: 'a fox', duration: 6, resolution: '720p' }
const RESERVED = 420_000_000
const usd = (nano: number) => (nano / 1e9).toFixed(9).replace(/\.?0+$/, '')
/** USD as the video refusals write it: four decimals. */
const usd4 = (nano: number) => (nano / 1e9).toFixed(4)

const { gw, fakes: { openai, xai } } = withGateway({
  fakes: { openai: startFakeOpenAI, xai: startFakeXai },
  config({ openai, xai }) {
    const config = chatConfig([{ id: 'a', baseUrl: openai.url }])
    config.account = { concurrency: 20 }
    config.upstreams!.push({ id: 'x', vendor: 'xai', baseUrl: `${xai.url}/v1`, apiKey: 'xai-test-key' })
    config.groups![0]!.models.push(GROK)
    config.groups![0]!.upstreams.push('x')
    return config
  },
  // The poller is off: a video task stays under way, holding its reservation.
  options: { videoPoll: { enabled: false } },
  resetFakes: true,
})
const admin = adminClient(gw)

beforeEach(async () => {
  expect((await admin.patch('/admin/v1/account', { budget: null })).status).toBe(200)
})
// A video task a test left under way is ended, its reservation released: the next test starts with nothing reserved.
afterEach(async () => {
  const { store } = gw.services
  for (const task of await store.sql.all<{ id: string }>("SELECT id FROM tasks WHERE kind = 'video' AND settled = 0")) await store.tasks.video.failSubmission(task.id, 'ended by the test')
})

/** A chat that the fake answers after `ms`, started now; resolves with its status once answered. */
function slowChat(ms: number): Promise<number> {
  openai.setScenario({ kind: 'slow', delayMs: ms })
  return gw.post('/v1/chat/completions', chat).then(async (res) => (await res.arrayBuffer(), res.status))
}
const usage = async () => (await (await gw.get('/v1/usage')).json()) as { reserved: number; available: number | null; key: { reserved: number } }
/** What the last request cost, as its ledger row says. */
const lastCost = async () => {
  await gw.services.store.ledger.flush()
  return Number((await gw.services.store.sql.get<{ cost_nano: number }>('SELECT cost_nano FROM requests ORDER BY created_at DESC LIMIT 1'))!.cost_nano)
}
const holdRows = async () => Number((await gw.services.store.sql.get<{ n: number }>('SELECT COUNT(*) AS n FROM holds'))!.n)

describe('a request under way', () => {
  it('is reserved in /v1/usage and the admin API while it runs, and nothing is once its row is written', async () => {
    expect((await admin.patch('/admin/v1/account', { budget: 1 })).status).toBe(200)
    const answered = slowChat(800)
    await until('the chat at the vendor', 5_000, async () => openai.calls.length === 1)
    expect(await usage()).toMatchObject({ reserved: WORST / 1e9, available: (1e9 - WORST) / 1e9, key: { reserved: WORST / 1e9 } })
    expect((await admin.get('/admin/v1/account')).json).toMatchObject({ reserved: WORST / 1e9 })
    const keys = (await admin.get('/admin/v1/keys')).json as Array<{ name: string | null; reserved: number }>
    expect(keys.find((k) => k.name === 'test')).toMatchObject({ reserved: WORST / 1e9 })
    // One process on SQLite holds it in memory; team mode writes the row every replica reads.
    expect(await holdRows()).toBe(gw.services.store.sql.dialect === 'sqlite' ? 0 : 1)
    expect(await answered).toBe(200)
    const cost = await lastCost()
    expect(cost).toBeGreaterThan(0)
    expect(await usage()).toMatchObject({ reserved: 0, available: (1e9 - cost) / 1e9, key: { reserved: 0 } })
    expect((await admin.get('/admin/v1/account')).json).toMatchObject({ reserved: 0 })
    expect(await holdRows()).toBe(0)
  })

  it('counts against a video submission: refused (402) while the chat runs, reserved once it has been billed', async () => {
    // Room for the video after the chat's cost (less than its worst case), not beside the chat's worst case.
    const budget = RESERVED + WORST - 1
    expect((await admin.patch('/admin/v1/account', { budget: budget / 1e9 })).status).toBe(200)
    const answered = slowChat(800)
    await until('the chat at the vendor', 5_000, async () => openai.calls.length === 1)
    const refused = await gw.post('/v1/video/generate', VIDEO)
    expect(refused.status).toBe(402)
    expect(await refused.json()).toEqual({
      error: {
        message: `The account balance cannot cover this video's reservation of ${usd4(RESERVED)} USD (its largest possible cost; ${usd4(budget - WORST)} USD available). Top up, or ask for a shorter or lower-resolution video.`,
        type: 'insufficient_quota', param: null, code: 'insufficient_quota',
      },
    })
    expect(xai.calls).toHaveLength(0)
    expect(await answered).toBe(200)
    const cost = await lastCost()
    const accepted = await gw.post('/v1/video/generate', VIDEO, { 'idempotency-key': 'after-the-chat' })
    expect(accepted.status).toBe(202)
    expect(await usage()).toMatchObject({ reserved: RESERVED / 1e9, available: (budget - cost - RESERVED) / 1e9 })
  })

  it('a video task under way counts against a request: refused (402) naming what the reservation left', async () => {
    const budget = RESERVED + WORST - 1
    expect((await admin.patch('/admin/v1/account', { budget: budget / 1e9 })).status).toBe(200)
    expect((await gw.post('/v1/video/generate', VIDEO, { 'idempotency-key': 'first' })).status).toBe(202)
    const refused = await gw.post('/v1/chat/completions', chat)
    expect(refused.status).toBe(402)
    const fit = Math.floor((WORST - 1 - PROMPT_TOKENS * 2000) / 8000)
    expect(await refused.json()).toEqual({
      error: {
        message: `This request could cost up to ${usd(WORST)} USD, and ${usd(WORST - 1)} USD is left of the account's budget (less what requests under way hold). A lower max_tokens fits: at most ${fit}.`,
        type: 'insufficient_quota', param: null, code: 'insufficient_quota',
      },
    })
    expect(openai.calls).toHaveLength(0)
  })
})

describe(`requests at once`, () => {
  it('a budget with room for 3 worst cases: of 12 slow requests at once exactly 3 are answered, and 9 refused while they run', async () => {
    expect((await admin.patch('/admin/v1/account', { budget: (4 * WORST - 1) / 1e9 })).status).toBe(200)
    openai.setScenario({ kind: 'slow', delayMs: 300 })
    const statuses = await Promise.all(Array.from({ length: 12 }, () => gw.post('/v1/chat/completions', chat).then(async (res) => (await res.arrayBuffer(), res.status))))
    expect(statuses.filter((s) => s === 200)).toHaveLength(3)
    expect(statuses.filter((s) => s === 402)).toHaveLength(9)
    await gw.services.store.ledger.flush()
    expect(await usage()).toMatchObject({ reserved: 0 })
    expect(await holdRows()).toBe(0)
  })
})
