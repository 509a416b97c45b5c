// The sixteen failure cases of the failover issue (README "The sixteen failure cases"), one test each, against the
// chaos provider (./chaos-provider.ts) with the gateway's DEFAULT config: two accounts per model (the primary
// misbehaves, the secondary answers), a model fallback where the case needs another model. Each asserts the status,
// the whole body (the full text compared), the attempts per account and their spacing, the ledger row, and that the
// gateway answers the next request. The cases run concurrently, each on its own model: the file takes about as long
// as its longest case.
import { setTimeout as sleep } from 'node:timers/promises'
import { describe, expect, it } from 'vitest'
import type { GatewayConfig } from '../../electron/gateway/config/load-config.js'
import { countTextTokens, promptText } from '../../electron/gateway/tokens/tokens.js'
import { DEFAULT_TIMEOUTS } from '../../electron/gateway/upstreams/http.js'
import { TEST_KEY, withGateway, type TestGateway } from '../helpers/gateway.js'
import { readSse } from '../helpers/sse.js'
import { approxTokens, textChars } from '../fakes/scenarios.js'
import { CHAOS_HEALTHY, CHAOS_KEYS, CHAOS_MODELS, CHAOS_TIMES, CONTENT_FILTER_ERROR, startChaosProvider, type ChaosProvider } from './chaos-provider.js'

/** A model every account answers: the next request after each case. */
const HEALTHY = 'chaos-ok'
/** Models served by DashScope's compatible mode, whose Partial mode continues a prefix (cases 8, 9, 14). */
const QWEN_MODELS: string[] = [CHAOS_MODELS[8], CHAOS_MODELS[9], CHAOS_MODELS[14]]
const MESSAGES = [{ role: 'user', content: 'Tell me' }]
// USD per 1M tokens (nano-USD per token: × 1000); the fallbacks of cases 12 and 16 cost more
type Price = { input: number; output: number }
const PRICE: Price = { input: 2, output: 8 }
const FALLBACK_PRICE: Price = { input: 3, output: 12 }
const priceOf = (model: string): Price => (Object.values(CHAOS_HEALTHY).includes(model as never) ? FALLBACK_PRICE : PRICE)
/** The first-token deadline of the continuation run (the "10 s first-token deadline"). */
const SHORT_FIRST_TOKEN_MS = 10_000
/** The provider's count of MESSAGES (approxTokens of 7 characters). */
const PROMPT_TOKENS = 2

/**
 * The default config around the chaos provider: every model has two accounts of its own, `<model>/primary` and
 * `<model>/secondary` (a breaker is per account: one account misbehaving for many models would trip it for all).
 */
function chaosConfig(chaos: ChaosProvider, extra: { continuation?: boolean; firstTokenMs?: number } = {}): GatewayConfig {
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
    models: models.map((id) => ({
      id,
      ...(QWEN_MODELS.includes(id) ? { family: 'qwen' as const, vendor: 'dashscope' as const } : { family: 'gpt' as const, vendor: 'openai' as const }),
      pricing: { unit: 'token' as const, ...priceOf(id) },
      // An output limit, as every real model has: a request without max_tokens holds it as its worst case.
      limits: { maxOutputTokens: 4096 },
      ...(extra.firstTokenMs === undefined ? {} : { firstTokenMs: extra.firstTokenMs }),
      // case 12: a larger model for prompts too long; case 16: another model when this one is down
      ...(id === CHAOS_MODELS[12] ? { fallbacks: [{ model: CHAOS_HEALTHY.large, on: ['context_length' as const] }] } : {}),
      ...(id === CHAOS_MODELS[16] ? { fallbacks: [{ model: CHAOS_HEALTHY.served, on: ['unavailable' as const] }] } : {}),
    })),
    upstreams,
    groups: [{ id: 'chaos', protocol: 'chat', models, upstreams: upstreams.map((u) => u.id), ...(extra.continuation === undefined ? {} : { continuation: extra.continuation }) }],
    keys: [{ key: TEST_KEY, group: 'chaos' }],
  }
}

interface Streamed {
  status: number
  requestId: string
  /** x-gatehouse-attempts: the upstream calls made */
  attempts: string | null
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
  const attempts = res.headers.get('x-gatehouse-attempts')
  if (res.status !== 200) return { status: res.status, requestId, attempts, ms: Date.now() - started, text: '', chunks: [await res.json()], done: false }
  const events = await readSse(res)
  const ms = Date.now() - started
  const done = events.some((e) => e.data === '[DONE]')
  const errorEvent = events.find((e) => e.event === 'error')
  const chunks = events.filter((e) => e.data !== '[DONE]' && e.event !== 'error').map((e) => JSON.parse(e.data))
  const text = chunks.map((c) => c.choices?.[0]?.delta?.content ?? '').join('')
  const usage = chunks.find((c) => Array.isArray(c.choices) && c.choices.length === 0 && c.usage)?.usage
  return { status: 200, requestId, attempts, ms, text, chunks, done, error: errorEvent && JSON.parse(errorEvent.data), usage }
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

/**
 * One call to each account, the second made once `deadlineMs` had passed on the first (within `slackMs`). Not
 * before: counted from `sentAt`, when the client sent the request, which comes before the first call is made (the
 * first account's own clock can note the call late on a busy machine, and would make a deadline kept look short).
 */
function expectFailedOverAtDeadline(chaos: ChaosProvider, model: string, deadlineMs: number, slackMs: number, sentAt: number): void {
  const primary = chaos.callsOf(model, 'primary')
  const secondary = chaos.callsOf(model, 'secondary')
  expect([primary.length, secondary.length]).toEqual([1, 1])
  expect(secondary[0].at - sentAt).toBeGreaterThanOrEqual(deadlineMs)
  expect(secondary[0].at - primary[0].at).toBeLessThan(deadlineMs + slackMs)
}

/** The cost of a usage at a price (the chaos models' unless told). */
const costOf = (input: number, output: number, price: Price = PRICE) => input * price.input * 1000 + output * price.output * 1000

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
    cost_nano: costOf(PROMPT_TOKENS, CHAOS_TIMES.answerTokens, priceOf(model)),
  })
}

/** The cost of a cut stream, counted locally: the prompt and the text sent. */
async function localCost(output: string) {
  const [input, completion] = await Promise.all([countTextTokens(promptText(MESSAGES)), countTextTokens(output)])
  return { input, completion, cost: costOf(input, completion) }
}

/** What the client reads after a stream cut after it started (spec §6 rule 1). */
const interruptedBy = (detail: string) => ({ error: { message: `The upstream stream was interrupted: ${detail}. Partial output cannot be resumed; reissue the request.`, type: 'upstream_error', param: null, code: 'stream_interrupted' } })
const CUT_ERROR = interruptedBy('the upstream connection broke')

/** The text of the first `n` tokens of a model's answer. */
const firstTokens = (chaos: ChaosProvider, model: string, n: number) => chaos.answer(model).split(/(?= )/).slice(0, n).join('')

interface Env { gw: TestGateway; chaos: ChaosProvider }
interface CaseTest { title: string; slow?: boolean; run(env: Env): Promise<void> }

/** One test per case, with the default config. */
const CASES: Record<number, CaseTest> = {
  1: {
    title: 'a 429 with Retry-After: 2, once: retried after 2 s or failed over at once, never sooner',
    async run({ gw, chaos }) {
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
    },
  },
  2: {
    title: 'a persistent 429 without Retry-After: failed over, the primary never hammered',
    async run({ gw, chaos }) {
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
    },
  },
  3: {
    title: 'a 500 once: answered (retried on the same account after a short backoff, or failed over)',
    async run({ gw, chaos }) {
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
    },
  },
  4: {
    title: 'a persistent 503: failed over within a bounded retry budget',
    async run({ gw, chaos }) {
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
    },
  },
  5: {
    title: 'a TCP reset before the headers, once: answered',
    async run({ gw, chaos }) {
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
    },
  },
  7: {
    title: 'headers at once, the first token after 20 s: answered late by the slow account with the default deadline', slow: true,
    async run({ gw, chaos }) {
      const model = CHAOS_MODELS[7]
      const s = await streamChat(gw, model)
      expectWhole(s, chaos.answer(model), model)
      expect(s.ms).toBeGreaterThanOrEqual(CHAOS_TIMES.lateFirstTokenMs)
      expect([chaos.callsOf(model, 'primary').length, chaos.callsOf(model, 'secondary').length]).toEqual([1, 0])
      await expectBilledWhole(gw, s, model, `${model}/primary`)
      await expectNextAnswered(gw, chaos)
    },
  },
  8: {
    title: 'a stream cut after 40 of 60 tokens: the 40 tokens, then a clean event: error, billed for what was sent',
    async run({ gw, chaos }) {
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
    },
  },
  9: {
    title: 'a stream that stalls 30 s with the connection open: a clean event: error after the text sent', slow: true,
    async run({ gw, chaos }) {
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
    },
  },
  10: {
    title: 'a malformed chunk mid-stream: skipped, the whole answer and nothing partial',
    async run({ gw, chaos }) {
      const model = CHAOS_MODELS[10]
      const s = await streamChat(gw, model)
      expectWhole(s, chaos.answer(model), model)
      // the malformed frame never reaches the client: every chunk it got parsed
      expect(s.chunks.filter((c) => c.choices?.[0]?.delta?.content !== undefined)).toHaveLength(CHAOS_TIMES.answerTokens + 1)
      expect([chaos.callsOf(model, 'primary').length, chaos.callsOf(model, 'secondary').length]).toEqual([1, 0])
      await expectBilledWhole(gw, s, model, `${model}/primary`)
      await expectNextAnswered(gw, chaos)
    },
  },
  13: {
    title: 'a 400 content-filter rejection: no retry, no fallback, the reason propagated',
    async run({ gw, chaos }) {
      const model = CHAOS_MODELS[13]
      const s = await streamChat(gw, model)
      expect(s.status).toBe(400)
      // the vendor's reason, and (error.upstream) why it refused in the gateway's words: moderation
      expect(s.chunks[0]).toEqual({ error: {
        message: CONTENT_FILTER_ERROR.error.message, type: 'invalid_request_error', param: 'prompt', code: 'content_filter',
        upstream: { status: 400, reason: 'moderation', message: CONTENT_FILTER_ERROR.error.message },
      } })
      expect([chaos.callsOf(model, 'primary').length, chaos.callsOf(model, 'secondary').length]).toEqual([1, 0])
      expect(await rowOf(gw, s.requestId)).toMatchObject({ status: 400, model, upstream_id: `${model}/primary`, cost_nano: 0 })
      await expectNextAnswered(gw, chaos)
    },
  },
  14: {
    title: 'a cut stream with continuation off: the real error (the cut), no prefill tried',
    async run({ gw, chaos }) {
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
    },
  },
  6: {
    title: 'no response at all: given up at the stream first-byte deadline (30 s), well before the provider, and failed over',
    slow: true,
    async run({ gw, chaos }) {
      const model = CHAOS_MODELS[6]
      const sentAt = Date.now()
      const s = await streamChat(gw, model)
      expectWhole(s, chaos.answer(model), model)
      // a timeout is never retried on the same account: it already cost a whole deadline
      expectFailedOverAtDeadline(chaos, model, DEFAULT_TIMEOUTS.streamFirstByteMs, 5_000, sentAt)
      expect(s.attempts).toBe('2')
      await expectBilledWhole(gw, s, model, `${model}/secondary`)
      await expectNextAnswered(gw, chaos)
    },
  },
  11: {
    title: 'a stream that ends without [DONE] after its finish reason: finalised as complete, usage and [DONE] written by the gateway',
    async run({ gw, chaos }) {
      const model = CHAOS_MODELS[11]
      const s = await streamChat(gw, model)
      expectWhole(s, chaos.answer(model), model)
      expect([chaos.callsOf(model, 'primary').length, chaos.callsOf(model, 'secondary').length]).toEqual([1, 0])
      await expectBilledWhole(gw, s, model, `${model}/primary`)
      await expectNextAnswered(gw, chaos)
    },
  },
  12: {
    title: 'a 400 context_length_exceeded: not retried on the model, answered by its larger fallback, billed at its price',
    async run({ gw, chaos }) {
      const model = CHAOS_MODELS[12]
      const large = CHAOS_HEALTHY.large
      const s = await streamChat(gw, model)
      // the answer names the model that served it
      expectWhole(s, chaos.answer(large), large)
      expect([chaos.callsOf(model, 'primary').length, chaos.callsOf(model, 'secondary').length]).toEqual([1, 0])
      expect([chaos.callsOf(large, 'primary').length, chaos.callsOf(large, 'secondary').length]).toEqual([1, 0])
      expect(s.attempts).toBe('2')
      await expectBilledWhole(gw, s, large, `${large}/primary`)
      await expectNextAnswered(gw, chaos)
    },
  },
  15: {
    title: 'the primary down 60 s then healthy, twenty requests: its breaker skips it after 5 failures, one trial per cool-down, traffic back when it answers',
    slow: true,
    async run({ gw, chaos }) {
      const model = CHAOS_MODELS[15]
      const every = 4_500
      // A request first warms what the first request of a gateway loads (the prompt's tokenizer, counted for its
      // hold): the first call must reach the primary at its own slot, not seconds late.
      await expectNextAnswered(gw, chaos)
      const start = Date.now()
      // request i at i × 4.5 s: the outage (60 s from the primary's first call) spans requests 0 to 13
      const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => sleep(i * every).then(() => streamChat(gw, model))))
      for (const s of answers) expectWhole(s, chaos.answer(model), model)
      // which requests reached the primary: five failures open it (request 4, at 18 s); after the 30 s cool-down
      // request 11 (49.5 s) is its trial and fails, reopening it; request 18 (81 s) is the next trial, answered,
      // and traffic is back (request 19)
      const reached = chaos.callsOf(model, 'primary').map((c) => Math.round((c.at - start) / every))
      expect(reached).toEqual([0, 1, 2, 3, 4, 11, 18, 19])
      expect(chaos.callsOf(model, 'secondary')).toHaveLength(18)
      const rows = await Promise.all(answers.map((s) => rowOf(gw, s.requestId)))
      expect(rows.map((r) => r.upstream_id)).toEqual(answers.map((_, i) => `${model}/${i >= 18 ? 'primary' : 'secondary'}`))
      expect(rows.every((r) => r.status === 200 && r.cost_nano === costOf(PROMPT_TOKENS, CHAOS_TIMES.answerTokens))).toBe(true)
      await expectNextAnswered(gw, chaos)
    },
  },
  16: {
    title: 'both accounts 503, a fallback model answers: the answer names it and carries its usage, billed once at its price',
    async run({ gw, chaos }) {
      const model = CHAOS_MODELS[16]
      const served = CHAOS_HEALTHY.served
      const s = await streamChat(gw, model)
      expectWhole(s, chaos.answer(served), served)
      // each account once, then each once more after a backoff (a 503 is worth a second try), then the fallback
      const primary = chaos.callsOf(model, 'primary')
      const secondary = chaos.callsOf(model, 'secondary')
      expect([primary.length, secondary.length]).toEqual([2, 2])
      for (const gap of [...gaps(primary), ...gaps(secondary)]) expect(gap).toBeGreaterThanOrEqual(100)
      expect(chaos.callsOf(served, 'primary')).toHaveLength(1)
      expect(s.attempts).toBe('5')
      // billed once, at the served model's price: the failed attempts cost nothing
      await expectBilledWhole(gw, s, served, `${served}/primary`)
      await expectNextAnswered(gw, chaos)
    },
  },
}

describe('the sixteen failure cases', () => {
  const slow = { timeout: 120_000 }
  const byDefault = withGateway({ fakes: { chaos: () => startChaosProvider() }, config: ({ chaos }) => chaosConfig(chaos) })
  // Continuation on, and every model's first-token deadline set to 10 s.
  const continuing = withGateway({
    fakes: { chaos: () => startChaosProvider() },
    config: ({ chaos }) => chaosConfig(chaos, { continuation: true, firstTokenMs: SHORT_FIRST_TOKEN_MS }),
  })
  const envOf = (setup: typeof byDefault): Env => ({ gw: setup.gw, get chaos() { return setup.fakes.chaos } })

  /** A cut answer continued by the secondary: the whole text, one finish, usage and bill the sum of both attempts. */
  async function expectContinued({ gw, chaos }: Env, model: string): Promise<void> {
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

  /** Cases 7, 8, 9 and 14 where continuation and the 10 s first-token deadline change the answer. */
  const CONTINUING: Record<number, CaseTest> = {
    7: {
      title: 'headers at once, the first token after 20 s: answered by the next account at the 10 s first-token deadline',
      slow: true,
      async run({ gw, chaos }) {
        const model = CHAOS_MODELS[7]
        const sentAt = Date.now()
        const s = await streamChat(gw, model)
        expectWhole(s, chaos.answer(model), model)
        expectFailedOverAtDeadline(chaos, model, SHORT_FIRST_TOKEN_MS, 3_000, sentAt)
        expect(s.ms).toBeLessThan(CHAOS_TIMES.lateFirstTokenMs)
        await expectBilledWhole(gw, s, model, `${model}/secondary`)
        await expectNextAnswered(gw, chaos)
      },
    },
    8: {
      title: 'a stream cut after 40 of 60 tokens: the next account continues it, one whole answer',
      run: (env) => expectContinued(env, CHAOS_MODELS[8]),
    },
    9: {
      title: 'a stream that stalls 30 s: the next account continues it, one whole answer',
      slow: true,
      run: (env) => expectContinued(env, CHAOS_MODELS[9]),
    },
    14: {
      title: "a cut stream whose next account refuses the prefill: the cut's own error, never the prefill 400",
      async run({ gw, chaos }) {
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
      },
    },
  }

  // Every case on both gateways, the slow ones declared first: a file's concurrent tests start five at a time, so
  // the file takes about as long as its longest case.
  const runs = [
    ...Object.entries(CASES).map(([n, c]) => ({ name: `${n}: ${c.title}`, c, env: envOf(byDefault) })),
    ...Object.entries({ ...CASES, ...CONTINUING }).map(([n, c]) => ({ name: `${n}, continuation on, 10 s first-token deadline: ${c.title}`, c, env: envOf(continuing) })),
  ]
  const seconds = (c: CaseTest) => (c === CASES[15] ? 3 : c.slow ? 2 : 1)
  runs.sort((a, b) => seconds(b.c) - seconds(a.c))
  for (const { name, c, env } of runs) it.concurrent(name, c.slow ? slow : {}, () => c.run(env))
})
