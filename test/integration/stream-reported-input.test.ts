// A stream whose upstream reports its input first (Anthropic's message_start, Gemini's chunks) is checkpointed and,
// when cut, billed with that input, every class at its own rate, rather than with a local count of the prompt: an
// agent's cached prompt of 90,000 tokens is billed as the cache reads it was (that the prompt is then never counted:
// test/unit/gateway/relay/checkpoint.test.ts).
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base'
import { describe, expect, it } from 'vitest'
import { startFakeAnthropic } from '../fakes/anthropic.js'
import { startFakeGemini } from '../fakes/gemini.js'
import { approxTokens } from '../fakes/scenarios.js'
import { chatConfig, TEST_KEY, withGateway } from '../helpers/gateway.js'
import { readSse } from '../helpers/sse.js'
import { until } from '../helpers/until.js'

const MESSAGES_KEY = 'sk-reported-input-0123456789'
const GEMINI_KEY = 'sk-reported-input-gemini-0123456789'
// 3 USD per 1M input tokens, 0.30 per 1M cache reads, 3.75 per 1M 5-minute cache writes, 15 per 1M output.
const PRICING = { unit: 'token' as const, input: 3, cachedInput: 0.3, cacheWrite5m: 3.75, output: 15 }
const START = { input_tokens: 12, output_tokens: 1, cache_read_input_tokens: 90_000, cache_creation_input_tokens: 400 }
const ALL_INPUT = 12 + 90_000 + 400
const inputCost = 12 * 3000 + 90_000 * 300 + 400 * 3750

const { gw, fakes: { claude, gemini } } = withGateway({
  fakes: { claude: () => startFakeAnthropic({ apiKey: 'claude-key' }), gemini: startFakeGemini },
  config({ gemini }) {
    const config = chatConfig([])
    config.keys!.push({ key: MESSAGES_KEY, group: 'claude' })
    config.models!.push({ id: 'test-claude', family: 'claude', vendor: 'anthropic', pricing: PRICING })
    config.upstreams!.push({ id: 'claude', vendor: 'anthropic', baseUrl: claude.url, apiKey: 'claude-key' })
    config.groups!.push({ id: 'claude', protocol: 'messages', models: ['test-claude'], upstreams: ['claude'] })
    config.models!.push({ id: 'test-gemini', family: 'gemini', vendor: 'gemini', pricing: { unit: 'token', input: 1, output: 4 } })
    config.upstreams!.push({ id: 'gemini', vendor: 'gemini', baseUrl: gemini.url, apiKey: 'gemini-key' })
    config.groups!.push({ id: 'gemini', protocol: 'chat', models: ['test-gemini'], upstreams: ['gemini'] })
    config.keys!.push({ key: GEMINI_KEY, group: 'gemini' })
    return config
  },
  resetFakes: true,
})

const post = (body: object) => gw.post('/v1/messages', { model: 'test-claude', max_tokens: 256, stream: true, ...body }, { authorization: `Bearer ${MESSAGES_KEY}` })
const row = async (id: string) => {
  await gw.services.store.ledger.flush()
  return (await gw.services.store.ledger.get(id))!
}

describe('a stream whose upstream reported its input first', () => {
  it('cut before its usage: billed the input as reported, each class at its rate, and the output counted locally', async () => {
    claude.setScenario({ kind: 'break_after', deltas: 3, usage: START })
    const res = await post({ messages: [{ role: 'user', content: 'Summarise the repository.' }] })
    const events = await readSse(res)
    expect(events.at(-1)?.event).toBe('error')
    const billed = await row(res.headers.get('x-request-id')!)
    // The fake's first three words.
    const output = countTokens('Hello from the')
    expect(billed).toMatchObject({ status: 502, error_code: 'stream_interrupted', input_tokens: ALL_INPUT, output_tokens: output, usage_source: 'local_count' })
    expect(billed.cost_nano).toBe(inputCost + output * 15_000)
    expect(JSON.parse(billed.breakdown!)).toEqual([
      { kind: 'input', units: 12, unitPrice: 3, per: '1M tokens', cost: (12 * 3000) / 1e9 },
      { kind: 'cached_input', units: 90_000, unitPrice: 0.3, per: '1M tokens', cost: (90_000 * 300) / 1e9 },
      { kind: 'cache_write_5m', units: 400, unitPrice: 3.75, per: '1M tokens', cost: (400 * 3750) / 1e9 },
      { kind: 'output', units: output, unitPrice: 15, per: '1M tokens', cost: (output * 15_000) / 1e9 },
    ])
    expect(JSON.parse(billed.usage!)).toMatchObject({ counted_locally: true, reported: { input_tokens: 12, cache_read_input_tokens: 90_000 }, completion_tokens: output })
  })

  it("checkpointed with the reported input, then billed by the upstream's final usage", async () => {
    // 40 words 60 ms apart: about 2.4 s, past the first checkpoint (1 s). A prompt of 20,000 characters, whose count
    // (5,005) the checkpoint would have taken before.
    const words = Array.from({ length: 40 }, (_, i) => `word${i}`).join(' ')
    claude.setScenario({ kind: 'ok', text: words, delayMs: 60, usage: { ...START, output_tokens: 40 } })
    const prompt = 'Read this file. '.repeat(1250)
    const res = await post({ messages: [{ role: 'user', content: prompt }] })
    expect(res.status).toBe(200)
    const id = res.headers.get('x-request-id')!
    const reading = res.text()
    const pending = await until('a checkpoint with output', 5_000, async () => {
      await gw.services.store.ledger.flush()
      const p = await gw.services.store.ledger.getPending(id)
      return p !== undefined && p.output_tokens > 0 ? p : undefined
    })
    expect(pending.input_tokens).toBe(ALL_INPUT)
    expect(pending.cost_nano).toBe(inputCost + pending.output_tokens * 15_000)
    expect(JSON.parse(pending.breakdown!).map((p: { kind: string }) => p.kind)).toEqual(['input', 'cached_input', 'cache_write_5m', 'output'])
    await reading
    const billed = await until('the final row', 5_000, () => row(id))
    expect(billed).toMatchObject({ status: 200, input_tokens: ALL_INPUT, output_tokens: 40, usage_source: 'upstream' })
    expect(billed.cost_nano).toBe(inputCost + 40 * 15_000)
  })

  it("a Gemini stream cut after three chunks: billed the prompt's count its chunks carried, the output counted", async () => {
    gemini.setScenario({ kind: 'break_after', chunks: 3 })
    const res = await gw.post('/v1/chat/completions', { model: 'test-gemini', max_tokens: 64, stream: true, messages: [{ role: 'user', content: 'Hi' }] }, { authorization: `Bearer ${GEMINI_KEY}` })
    const events = await readSse(res)
    expect(events.at(-1)?.event).toBe('error')
    // The fake's promptTokenCount for "Hi" (1), where the gateway's own count of "user\nHi" would be 3.
    const input = approxTokens('Hi'.length)
    expect([input, countTokens('user\nHi')]).toEqual([1, 3])
    const output = countTokens('Hello from the')
    const billed = await row(res.headers.get('x-request-id')!)
    expect(billed).toMatchObject({ status: 502, error_code: 'stream_interrupted', input_tokens: input, output_tokens: output, usage_source: 'local_count' })
    expect(billed.cost_nano).toBe(input * 1000 + output * 4000)
  })
})
