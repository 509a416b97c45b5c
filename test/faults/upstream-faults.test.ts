import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { messagesErrorType } from '../../shared/error-codes.js'
import { messagesPromptText } from '../../electron/gateway/routes/messages.js'
import { countTextTokens, promptText } from '../../electron/gateway/tokens/tokens.js'
import { startFakeAnthropic, type FakeAnthropic } from '../fakes/anthropic.js'
import { startFakeOpenAI, type FakeOpenAI } from '../fakes/openai.js'
import { startTestGateway, type TestGateway } from '../helpers/gateway.js'
import { readSse } from '../helpers/sse.js'
import { ANSWER_TEXT, CHAOS_PROMPT_TOKENS, startChaosUpstream, type ChaosMode, type ChaosUpstream } from './chaos-upstream.js'
import { until } from '../helpers/until.js'

type Protocol = 'chat' | 'messages'
/** What the client gets when the chaos account fails: the chat code, and the message in both envelopes. */
interface Failure { status: number; code: string; message?: string }
/**
 * failover: a failed attempt (the healthy account answers; alone, `solo`); interrupted: 200, then the protocol's
 * error event, billed for the output so far; local: 200 from the chaos account, billed from the local count;
 * refused: a client error, answered as the upstream said, never failed over.
 */
type Expectation =
  | { kind: 'failover'; solo: Failure | Record<Protocol, Failure> }
  | { kind: 'interrupted'; detail: string }
  | { kind: 'local' }
  | { kind: 'refused'; failure: Record<Protocol, Failure> }

const exhaustedWith = (detail: string): Failure => ({ status: 502, code: 'upstream_error', message: `The model is temporarily unavailable after trying every account (${detail}).` })
const TIMEOUT: Failure = { status: 504, code: 'upstream_timeout', message: 'The model did not answer in time.' }
const UNAVAILABLE: Failure = { status: 503, code: 'upstream_unavailable', message: 'The model is overloaded or rate-limited on every account; retry later.' }
const STATUS_400_JSON = { status: 400, code: 'invalid_request', message: 'Invalid value for temperature.' }

const CASES: Array<{ mode: ChaosMode; stream: boolean; expect: Expectation }> = [
  { mode: 'reset_before_bytes', stream: false, expect: { kind: 'failover', solo: exhaustedWith('connection reset') } },
  { mode: 'reset_before_bytes', stream: true, expect: { kind: 'failover', solo: exhaustedWith('connection reset') } },
  { mode: 'drop_mid_stream', stream: false, expect: { kind: 'failover', solo: exhaustedWith('connection reset') } },
  { mode: 'drop_mid_stream', stream: true, expect: { kind: 'interrupted', detail: 'the upstream connection broke' } },
  { mode: 'stall_before_headers', stream: false, expect: { kind: 'failover', solo: TIMEOUT } },
  { mode: 'stall_before_headers', stream: true, expect: { kind: 'failover', solo: TIMEOUT } },
  { mode: 'stall_mid_body', stream: false, expect: { kind: 'failover', solo: TIMEOUT } },
  { mode: 'stall_mid_body', stream: true, expect: { kind: 'interrupted', detail: 'the upstream went silent' } },
  { mode: 'error_event_only', stream: false, expect: { kind: 'failover', solo: exhaustedWith('HTTP 500') } },
  // chat: server_error (500); messages: overloaded_error (529)
  { mode: 'error_event_only', stream: true, expect: { kind: 'failover', solo: { chat: exhaustedWith('HTTP 500'), messages: UNAVAILABLE } } },
  { mode: 'client_error_event_only', stream: false, expect: { kind: 'refused', failure: { chat: STATUS_400_JSON, messages: STATUS_400_JSON } } },
  {
    mode: 'client_error_event_only', stream: true,
    expect: { kind: 'refused', failure: { chat: { status: 400, code: 'invalid_value', message: 'Invalid value for temperature.' }, messages: { status: 400, code: 'invalid_request', message: 'temperature: must be at most 1' } } },
  },
  { mode: 'done_only', stream: true, expect: { kind: 'failover', solo: exhaustedWith('empty stream') } },
  { mode: 'eof_before_content', stream: true, expect: { kind: 'failover', solo: exhaustedWith('empty stream') } },
  { mode: 'prelude_forever', stream: true, expect: { kind: 'failover', solo: TIMEOUT } },
  { mode: 'eof_before_content', stream: false, expect: { kind: 'failover', solo: exhaustedWith('malformed answer') } },
  { mode: 'deep_json', stream: false, expect: { kind: 'failover', solo: exhaustedWith('malformed answer') } },
  { mode: 'malformed_json', stream: false, expect: { kind: 'failover', solo: exhaustedWith('malformed answer') } },
  { mode: 'malformed_json', stream: true, expect: { kind: 'failover', solo: exhaustedWith('empty stream') } },
  { mode: 'negative_usage', stream: false, expect: { kind: 'local' } },
  { mode: 'negative_usage', stream: true, expect: { kind: 'local' } },
  { mode: 'huge_usage', stream: false, expect: { kind: 'local' } },
  { mode: 'huge_usage', stream: true, expect: { kind: 'local' } },
  { mode: 'nan_usage', stream: false, expect: { kind: 'local' } },
  { mode: 'nan_usage', stream: true, expect: { kind: 'local' } },
  // The upstream's message quotes the account's own key: the client reads it with the key scrubbed.
  {
    mode: 'echo_auth_400', stream: false,
    expect: { kind: 'refused', failure: { chat: { status: 400, code: 'invalid_request', message: 'Invalid request for credentials Bearer [redacted]' }, messages: { status: 400, code: 'invalid_request', message: 'Invalid request for credentials [redacted]' } } },
  },
]

const START_USD = 100
// nano-USD per token: test-gpt 2 / 8 USD per 1M, test-claude 3 / 15
const PRICES: Record<Protocol, { input: number; output: number }> = { chat: { input: 2000, output: 8000 }, messages: { input: 3000, output: 15000 } }
const KEYS = { chatPair: 'sk-chat-pair-0123456789', chatSolo: 'sk-chat-solo-0123456789', messagesPair: 'sk-msg-pair-0123456789', messagesSolo: 'sk-msg-solo-0123456789' }

let chaos: ChaosUpstream
let openai: FakeOpenAI
let anthropic: FakeAnthropic
let gw: TestGateway

beforeAll(async () => {
  chaos = await startChaosUpstream()
  openai = await startFakeOpenAI()
  anthropic = await startFakeAnthropic()
  gw = await startTestGateway({
    account: { balance: START_USD, concurrency: 5 },
    models: [
      { id: 'test-gpt', family: 'gpt', vendor: 'openai', pricing: { unit: 'token', input: 2, output: 8 } },
      { id: 'test-claude', family: 'claude', vendor: 'anthropic', pricing: { unit: 'token', input: 3, output: 15 } },
    ],
    upstreams: [
      { id: 'chaos-openai', vendor: 'openai', baseUrl: `${chaos.origin}/v1`, apiKey: 'sk-upstream-chaos-openai' },
      { id: 'healthy-openai', vendor: 'openai', baseUrl: openai.url, apiKey: 'sk-upstream-healthy-openai' },
      { id: 'chaos-anthropic', vendor: 'anthropic', baseUrl: chaos.origin, apiKey: 'sk-upstream-chaos-anthropic' },
      { id: 'healthy-anthropic', vendor: 'anthropic', baseUrl: anthropic.url, apiKey: 'sk-upstream-healthy-anthropic' },
    ],
    groups: [
      { id: 'chat-pair', protocol: 'chat', models: ['test-gpt'], upstreams: ['chaos-openai', 'healthy-openai'] },
      { id: 'chat-solo', protocol: 'chat', models: ['test-gpt'], upstreams: ['chaos-openai'] },
      { id: 'messages-pair', protocol: 'messages', models: ['test-claude'], upstreams: ['chaos-anthropic', 'healthy-anthropic'] },
      { id: 'messages-solo', protocol: 'messages', models: ['test-claude'], upstreams: ['chaos-anthropic'] },
    ],
    keys: [
      { key: KEYS.chatPair, group: 'chat-pair' },
      { key: KEYS.chatSolo, group: 'chat-solo' },
      { key: KEYS.messagesPair, group: 'messages-pair' },
      { key: KEYS.messagesSolo, group: 'messages-solo' },
    ],
    timeouts: { connectMs: 500, firstByteMs: 600, streamFirstByteMs: 600, firstTokenMs: 600, idleMs: 600 },
  })
})
afterAll(async () => {
  await gw?.stop()
  await chaos?.close()
  await openai?.close()
  await anthropic?.close()
})
beforeEach(() => {
  chaos.reset()
  openai.reset()
  anthropic.reset()
  // Each case starts on closed breakers: the failures of the cases before are not its own.
  gw.services.routing.breakers.reset()
})

const PATH: Record<Protocol, string> = { chat: '/v1/chat/completions', messages: '/v1/messages' }
const messages = [{ role: 'user', content: 'hello' }]
const bodyFor = (protocol: Protocol, stream: boolean) =>
  protocol === 'chat' ? { model: 'test-gpt', messages, stream } : { model: 'test-claude', max_tokens: 64, messages, stream }
const keyFor = (protocol: Protocol, solo: boolean) => (protocol === 'chat' ? (solo ? KEYS.chatSolo : KEYS.chatPair) : solo ? KEYS.messagesSolo : KEYS.messagesPair)
const send = (protocol: Protocol, solo: boolean, stream: boolean) =>
  gw.post(PATH[protocol], bodyFor(protocol, stream), { authorization: `Bearer ${keyFor(protocol, solo)}` })
const ledgerRow = async (id: string | null) => (await gw.services.store.ledger.get(id ?? ''))!
const healthyCalls = (protocol: Protocol) => (protocol === 'chat' ? openai.calls : anthropic.calls).length

/** The cost of the local count of this request's prompt and `output`, and the counts. */
async function localBill(protocol: Protocol, output: string, reportedInput?: number) {
  const prompt = protocol === 'chat' ? promptText(messages) : messagesPromptText(bodyFor(protocol, false))
  const [input, completion] = await Promise.all([reportedInput ?? countTextTokens(prompt), countTextTokens(output)])
  return { input, completion, cost: input * PRICES[protocol].input + completion * PRICES[protocol].output }
}

async function expectFailure(res: Response, protocol: Protocol, failure: Failure) {
  const body = (await res.json()) as { type?: string; error: { code?: string; type: string; message: string } }
  expect(res.status).toBe(failure.status)
  if (protocol === 'chat') expect(body.error.code).toBe(failure.code)
  else expect([body.type, body.error.type, body.error.code]).toEqual(['error', messagesErrorType(failure.status), undefined])
  if (failure.message !== undefined) expect(body.error.message).toBe(failure.message)
  const row = await ledgerRow(res.headers.get('x-request-id'))
  expect([row.status, row.cost_nano]).toEqual([failure.status, 0])
}

/** Bounded wait: the slot is released just after the response ends. */
async function settledInFlight(): Promise<number> {
  await until('the slots given back', 5_000, () => gw.services.limiter.inFlight() === 0).catch(() => {})
  return gw.services.limiter.inFlight()
}

afterEach(async () => {
  expect(await settledInFlight()).toBe(0)
  // Money: every charge is a ledger row, none negative, and the balance and key spends add up to them.
  await gw.services.store.ledger.flush()
  const { sql } = gw.services.store
  const { total, negative } = (await sql.get<{ total: number; negative: number }>('SELECT COALESCE(SUM(cost_nano), 0) AS total, SUM(CASE WHEN cost_nano < 0 THEN 1 ELSE 0 END) AS negative FROM requests'))!
  expect(negative ?? 0).toBe(0)
  const { balance_nano } = (await sql.get<{ balance_nano: number }>('SELECT balance_nano FROM account WHERE id = 1'))!
  expect(balance_nano).toBe(START_USD * 1e9 - total)
  expect(gw.services.registry.account.balanceNano).toBe(balance_nano)
  const { used } = (await sql.get<{ used: number }>('SELECT SUM(used_nano) AS used FROM api_keys'))!
  expect(used).toBe(total)
  // Alive: the next request through the chaos account, now healthy, is answered.
  chaos.reset()
  const next = await send('chat', true, false)
  expect(next.status).toBe(200)
  await next.json()
})

describe.each<Protocol>(['chat', 'messages'])('a misbehaving upstream on the %s protocol', (protocol) => {
  describe.each(CASES)('$mode (stream: $stream)', ({ mode, stream, expect: expectation }) => {
    it('with a healthy second account', async () => {
      chaos.setMode(mode)
      const res = await send(protocol, false, stream)
      const row = () => ledgerRow(res.headers.get('x-request-id'))
      switch (expectation.kind) {
        case 'failover': {
          expect(res.status).toBe(200)
          if (stream) expect((await readSse(res)).some((e) => e.event === 'error')).toBe(false)
          else await res.json()
          expect([chaos.calls.length, healthyCalls(protocol)]).toEqual([1, 1])
          expect(await row()).toMatchObject({ status: 200, upstream_id: `healthy-${protocol === 'chat' ? 'openai' : 'anthropic'}`, error_code: null })
          expect((await row()).cost_nano).toBeGreaterThan(0)
          return
        }
        case 'refused':
          await expectFailure(res, protocol, expectation.failure[protocol])
          expect([chaos.calls.length, healthyCalls(protocol)]).toEqual([1, 0])
          return
        default:
          await expectChaosAnswer(res, protocol, stream, expectation)
          expect(healthyCalls(protocol)).toBe(0)
      }
    })

    it('alone', async () => {
      chaos.setMode(mode)
      const res = await send(protocol, true, stream)
      switch (expectation.kind) {
        case 'failover': {
          const solo = 'status' in expectation.solo ? expectation.solo : expectation.solo[protocol]
          return expectFailure(res, protocol, solo as Failure)
        }
        case 'refused': return expectFailure(res, protocol, expectation.failure[protocol])
        default: return expectChaosAnswer(res, protocol, stream, expectation)
      }
    })
  })
})

/** The chaos account's own 200: an interrupted stream, or an answer billed from the local count. */
async function expectChaosAnswer(res: Response, protocol: Protocol, stream: boolean, expectation: Expectation) {
  expect(res.status).toBe(200)
  const id = res.headers.get('x-request-id')
  let output = ANSWER_TEXT
  if (expectation.kind === 'interrupted') {
    const events = await readSse(res)
    const last = events.at(-1)!
    expect(last.event).toBe('error')
    const message = `The upstream stream was interrupted: ${expectation.detail}. Partial output cannot be resumed; reissue the request.`
    expect(JSON.parse(last.data).error).toMatchObject(protocol === 'chat' ? { code: 'stream_interrupted', message } : { type: 'api_error', message })
    expect(await ledgerRow(id)).toMatchObject({ status: 502, error_code: 'stream_interrupted' })
    // Only the first word was produced before the break.
    output = ANSWER_TEXT.split(' ')[0]
  } else if (stream) {
    const events = await readSse(res)
    expect(events.some((e) => e.event === 'error')).toBe(false)
  } else {
    await res.json()
  }
  const row = await ledgerRow(id)
  // A cut messages stream is billed the input its message_start reported; the rest is counted by the gateway.
  const reported = expectation.kind === 'interrupted' && protocol === 'messages' ? CHAOS_PROMPT_TOKENS : undefined
  const local = await localBill(protocol, output, reported)
  expect(JSON.parse(row.usage!)).toMatchObject(reported === undefined
    ? { counted_locally: true, prompt_tokens: local.input, completion_tokens: local.completion }
    : { counted_locally: true, reported: { input_tokens: reported }, completion_tokens: local.completion })
  expect([row.input_tokens, row.output_tokens, row.cost_nano]).toEqual([local.input, local.completion, local.cost])
}

describe('image modes of the chaos upstream (for the images checks)', () => {
  const imageBytes = async (mode: ChaosMode) => {
    chaos.setMode(mode)
    const res = await fetch(`${chaos.origin}/v1/images/generations`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"model":"m","prompt":"p"}' })
    const body = (await res.json()) as { data: Array<{ b64_json: string }> }
    return Buffer.from(body.data[0].b64_json, 'base64')
  }
  it('svg_image answers SVG bytes as b64_json', async () => {
    expect((await imageBytes('svg_image')).toString('utf8')).toMatch(/^<svg /)
  })
  it('lying_png answers a PNG header claiming 100000 x 100000 and no pixel data', async () => {
    const png = await imageBytes('lying_png')
    expect([png.subarray(1, 4).toString('latin1'), png.readUInt32BE(16), png.readUInt32BE(20), png.length]).toEqual(['PNG', 100_000, 100_000, 33])
  })
})
