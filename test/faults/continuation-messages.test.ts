// Continuation on the messages protocol (README "Continuation"): an Anthropic stream cut after its first 40 tokens is
// continued by the group's next Anthropic account from the text already sent (a prefill: the conversation plus that
// text as a last assistant message), in the same client stream, so the caller reads one whole message; the ledger
// bills each attempt's output once. A prefill the next account refuses (Claude 4.6 and later) is passed over and the
// caller gets the cut's own error event, never the 400. Played by the chaos provider's messages protocol.
import { describe, expect, it } from 'vitest'
import type { GatewayConfig } from '../../electron/gateway/config/load-config.js'
import { countTextTokens } from '../../electron/gateway/tokens/tokens.js'
import { approxTokens, textChars } from '../fakes/scenarios.js'
import { withGateway, type TestGateway } from '../helpers/gateway.js'
import { readSse } from '../helpers/sse.js'
import { CHAOS_KEYS, CHAOS_MESSAGES_MODELS, CHAOS_TIMES, NO_PREFILL_ERROR, startChaosProvider, type ChaosProvider } from './chaos-provider.js'

const ON_KEY = 'sk-messages-continued-0123456789'
const OFF_KEY = 'sk-messages-plain-0123456789ab'
const MODELS = Object.values(CHAOS_MESSAGES_MODELS)
const MESSAGES = [{ role: 'user', content: 'Tell me' }]
const PRICE = { input: 3, output: 15 }
const costOf = (input: number, output: number) => input * PRICE.input * 1000 + output * PRICE.output * 1000

const { gw, fakes } = withGateway({
  fakes: { chaos: () => startChaosProvider() },
  config: ({ chaos }): GatewayConfig => {
    const upstreams = MODELS.flatMap((model) => (['primary', 'secondary'] as const).map((account) => ({
      id: `${model}/${account}`, vendor: 'anthropic' as const, baseUrl: chaos.origin, apiKey: `${CHAOS_KEYS[account]}-${model}`, models: [model],
    })))
    return {
      account: { balance: 100, concurrency: 20 },
      models: MODELS.map((id) => ({ id, family: 'claude' as const, vendor: 'anthropic' as const, pricing: { unit: 'token' as const, ...PRICE } })),
      upstreams,
      groups: [
        { id: 'continued', protocol: 'messages', models: MODELS, upstreams: upstreams.map((u) => u.id), continuation: true },
        { id: 'plain', protocol: 'messages', models: MODELS, upstreams: upstreams.map((u) => u.id) },
      ],
      keys: [{ key: ON_KEY, group: 'continued' }, { key: OFF_KEY, group: 'plain' }],
    }
  },
})

interface Streamed { status: number; requestId: string; ms: number; text: string; types: string[]; events: any[] }

async function streamMessages(g: TestGateway, model: string, key: string): Promise<Streamed> {
  const started = Date.now()
  const res = await g.post('/v1/messages', { model, max_tokens: 200, stream: true, messages: MESSAGES }, { authorization: `Bearer ${key}` })
  const requestId = res.headers.get('x-request-id') ?? ''
  expect(res.status).toBe(200)
  const events = (await readSse(res)).map((e) => JSON.parse(e.data))
  const text = events.filter((e) => e.type === 'content_block_delta').map((e) => e.delta.text).join('')
  return { status: res.status, requestId, ms: Date.now() - started, text, types: events.map((e) => e.type), events }
}

const rowOf = async (g: TestGateway, id: string) => (await g.services.store.ledger.flush(), (await g.services.store.ledger.get(id))!)
/** The first `n` tokens of a model's answer, as the chaos provider streamed them. */
const firstTokens = (chaos: ChaosProvider, model: string, n: number) => chaos.answer(model).split(/(?= )/).slice(0, n).join('')

/**
 * The cut attempt's bill: the input its upstream reported at message_start (the chaos provider's count of the
 * conversation), and the text it sent, counted by the gateway.
 */
async function cutBill(sent: string) {
  return { input: approxTokens(textChars(MESSAGES)), output: await countTextTokens(sent) }
}

describe('continuation on the messages protocol', () => {
  it('a stream cut after 40 of 60 tokens is continued by the next Anthropic account: one whole message, each attempt billed once', async () => {
    const model = CHAOS_MESSAGES_MODELS.cut
    const s = await streamMessages(gw, model, ON_KEY)
    const whole = fakes.chaos.answer(model)
    expect(s.text).toBe(whole)
    // one message: one start, one block, one stop reason, one end; no error
    expect(s.types.filter((t) => t !== 'content_block_delta' && t !== 'ping')).toEqual(['message_start', 'content_block_start', 'content_block_stop', 'message_delta', 'message_stop'])
    expect(s.events.find((e) => e.type === 'message_delta').delta.stop_reason).toBe('end_turn')
    const sent = firstTokens(fakes.chaos, model, CHAOS_TIMES.cutAfter)
    const [primary, secondary] = [fakes.chaos.callsOf(model, 'primary'), fakes.chaos.callsOf(model, 'secondary')]
    expect([primary.length, secondary.length]).toEqual([1, 1])
    // the conversation, then the text already sent as the assistant's message to continue
    expect(secondary[0].body.messages).toEqual([...MESSAGES, { role: 'assistant', content: sent }])
    const cut = await cutBill(sent)
    const continuedInput = approxTokens(textChars(MESSAGES) + sent.length)
    const continuedOutput = CHAOS_TIMES.answerTokens - CHAOS_TIMES.cutAfter
    // the message's usage at its end is the sum the ledger bills
    expect(s.events.find((e) => e.type === 'message_delta').usage).toEqual({ output_tokens: cut.output + continuedOutput })
    expect(await rowOf(gw, s.requestId)).toMatchObject({
      status: 200, error_code: null, model, upstream_id: `${model}/secondary`,
      input_tokens: cut.input + continuedInput, output_tokens: cut.output + continuedOutput,
      cost_nano: costOf(cut.input, cut.output) + costOf(continuedInput, continuedOutput),
      // the cut attempt's output was counted by the gateway
      usage_source: 'local_count',
    })
    console.log(`[continuation-messages] cut: ${primary.length} + ${secondary.length} calls, continued ${secondary[0].at - primary[0].at} ms after the first call, whole in ${s.ms} ms`)
  })

  it('a cut right after a space: the prefill goes without it (Anthropic refuses trailing whitespace), and the caller\'s text has it once', async () => {
    const model = CHAOS_MESSAGES_MODELS.cutSpace
    const s = await streamMessages(gw, model, ON_KEY)
    expect(s.text).toBe(fakes.chaos.answer(model))
    const sent = fakes.chaos.answer(model).split(/(?<=\s)/).slice(0, CHAOS_TIMES.cutAfter).join('')
    expect(sent.endsWith(' ')).toBe(true)
    const [secondary] = fakes.chaos.callsOf(model, 'secondary')
    expect(secondary.body.messages.at(-1)).toEqual({ role: 'assistant', content: sent.trimEnd() })
    expect(await rowOf(gw, s.requestId)).toMatchObject({ status: 200, error_code: null, upstream_id: `${model}/secondary` })
  })

  it('the next account refuses the prefill: the caller gets the cut\'s own error event, never the 400; billed for the cut', async () => {
    const model = CHAOS_MESSAGES_MODELS.refused
    const s = await streamMessages(gw, model, ON_KEY)
    const sent = firstTokens(fakes.chaos, model, CHAOS_TIMES.cutAfter)
    expect(s.text).toBe(sent)
    expect(s.types.at(-1)).toBe('error')
    expect(s.events.at(-1)).toEqual({ type: 'error', error: { type: 'api_error', message: 'The upstream stream was interrupted: the upstream connection broke. Partial output cannot be resumed; reissue the request.' } })
    expect(JSON.stringify(s.events)).not.toContain(NO_PREFILL_ERROR.error.message)
    expect(fakes.chaos.callsOf(model, 'secondary').map((c) => c.prefix)).toEqual([sent])
    const cut = await cutBill(sent)
    expect(await rowOf(gw, s.requestId)).toMatchObject({
      status: 502, error_code: 'stream_interrupted', model, upstream_id: `${model}/primary`, input_tokens: cut.input, output_tokens: cut.output, cost_nano: costOf(cut.input, cut.output),
    })
  })

  it('continuation off (the default): the cut\'s error event after the text sent; the next account is never asked', async () => {
    const model = CHAOS_MESSAGES_MODELS.cut
    const before = fakes.chaos.callsOf(model, 'secondary').length
    const s = await streamMessages(gw, model, OFF_KEY)
    expect(s.text).toBe(firstTokens(fakes.chaos, model, CHAOS_TIMES.cutAfter))
    expect(s.types.at(-1)).toBe('error')
    expect(fakes.chaos.callsOf(model, 'secondary')).toHaveLength(before)
    expect(await rowOf(gw, s.requestId)).toMatchObject({ status: 502, error_code: 'stream_interrupted', upstream_id: `${model}/primary` })
  })
})
