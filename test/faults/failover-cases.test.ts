// The sixteen failure cases of the failover issue (README "The sixteen failure cases"), one test each, against the
// chaos provider (./chaos-provider.ts) with the gateway's DEFAULT config: two accounts per model (the primary
// misbehaves, the secondary answers), a model fallback where the case needs another model. Each asserts the status,
// the whole body (the full text compared), the attempts per account and their spacing, the ledger row, and that the
// gateway answers the next request. The cases run concurrently, each on its own model: the file takes about as long
// as its longest case.
import { describe, expect, it } from 'vitest'
import type { GatewayConfig } from '../../electron/gateway/config/load-config.js'
import { countTextTokens, promptText } from '../../electron/gateway/tokens/tokens.js'
import { TEST_KEY, withGateway, type TestGateway } from '../helpers/gateway.js'
import { readSse } from '../helpers/sse.js'
import { approxTokens, textChars } from '../fakes/scenarios.js'
import { CHAOS_HEALTHY, CHAOS_KEYS, CHAOS_MODELS, CHAOS_TIMES, CONTENT_FILTER_ERROR, startChaosProvider, type ChaosProvider } from './chaos-provider.js'

/** A model every account answers: the next request after each case. */
const HEALTHY = 'chaos-ok'
/** Models served by DashScope's compatible mode, whose Partial mode continues a prefix (cases 8, 9, 14). */
const QWEN_MODELS: string[] = [CHAOS_MODELS[8], CHAOS_MODELS[9], CHAOS_MODELS[14]]
const MESSAGES = [{ role: 'user', content: 'Tell me' }]
// USD per 1M tokens, and nano-USD per token
const PRICE = { input: 2, output: 8 }
const NANO = { input: PRICE.input * 1000, output: PRICE.output * 1000 }
/** The provider's count of MESSAGES (approxTokens of 7 characters). */
const PROMPT_TOKENS = 2

/**
 * The default config around the chaos provider: every model has two accounts of its own, `<model>/primary` and
 * `<model>/secondary` (a breaker is per account: one account misbehaving for many models would trip it for all).
 */
function chaosConfig(chaos: ChaosProvider, extra: { continuation?: boolean } = {}): GatewayConfig {
  const models = [...Object.values(CHAOS_MODELS), ...Object.values(CHAOS_HEALTHY), HEALTHY]
  const accounts = (model: string) => {
    const qwen = QWEN_MODELS.includes(model)
    return (['primary', 'secondary'] as const).map((account) => ({
      id: `${model}/${account}`, vendor: qwen ? 'dashscope' as const : 'openai' as const, baseUrl: qwen ? chaos.origin : `${chaos.origin}/v1`,
      apiKey: `${CHAOS_KEYS[account]}-${model}`, models: [model],
    }))
  }
  const upstreams = models.flatMap(accounts)
  return {
    account: { balance: 100, concurrency: 50 },
    models: models.map((id) => QWEN_MODELS.includes(id)
      ? { id, family: 'qwen' as const, vendor: 'dashscope' as const, pricing: { unit: 'token' as const, ...PRICE } }
      : { id, family: 'gpt' as const, vendor: 'openai' as const, pricing: { unit: 'token' as const, ...PRICE } }),
    upstreams,
    groups: [{ id: 'chaos', protocol: 'chat', models, upstreams: upstreams.map((u) => u.id), ...extra }],
    keys: [{ key: TEST_KEY, group: 'chaos' }],
  }
}

interface Streamed {
  status: number
  requestId: string
  ms: number
  text: string
  /** every data payload but [DONE], parsed */
  chunks: any[]
  done: boolean
  /** the `event: error` frame's payload, if any */
  error?: any
  usage?: { prompt_tokens: number; completion_tokens: number }
}

/** A streamed chat call with include_usage, read whole. */
async function streamChat(gw: TestGateway, model: string): Promise<Streamed> {
  const started = Date.now()
  const res = await gw.post('/v1/chat/completions', { model, messages: MESSAGES, stream: true, stream_options: { include_usage: true } })
  const requestId = res.headers.get('x-request-id') ?? ''
  if (res.status !== 200) return { status: res.status, requestId, ms: Date.now() - started, text: '', chunks: [await res.json()], done: false }
  const events = await readSse(res)
  const ms = Date.now() - started
  const done = events.some((e) => e.data === '[DONE]')
  const errorEvent = events.find((e) => e.event === 'error')
  const chunks = events.filter((e) => e.data !== '[DONE]' && e.event !== 'error').map((e) => JSON.parse(e.data))
  const text = chunks.map((c) => c.choices?.[0]?.delta?.content ?? '').join('')
  const usage = chunks.find((c) => Array.isArray(c.choices) && c.choices.length === 0 && c.usage)?.usage
  return { status: 200, requestId, ms, text, chunks, done, error: errorEvent && JSON.parse(errorEvent.data), usage }
}

/** Whole answers: the full text, a finish, the usage chunk, [DONE], no error. */
function expectWhole(s: Streamed, answer: string, model: string): void {
  expect(s.status).toBe(200)
  expect(s.error).toBeUndefined()
  expect(s.text).toBe(answer)
  expect(s.done).toBe(true)
  expect(s.chunks.filter((c) => c.choices?.[0]?.finish_reason).map((c) => c.choices[0].finish_reason)).toEqual(['stop'])
  expect(s.chunks.every((c) => c.model === model)).toBe(true)
}

/** The cost of a usage at the chaos models' price. */
const costOf = (input: number, output: number) => input * NANO.input + output * NANO.output

/** The ledger row of a request. */
async function rowOf(gw: TestGateway, requestId: string) {
  await gw.services.store.ledger.flush()
  return (await gw.services.store.ledger.get(requestId))!
}

/** Intervals between consecutive calls, in ms. */
const gaps = (calls: Array<{ at: number }>) => calls.slice(1).map((c, i) => c.at - calls[i].at)

/** The next request is answered whole, by a model every account serves. */
async function expectNextAnswered(gw: TestGateway, chaos: ChaosProvider): Promise<void> {
  expectWhole(await streamChat(gw, HEALTHY), chaos.answer(HEALTHY), HEALTHY)
}

/** A complete answer of the model's reported usage (prompt 2, completion 60) billed once, served by `upstream`. */
async function expectBilledWhole(gw: TestGateway, s: Streamed, model: string, upstream: string): Promise<void> {
  expect(s.usage).toMatchObject({ prompt_tokens: PROMPT_TOKENS, completion_tokens: CHAOS_TIMES.answerTokens })
  expect(await rowOf(gw, s.requestId)).toMatchObject({
    status: 200, error_code: null, model, upstream_id: upstream, input_tokens: PROMPT_TOKENS, output_tokens: CHAOS_TIMES.answerTokens,
    cost_nano: costOf(PROMPT_TOKENS, CHAOS_TIMES.answerTokens),
  })
}

/** The cost of a cut stream, counted locally: the prompt and the text sent. */
async function localCost(output: string) {
  const [input, completion] = await Promise.all([countTextTokens(promptText(MESSAGES)), countTextTokens(output)])
  return { input, completion, cost: costOf(input, completion) }
}

/** The text of the first `n` tokens of a model's answer. */
/** What the client reads after a stream cut after it started (spec §6.1). */
const interruptedBy = (detail: string) => ({ error: { message: `The upstream stream was interrupted: ${detail}. Partial output cannot be resumed; reissue the request.`, type: 'upstream_error', param: null, code: 'stream_interrupted' } })
const CUT_ERROR = interruptedBy('the upstream connection broke')

const firstTokens = (chaos: ChaosProvider, model: string, n: number) => chaos.answer(model).split(/(?= )/).slice(0, n).join('')

describe('the sixteen failure cases', () => {
  const { gw, fakes } = withGateway({ fakes: { chaos: () => startChaosProvider() }, config: ({ chaos }) => chaosConfig(chaos) })
  const slow = { timeout: 90_000 }

  it.concurrent('1: a 429 with Retry-After: 2, once: retried after 2 s or failed over at once, never sooner', async () => {
    const { chaos } = fakes
    const model = CHAOS_MODELS[1]
    const s = await streamChat(gw, model)
    expectWhole(s, chaos.answer(model), model)
    const primary = chaos.callsOf(model, 'primary')
    const secondary = chaos.callsOf(model, 'secondary')
    if (secondary.length === 1) {
      // failed over at once to the healthy account
      expect(primary).toHaveLength(1)
      expect(secondary[0].at - primary[0].at).toBeLessThan(1_000)
      await expectBilledWhole(gw, s, model, `${model}/secondary`)
    } else {
      // retried on the same account once its Retry-After had passed
      expect([primary.length, secondary.length]).toEqual([2, 0])
      expect(gaps(primary)[0]).toBeGreaterThanOrEqual(2_000)
      await expectBilledWhole(gw, s, model, `${model}/primary`)
    }
    await expectNextAnswered(gw, chaos)
  })

  it.concurrent('2: a persistent 429 without Retry-After: failed over, the primary never hammered', async () => {
    const { chaos } = fakes
    const model = CHAOS_MODELS[2]
    const s = await streamChat(gw, model)
    expectWhole(s, chaos.answer(model), model)
    const primary = chaos.callsOf(model, 'primary')
    expect(primary.length).toBeGreaterThanOrEqual(1)
    expect(primary.length).toBeLessThanOrEqual(3)
    // any retry of the primary waits a backoff first
    for (const gap of gaps(primary)) expect(gap).toBeGreaterThanOrEqual(100)
    expect(chaos.callsOf(model, 'secondary')).toHaveLength(1)
    await expectBilledWhole(gw, s, model, `${model}/secondary`)
    await expectNextAnswered(gw, chaos)
  })

  it.concurrent('3: a 500 once: answered (retried on the same account after a short backoff, or failed over)', async () => {
    const { chaos } = fakes
    const model = CHAOS_MODELS[3]
    const s = await streamChat(gw, model)
    expectWhole(s, chaos.answer(model), model)
    const primary = chaos.callsOf(model, 'primary')
    const secondary = chaos.callsOf(model, 'secondary')
    if (primary.length === 2) {
      expect(secondary).toHaveLength(0)
      expect(gaps(primary)[0]).toBeGreaterThan(0)
      await expectBilledWhole(gw, s, model, `${model}/primary`)
    } else {
      expect([primary.length, secondary.length]).toEqual([1, 1])
      await expectBilledWhole(gw, s, model, `${model}/secondary`)
    }
    await expectNextAnswered(gw, chaos)
  })

  it.concurrent('4: a persistent 503: failed over within a bounded retry budget', async () => {
    const { chaos } = fakes
    const model = CHAOS_MODELS[4]
    const s = await streamChat(gw, model)
    expectWhole(s, chaos.answer(model), model)
    const primary = chaos.callsOf(model, 'primary')
    expect(primary.length).toBeGreaterThanOrEqual(1)
    expect(primary.length).toBeLessThanOrEqual(3)
    expect(chaos.callsOf(model, 'secondary')).toHaveLength(1)
    expect(s.ms).toBeLessThan(10_000)
    await expectBilledWhole(gw, s, model, `${model}/secondary`)
    await expectNextAnswered(gw, chaos)
  })

  it.concurrent('5: a TCP reset before the headers, once: answered', async () => {
    const { chaos } = fakes
    const model = CHAOS_MODELS[5]
    const s = await streamChat(gw, model)
    expectWhole(s, chaos.answer(model), model)
    const primary = chaos.callsOf(model, 'primary')
    const secondary = chaos.callsOf(model, 'secondary')
    if (primary.length === 2) {
      expect(secondary).toHaveLength(0)
      await expectBilledWhole(gw, s, model, `${model}/primary`)
    } else {
      expect([primary.length, secondary.length]).toEqual([1, 1])
      await expectBilledWhole(gw, s, model, `${model}/secondary`)
    }
    await expectNextAnswered(gw, chaos)
  })

  it.concurrent('7: headers at once, the first token after 20 s: answered late by the slow account with the default deadline', slow, async () => {
    const { chaos } = fakes
    const model = CHAOS_MODELS[7]
    const s = await streamChat(gw, model)
    expectWhole(s, chaos.answer(model), model)
    expect(s.ms).toBeGreaterThanOrEqual(CHAOS_TIMES.lateFirstTokenMs)
    expect([chaos.callsOf(model, 'primary').length, chaos.callsOf(model, 'secondary').length]).toEqual([1, 0])
    await expectBilledWhole(gw, s, model, `${model}/primary`)
    await expectNextAnswered(gw, chaos)
  })

  it.concurrent('8: a stream cut after 40 of 60 tokens: the 40 tokens, then a clean event: error, billed for what was sent', async () => {
    const { chaos } = fakes
    const model = CHAOS_MODELS[8]
    const s = await streamChat(gw, model)
    const sent = firstTokens(chaos, model, CHAOS_TIMES.cutAfter)
    expect(s.status).toBe(200)
    expect(s.text).toBe(sent)
    expect(s.done).toBe(false)
    expect(s.error).toEqual(CUT_ERROR)
    expect([chaos.callsOf(model, 'primary').length, chaos.callsOf(model, 'secondary').length]).toEqual([1, 0])
    const { input, completion, cost } = await localCost(sent)
    expect(await rowOf(gw, s.requestId)).toMatchObject({
      status: 502, error_code: 'stream_interrupted', model, upstream_id: `${model}/primary`, input_tokens: input, output_tokens: completion, cost_nano: cost,
    })
    await expectNextAnswered(gw, chaos)
  })

  it.concurrent('9: a stream that stalls 30 s with the connection open: a clean event: error after the text sent', slow, async () => {
    const { chaos } = fakes
    const model = CHAOS_MODELS[9]
    const s = await streamChat(gw, model)
    const sent = firstTokens(chaos, model, CHAOS_TIMES.cutAfter)
    expect(s.status).toBe(200)
    expect(s.text).toBe(sent)
    expect(s.done).toBe(false)
    // detected by the idle limit when it is shorter than the stall, else the provider's own cut at 30 s
    expect([interruptedBy('the upstream went silent'), CUT_ERROR]).toContainEqual(s.error)
    expect(s.ms).toBeLessThanOrEqual(60_000 + 5_000)
    expect([chaos.callsOf(model, 'primary').length, chaos.callsOf(model, 'secondary').length]).toEqual([1, 0])
    const { input, completion, cost } = await localCost(sent)
    expect(await rowOf(gw, s.requestId)).toMatchObject({
      status: 502, error_code: 'stream_interrupted', model, upstream_id: `${model}/primary`, input_tokens: input, output_tokens: completion, cost_nano: cost,
    })
    await expectNextAnswered(gw, chaos)
  })

  it.concurrent('10: a malformed chunk mid-stream: skipped, the whole answer and nothing partial', async () => {
    const { chaos } = fakes
    const model = CHAOS_MODELS[10]
    const s = await streamChat(gw, model)
    expectWhole(s, chaos.answer(model), model)
    // the malformed frame never reaches the client: every chunk it got parsed
    expect(s.chunks.filter((c) => c.choices?.[0]?.delta?.content !== undefined)).toHaveLength(CHAOS_TIMES.answerTokens + 1)
    expect([chaos.callsOf(model, 'primary').length, chaos.callsOf(model, 'secondary').length]).toEqual([1, 0])
    await expectBilledWhole(gw, s, model, `${model}/primary`)
    await expectNextAnswered(gw, chaos)
  })

  it.concurrent('13: a 400 content-filter rejection: no retry, no fallback, the reason propagated', async () => {
    const { chaos } = fakes
    const model = CHAOS_MODELS[13]
    const s = await streamChat(gw, model)
    expect(s.status).toBe(400)
    expect(s.chunks[0]).toEqual({ error: { message: CONTENT_FILTER_ERROR.error.message, type: 'invalid_request_error', param: 'prompt', code: 'content_filter' } })
    expect([chaos.callsOf(model, 'primary').length, chaos.callsOf(model, 'secondary').length]).toEqual([1, 0])
    expect(await rowOf(gw, s.requestId)).toMatchObject({ status: 400, model, upstream_id: `${model}/primary`, cost_nano: 0 })
    await expectNextAnswered(gw, chaos)
  })

  it.concurrent('14: a cut stream with continuation off: the real error (the cut), no prefill tried', async () => {
    const { chaos } = fakes
    const model = CHAOS_MODELS[14]
    const s = await streamChat(gw, model)
    const sent = firstTokens(chaos, model, CHAOS_TIMES.cutAfter)
    expect(s.text).toBe(sent)
    expect(s.done).toBe(false)
    expect(s.error).toEqual(CUT_ERROR)
    expect([chaos.callsOf(model, 'primary').length, chaos.callsOf(model, 'secondary').length]).toEqual([1, 0])
    const { cost } = await localCost(sent)
    expect(await rowOf(gw, s.requestId)).toMatchObject({ status: 502, error_code: 'stream_interrupted', upstream_id: `${model}/primary`, cost_nano: cost })
    await expectNextAnswered(gw, chaos)
  })

  // The same cases on a gateway whose group has continuation on, in the same block so that all run at once.
  const continuing = withGateway({ fakes: { chaos: () => startChaosProvider() }, config: ({ chaos }) => chaosConfig(chaos, { continuation: true }) })

  /** A cut answer continued by the secondary: the whole text, one finish, usage and bill the sum of both attempts. */
  async function expectContinued(model: string): Promise<void> {
    const { gw, fakes: { chaos } } = continuing
    const s = await streamChat(gw, model)
    expectWhole(s, chaos.answer(model), model)
    const sent = firstTokens(chaos, model, CHAOS_TIMES.cutAfter)
    const primary = chaos.callsOf(model, 'primary')
    const secondary = chaos.callsOf(model, 'secondary')
    expect([primary.length, secondary.length]).toEqual([1, 1])
    // the conversation, then the text already sent as the prefix to continue (DashScope's Partial mode)
    expect(secondary[0].body.messages).toEqual([...MESSAGES, { role: 'assistant', content: sent, partial: true }])
    expect(secondary[0].prefix).toBe(sent)
    const cut = await localCost(sent)
    const continuedInput = approxTokens(textChars(MESSAGES) + sent.length)
    const continuedOutput = CHAOS_TIMES.answerTokens - CHAOS_TIMES.cutAfter
    const input = cut.input + continuedInput
    const output = cut.completion + continuedOutput
    expect(s.usage).toMatchObject({ prompt_tokens: input, completion_tokens: output, total_tokens: input + output })
    expect(await rowOf(gw, s.requestId)).toMatchObject({
      status: 200, error_code: null, model, upstream_id: `${model}/secondary`, input_tokens: input, output_tokens: output,
      cost_nano: cut.cost + costOf(continuedInput, continuedOutput),
    })
    await expectNextAnswered(gw, chaos)
  }

  it.concurrent('8, continuation on: a stream cut after 40 of 60 tokens: the next account continues it, one whole answer', async () => {
    await expectContinued(CHAOS_MODELS[8])
  })

  it.concurrent('9, continuation on: a stream that stalls 30 s: the next account continues it, one whole answer', slow, async () => {
    await expectContinued(CHAOS_MODELS[9])
  })

  it.concurrent('14, continuation on: a cut stream whose next account refuses the prefill: the cut\'s own error, never the prefill 400', async () => {
    const { gw, fakes: { chaos } } = continuing
    const model = CHAOS_MODELS[14]
    const s = await streamChat(gw, model)
    const sent = firstTokens(chaos, model, CHAOS_TIMES.cutAfter)
    expect(s.status).toBe(200)
    expect(s.text).toBe(sent)
    expect(s.done).toBe(false)
    expect(s.error).toEqual(CUT_ERROR)
    const secondary = chaos.callsOf(model, 'secondary')
    expect([chaos.callsOf(model, 'primary').length, secondary.length]).toEqual([1, 1])
    expect(secondary[0].prefix).toBe(sent)
    // billed for the cut attempt alone: the refused continuation cost nothing
    const { input, completion, cost } = await localCost(sent)
    expect(await rowOf(gw, s.requestId)).toMatchObject({
      status: 502, error_code: 'stream_interrupted', model, upstream_id: `${model}/primary`, input_tokens: input, output_tokens: completion, cost_nano: cost,
    })
    await expectNextAnswered(gw, chaos)
  })
})
