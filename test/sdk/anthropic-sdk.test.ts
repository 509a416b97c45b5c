import Anthropic from '@anthropic-ai/sdk'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { startFakeAnthropic, type FakeAnthropic } from '../fakes/anthropic.js'
import { startTestGateway, TEST_KEY, type TestGateway } from '../helpers/gateway.js'
import { readSse } from '../helpers/sse.js'

let first: FakeAnthropic
let second: FakeAnthropic
let gw: TestGateway
let client: Anthropic
const MODEL = 'test-claude'
const CHAT_KEY = 'sk-chat-group-0123456789'

beforeAll(async () => {
  first = await startFakeAnthropic({ apiKey: 'anthropic-secret-1' })
  second = await startFakeAnthropic({ apiKey: 'anthropic-secret-2' })
  gw = await startTestGateway({
    account: { balance: 10, concurrency: 5 },
    // 3 USD per 1M input, 15 per 1M output, cache reads at 0.3
    models: [{ id: MODEL, family: 'claude', vendor: 'anthropic', pricing: { unit: 'token', input: 3, output: 15, cachedInput: 0.3 } }],
    upstreams: [
      { id: 'first', vendor: 'anthropic', baseUrl: first.url, apiKey: 'anthropic-secret-1' },
      { id: 'second', vendor: 'anthropic', baseUrl: second.url, apiKey: 'anthropic-secret-2' },
    ],
    groups: [
      { id: 'claude', protocol: 'messages', models: [MODEL], upstreams: ['first', 'second'] },
      { id: 'chat', protocol: 'chat', models: [MODEL], upstreams: ['first'] },
    ],
    keys: [{ key: TEST_KEY, group: 'claude' }, { key: CHAT_KEY, group: 'chat' }],
    timeouts: { connectMs: 500, firstByteMs: 800, streamFirstByteMs: 800, firstTokenMs: 800, idleMs: 800 },
  })
  // SDKs for the messages protocol take the base URL without /v1.
  client = new Anthropic({ baseURL: gw.url, apiKey: TEST_KEY, maxRetries: 0 })
})
afterAll(async () => {
  await gw.stop()
  await first.close()
  await second.close()
})
beforeEach(() => {
  first.reset()
  second.reset()
})

const lastRow = async () => (await gw.services.store.ledger.recent(null, 1))[0]

describe('@anthropic-ai/sdk against the gateway (base URL and key changed only)', () => {
  it('a mid-conversation system message (Claude Code sends them) is forwarded as sent, not refused', async () => {
    first.setScenario({ kind: 'ok', text: 'Go it is', usage: { input_tokens: 30, output_tokens: 4 } })
    const messages = [
      { role: 'user', content: 'Write a hello world' },
      { role: 'system', content: 'This project is Go. Write all code in Go.' },
    ]
    const res = await fetch(`${gw.url}/v1/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': TEST_KEY, 'anthropic-version': '2023-06-01' },
      body: JSON.stringify({ model: MODEL, max_tokens: 64, messages }),
    })
    expect(res.status).toBe(200)
    expect(((await res.json()) as any).content[0]).toMatchObject({ type: 'text', text: 'Go it is' })
    expect(first.calls[0].body).toEqual({ model: MODEL, max_tokens: 64, messages })
  })

  it('messages.create is relayed with the account key and the client\'s version, and billed with cache tokens', async () => {
    first.setScenario({ kind: 'ok', text: 'Hi there', usage: { input_tokens: 100, output_tokens: 20, cache_creation_input_tokens: 10, cache_read_input_tokens: 50 } })
    const message = await client.messages.create({ model: MODEL, max_tokens: 64, messages: [{ role: 'user', content: 'Hello' }] })
    expect(message.content[0]).toMatchObject({ type: 'text', text: 'Hi there' })
    const call = first.calls[0]
    expect(call.path).toBe('/v1/messages')
    expect(call.headers['x-api-key']).toBe('anthropic-secret-1')
    expect(call.headers.authorization).toBeUndefined()
    expect(call.headers['anthropic-version']).toBeDefined()
    expect(call.body).toEqual({ model: MODEL, max_tokens: 64, messages: [{ role: 'user', content: 'Hello' }] })
    // 110 input at 3, 50 cached at 0.3, 20 output at 15 (nano-USD: 1000 × price per token)
    expect((await lastRow())).toMatchObject({ endpoint: 'messages', status: 200, input_tokens: 160, output_tokens: 20, cost_nano: 110 * 3000 + 50 * 300 + 20 * 15000 })
  })

  it('messages.stream relays the events as they come and bills from message_start and message_delta', async () => {
    first.setScenario({ kind: 'thinking', thinking: 'let me think', text: 'The answer' })
    const stream = client.messages.stream({ model: MODEL, max_tokens: 1024, messages: [{ role: 'user', content: 'Question' }] })
    const final = await stream.finalMessage()
    expect(final.content.map((b) => b.type)).toEqual(['thinking', 'text'])
    expect((final.content[0] as Anthropic.ThinkingBlock).signature).toMatch(/^EqQB/)
    const row = (await lastRow())
    expect(row).toMatchObject({ status: 200, output_tokens: final.usage.output_tokens, input_tokens: final.usage.input_tokens })
  })

  it('relays the exact event order with event: lines', async () => {
    const res = await gw.post('/v1/messages', { model: MODEL, max_tokens: 10, stream: true, messages: [{ role: 'user', content: 'Hi' }] })
    const events = await readSse(res)
    expect(events[0].event).toBe('message_start')
    expect(events.map((e) => e.event)).toContain('ping')
    expect(events.at(-1)?.event).toBe('message_stop')
    expect(events.every((e) => e.event === JSON.parse(e.data).type)).toBe(true)
  })

  it('a tool_use block streams its input fragments', async () => {
    first.setScenario({ kind: 'tool_use', name: 'get_weather', input: { city: 'Paris' } })
    const final = await client.messages.stream({ model: MODEL, max_tokens: 100, messages: [{ role: 'user', content: 'Weather?' }], tools: [{ name: 'get_weather', input_schema: { type: 'object' } }] }).finalMessage()
    expect(final.stop_reason).toBe('tool_use')
    expect(final.content[0]).toMatchObject({ type: 'tool_use', name: 'get_weather', input: { city: 'Paris' } })
  })

  it('countTokens is relayed, free, and holds a concurrency slot', async () => {
    const count = await client.messages.countTokens({ model: MODEL, messages: [{ role: 'user', content: 'Hello there!' }] })
    expect(count.input_tokens).toBeGreaterThan(0)
    expect(first.calls[0].path).toBe('/v1/messages/count_tokens')
    expect((await lastRow())).toMatchObject({ endpoint: 'messages.count_tokens', status: 200, cost_nano: 0 })
  })

  it('fails over on 529 overloaded to the next account', async () => {
    first.setScenario({ kind: 'status', status: 529, errorType: 'overloaded_error', message: 'Overloaded' })
    const message = await client.messages.create({ model: MODEL, max_tokens: 64, messages: [{ role: 'user', content: 'Hello' }] })
    expect(message.type).toBe('message')
    expect(second.calls).toHaveLength(1)
    expect((await lastRow()).upstream_id).toBe('second')
  })

  it('a stream broken after the start ends with event: error in the messages shape', async () => {
    first.setScenario({ kind: 'break_after', deltas: 2 })
    const stream = client.messages.stream({ model: MODEL, max_tokens: 64, messages: [{ role: 'user', content: 'Hello' }] })
    const error = await stream.finalMessage().catch((e: unknown) => e)
    expect(error).toBeInstanceOf(Anthropic.APIError)
    expect((error as InstanceType<typeof Anthropic.APIError>).error).toMatchObject({ type: 'error', error: { type: 'api_error' } })
    expect((await lastRow())).toMatchObject({ status: 502, error_code: 'stream_interrupted' })
    expect((await lastRow()).output_tokens).toBeGreaterThan(0)
  })

  it('an upstream event: error is relayed as is', async () => {
    first.setScenario({ kind: 'stream_error', afterDeltas: 1 })
    const events = await readSse(await gw.post('/v1/messages', { model: MODEL, max_tokens: 10, stream: true, messages: [{ role: 'user', content: 'Hi' }] }))
    expect(events.at(-1)).toMatchObject({ event: 'error' })
    expect(JSON.parse(events.at(-1)!.data)).toMatchObject({ type: 'error', error: { type: 'overloaded_error' } })
  })

  describe('typed errors in the messages shape, with no code', () => {
    it('401 AuthenticationError for a wrong key', async () => {
      const bad = new Anthropic({ baseURL: gw.url, apiKey: 'sk-wrong-0123456789', maxRetries: 0 })
      const error = await bad.messages.create({ model: MODEL, max_tokens: 5, messages: [{ role: 'user', content: 'x' }] }).catch((e: unknown) => e)
      expect(error).toBeInstanceOf(Anthropic.AuthenticationError)
      expect((error as InstanceType<typeof Anthropic.APIError>).error).toEqual({ type: 'error', error: { type: 'authentication_error', message: expect.stringMatching(/^Incorrect API key provided/) } })
    })
    it('400 BadRequestError for a missing max_tokens, before any upstream call', async () => {
      const error = await client.messages.create({ model: MODEL, messages: [{ role: 'user', content: 'x' }] } as never).catch((e: unknown) => e)
      expect(error).toBeInstanceOf(Anthropic.BadRequestError)
      expect((error as InstanceType<typeof Anthropic.APIError>).error).toEqual({ type: 'error', error: { type: 'invalid_request_error', message: 'missing max_tokens field' } })
      expect(first.calls).toHaveLength(0)
    })
    it('404 NotFoundError for a model outside the group', async () => {
      const error = await client.messages.create({ model: 'claude-unknown', max_tokens: 5, messages: [{ role: 'user', content: 'x' }] }).catch((e: unknown) => e)
      expect(error).toBeInstanceOf(Anthropic.NotFoundError)
      expect((error as InstanceType<typeof Anthropic.APIError>).error).toMatchObject({ type: 'error', error: { type: 'not_found_error' } })
    })
    it('a chat-group key on /v1/messages: 404 route_not_found in the messages shape', async () => {
      const chat = new Anthropic({ baseURL: gw.url, apiKey: CHAT_KEY, maxRetries: 0 })
      const error = await chat.messages.create({ model: MODEL, max_tokens: 5, messages: [{ role: 'user', content: 'x' }] }).catch((e: unknown) => e)
      expect(error).toBeInstanceOf(Anthropic.NotFoundError)
      expect((error as InstanceType<typeof Anthropic.APIError>).error).toEqual({ type: 'error', error: { type: 'not_found_error', message: 'The current platform does not support this API path: /v1/messages' } })
    })
  })
})
