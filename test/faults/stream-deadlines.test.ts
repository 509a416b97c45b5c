// A stream's deadlines and its end (README "Deadlines"): the first token armed as a timer when the headers come (the
// default, and a model's own), a stall once content flows (the default idle limit), a body that ends without [DONE]
// after every finish, and a client that leaves right after [DONE]. The tests that wait in real time run concurrently,
// each on its own model.
import { describe, expect, it } from 'vitest'
import { promptText, countTextTokens } from '../../electron/gateway/tokens/tokens.js'
import type { GatewayConfig } from '../../electron/gateway/config/load-config.js'
import { TEST_KEY, withGateway, type TestGateway } from '../helpers/gateway.js'
import { readSse } from '../helpers/sse.js'
import { until } from '../helpers/until.js'
import { answerFrames, chunk, DONE, startPacedUpstream, usageChunk } from './paced-upstream.js'

const MODELS = ['slow-thinker', 'quick-thinker', 'staller', 'no-done', 'no-done-bare', 'done-then-hold', 'healthy']
const SHORT_IDLE_MS = 2_000
const SOLO_KEY = 'sk-solo-0123456789abcdef'

const config = (origin: string, timeouts: GatewayConfig['timeouts']): GatewayConfig => ({
  account: { balance: 100, concurrency: 20 },
  models: MODELS.map((id) => ({
    id, family: 'gpt' as const, vendor: 'openai' as const, pricing: { unit: 'token' as const, input: 2, output: 8 },
    // An output limit, as every real model has: a request without max_tokens holds it as its worst case.
    limits: { maxOutputTokens: 4096 },
    // quick-thinker's own first-token deadline; the others keep the gateway's (120 s)
    ...(id === 'quick-thinker' ? { firstTokenMs: 10_000 } : {}),
  })),
  upstreams: ['a', 'b'].map((id) => ({ id, vendor: 'openai' as const, baseUrl: `${origin}/${id}/v1`, apiKey: `sk-upstream-${id}` })),
  groups: [
    { id: 'pair', protocol: 'chat' as const, models: MODELS, upstreams: ['a', 'b'] },
    { id: 'solo', protocol: 'chat' as const, models: MODELS, upstreams: ['a'] },
  ],
  keys: [{ key: TEST_KEY, group: 'pair' }, { key: SOLO_KEY, group: 'solo' }],
  timeouts,
})

// A gateway whose idle limit (2 s) is far below the first token's default (120 s): silence before the first token
// is the first token's deadline alone. Every other deadline is the default.
const { gw, fakes: { paced } } = withGateway({
  fakes: { paced: startPacedUpstream },
  config: ({ paced }) => config(paced.origin, { idleMs: SHORT_IDLE_MS }),
})
// A gateway with every default, for the default idle limit (30 s).
const { gw: defaultGw } = withGateway({ config: () => config(paced.origin, undefined) })

const messages = [{ role: 'user', content: 'hello' }]
const stream = (model: string, key = TEST_KEY, extra: Record<string, unknown> = {}, on: TestGateway = gw) =>
  on.post('/v1/chat/completions', { model, messages, stream: true, ...extra }, { authorization: `Bearer ${key}` })
const ledgerRow = (id: string | null, on: TestGateway = gw) => on.services.store.ledger.get(id ?? '')
/** The answer's text, from its content chunks. */
const textOf = (events: Array<{ data: string }>) =>
  events.filter((e) => e.data !== '[DONE]').map((e) => JSON.parse(e.data) as { choices?: Array<{ delta?: { content?: string } }> })
    .flatMap((c) => c.choices ?? []).map((c) => c.delta?.content ?? '').join('')
const callsOf = (model: string) => paced.calls.filter((c) => c.model === model)

// One block: its tests run concurrently, so the file takes as long as its longest wait (30 s).
describe('a stream under its deadlines, and its end', () => {
  it.concurrent('the first token: the default (120 s) waits for a first token 20 s late, silent far past the idle limit: the slow account answers', async () => {
    paced.script('a', 'slow-thinker', { steps: [{ frames: [chunk('slow-thinker', { role: 'assistant', content: '' })] }, { waitMs: 20_000 }, { frames: [...answerFrames('slow-thinker', ['Thought', ' long.']).slice(1), DONE] }] })
    const res = await stream('slow-thinker')
    expect(res.status).toBe(200)
    const events = await readSse(res)
    expect([textOf(events), events.at(-1)?.data]).toEqual(['Thought long.', '[DONE]'])
    expect(callsOf('slow-thinker').map((c) => c.account)).toEqual(['a'])
    expect(await ledgerRow(res.headers.get('x-request-id'))).toMatchObject({ status: 200, error_code: null, upstream_id: 'a' })
  }, 40_000)

  it.concurrent("the first token: a model's own deadline (10 s): pings, a role chunk and an empty delta are no token, and the next account answers at the deadline", async () => {
    const model = 'quick-thinker'
    paced.script('a', model, {
      steps: [{ frames: [': ping\n\n', chunk(model, { role: 'assistant', content: '' }), chunk(model, { content: '' })] }, { waitMs: 20_000 }, { frames: [...answerFrames(model, ['Too', ' late.']).slice(1), DONE] }],
    })
    const res = await stream(model)
    expect(res.status).toBe(200)
    const events = await readSse(res)
    expect([textOf(events), events.at(-1)?.data]).toEqual(['Hello from b.', '[DONE]'])
    const [first, second] = callsOf(model)
    expect([first.account, second.account]).toEqual(['a', 'b'])
    // Given up at the deadline, never sooner; the first account's connection closed by then.
    expect(second.at - first.at).toBeGreaterThanOrEqual(10_000)
    expect(first.closedAt).toBeLessThanOrEqual(second.at)
    expect(await ledgerRow(res.headers.get('x-request-id'))).toMatchObject({ status: 200, error_code: null, upstream_id: 'b' })
  }, 40_000)

  it.concurrent('a stall once content flows ends in a clean error event at the default idle limit (30 s), billed for what was sent; the gateway answers the next request', async () => {
    const model = 'staller'
    paced.script('a', model, { steps: [{ frames: answerFrames(model, ['Half', ' an']).slice(0, 3) }], end: 'hold' })
    const res = await stream(model, SOLO_KEY, {}, defaultGw)
    expect(res.status).toBe(200)
    const events = await readSse(res)
    expect(textOf(events.slice(0, -1))).toBe('Half an')
    const last = events.at(-1)!
    expect(last.event).toBe('error')
    expect(JSON.parse(last.data)).toEqual({
      error: {
        message: 'The upstream stream was interrupted: the upstream went silent. Partial output cannot be resumed; reissue the request.',
        type: 'upstream_error', code: 'stream_interrupted', param: null,
      },
    })
    // The gateway dropped the upstream's body before it wrote the error event; the fake hears the close a moment later.
    await until('the upstream connection to close', 5_000, () => callsOf(model)[0]?.closedAt !== undefined)
    const [call] = callsOf(model)
    expect(call.closedAt! - call.at).toBeGreaterThanOrEqual(30_000)
    const row = await ledgerRow(res.headers.get('x-request-id'), defaultGw)
    const [input, output] = await Promise.all([countTextTokens(promptText(messages)), countTextTokens('Half an')])
    expect(row).toMatchObject({ status: 502, error_code: 'stream_interrupted', upstream_id: 'a', input_tokens: input, output_tokens: output, cost_nano: input * 2000 + output * 8000 })
    const next = await stream('healthy', SOLO_KEY, {}, defaultGw)
    expect([next.status, textOf(await readSse(next))]).toEqual([200, 'Hello from a.'])
  }, 45_000)

  it.concurrent("a body ending without [DONE] after every finish is complete: the upstream's usage chunk the client asked for, then [DONE] written by the gateway; ledger 200", async () => {
    paced.script('a', 'no-done', { steps: [{ frames: answerFrames('no-done', ['All', ' here.'], [11, 4]) }] })
    const res = await stream('no-done', SOLO_KEY, { stream_options: { include_usage: true } })
    expect(res.status).toBe(200)
    const events = await readSse(res)
    expect(textOf(events)).toBe('All here.')
    expect(events.slice(-2).map((e) => e.data)).toEqual([usageChunk('no-done', 11, 4).slice(6, -2), '[DONE]'])
    expect(events.some((e) => e.event === 'error')).toBe(false)
    expect(await ledgerRow(res.headers.get('x-request-id'))).toMatchObject({ status: 200, error_code: null, input_tokens: 11, output_tokens: 4, cost_nano: 11 * 2000 + 4 * 8000 })
  })

  it.concurrent("a body ending without [DONE] after every finish, without a usage chunk from the upstream: the gateway's own count in the usage chunk asked for, as billed", async () => {
    const model = 'no-done-bare'
    paced.script('a', model, { steps: [{ frames: answerFrames(model, ['Counted', ' here.']) }] })
    const res = await stream(model, SOLO_KEY, { stream_options: { include_usage: true } })
    const events = await readSse(res)
    const [input, output] = await Promise.all([countTextTokens(promptText(messages)), countTextTokens('Counted here.')])
    expect(events.slice(-2).map((e) => e.data)).toEqual([
      JSON.stringify({ id: 'chatcmpl-paced', object: 'chat.completion.chunk', created: 1_767_000_000, model, choices: [], usage: { prompt_tokens: input, completion_tokens: output, total_tokens: input + output } }),
      '[DONE]',
    ])
    expect(await ledgerRow(res.headers.get('x-request-id'))).toMatchObject({ status: 200, error_code: null, input_tokens: input, output_tokens: output })
  })

  it.concurrent('a client closing right after [DONE], before the gateway ended the response (the upstream holds its body open): the whole answer went out, ledger 200', async () => {
    const model = 'done-then-hold'
    paced.script('a', model, { steps: [{ frames: [...answerFrames(model, ['Every', ' word.'], [7, 2]), DONE] }], end: 'hold' })
    const leave = new AbortController()
    const res = await fetch(`${gw.url}/v1/chat/completions`, {
      method: 'POST', signal: leave.signal,
      headers: { authorization: `Bearer ${SOLO_KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model, messages, stream: true }),
    })
    expect(res.status).toBe(200)
    const id = res.headers.get('x-request-id')
    const reader = res.body!.getReader()
    const decoder = new TextDecoder()
    let text = ''
    while (!text.includes('data: [DONE]\n\n')) {
      const { value, done } = await reader.read()
      if (done) throw new Error(`the stream ended before [DONE]: ${text}`)
      text += decoder.decode(value, { stream: true })
    }
    leave.abort()
    await reader.cancel().catch(() => {})
    const row = await until('the ledger row', 5_000, () => ledgerRow(id))
    expect(row).toMatchObject({ status: 200, error_code: null, upstream_id: 'a', input_tokens: 7, output_tokens: 2, cost_nano: 7 * 2000 + 2 * 8000 })
  })
})
