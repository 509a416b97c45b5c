import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { FLUSH_DEADLINE_MS } from '../../electron/gateway/telemetry/tracing.js'
import { startFakeCollector, type FakeCollector, type ReceivedSpan } from '../fakes/otlp-collector.js'
import { startFakeAnthropic, type FakeAnthropic } from '../fakes/anthropic.js'
import { startFakeOpenAI, type FakeOpenAI } from '../fakes/openai.js'
import { chatConfig, startTestGateway, tempDataDir, TEST_KEY, type TestGateway } from '../helpers/gateway.js'
import { until } from '../helpers/until.js'

const COLLECTOR_SECRET = 'collector-api-key-5f0c1d2e3a4b'
const PROMPT = 'PROMPT-TEXT-never-on-a-span-7d1e'
const ANSWER = 'ANSWER-TEXT-never-on-a-span-9c2f'
const MESSAGES_KEY = 'sk-tracing-messages-0123456789'
const SERVER = 2
const CLIENT = 3
const ERROR = 2

/** The gateway's request span for an answer (by its x-request-id), and its attempt spans in the order they started. */
function spansOf(collector: FakeCollector, requestId: string): { request: ReceivedSpan; attempts: ReceivedSpan[] } | undefined {
  const request = collector.spans.find((s) => s.kind === SERVER && s.attributes['gatehouse.request.id'] === requestId)
  if (request === undefined) return undefined
  const attempts = collector.spans
    .filter((s) => s.parentSpanId === request.spanId)
    .sort((a, b) => (BigInt(a.startTimeUnixNano) < BigInt(b.startTimeUnixNano) ? -1 : 1))
  return { request, attempts }
}

const traced = (collector: FakeCollector, requestId: string, attempts: number) =>
  until(`the spans of ${requestId}`, 10_000, () => {
    const found = spansOf(collector, requestId)
    return found !== undefined && found.attempts.length === attempts ? found : undefined
  })

describe('tracing over OTLP/HTTP', () => {
  let collector: FakeCollector
  let a: FakeOpenAI
  let b: FakeOpenAI
  let claude: FakeAnthropic
  let gw: TestGateway
  const logs: string[] = []

  beforeAll(async () => {
    ;[collector, a, b, claude] = await Promise.all([startFakeCollector(), startFakeOpenAI(), startFakeOpenAI(), startFakeAnthropic({ apiKey: 'upstream-secret-claude' })])
    const config = chatConfig([{ id: 'a', baseUrl: a.url }, { id: 'b', baseUrl: b.url }], {
      telemetry: { otlp: { endpoint: collector.url, headers: { authorization: `Bearer ${COLLECTOR_SECRET}` }, serviceName: 'gatehouse-under-test' } },
    })
    config.models!.push({ id: 'test-claude', family: 'claude', vendor: 'anthropic', pricing: { unit: 'token', input: 3, output: 15 } })
    config.upstreams!.push({ id: 'claude', vendor: 'anthropic', baseUrl: claude.url, apiKey: 'upstream-secret-claude' })
    config.groups!.push({ id: 'claude', protocol: 'messages', models: ['test-claude'], upstreams: ['claude'] })
    config.keys!.push({ key: MESSAGES_KEY, group: 'claude' })
    gw = await startTestGateway(config, tempDataDir(), { log: (line) => logs.push(line) })
  })
  afterAll(async () => {
    await gw?.stop()
    await Promise.all([collector?.close(), a?.close(), b?.close(), claude?.close()])
  })

  it('makes a span per chat completion with the GenAI attributes, and a child span for its attempt', async () => {
    a.setScenario({ kind: 'ok', text: ANSWER, usage: { prompt_tokens: 11, completion_tokens: 7 } })
    const res = await gw.post('/v1/chat/completions', { model: 'test-gpt', messages: [{ role: 'user', content: PROMPT }], max_tokens: 64, temperature: 0.5, top_p: 0.9 })
    expect(res.status).toBe(200)
    expect((await res.json()).choices[0].message.content).toBe(ANSWER)
    const { request, attempts } = await traced(collector, res.headers.get('x-request-id')!, 1)

    expect(request.name).toBe('chat test-gpt')
    expect(request.parentSpanId).toBeUndefined()
    expect(request.statusCode).toBe(0)
    expect(request.resource['service.name']).toBe('gatehouse-under-test')
    expect(request.attributes).toMatchObject({
      'gen_ai.operation.name': 'chat',
      'gen_ai.provider.name': 'openai',
      'gen_ai.request.model': 'test-gpt',
      'gen_ai.response.model': 'test-gpt',
      'gen_ai.usage.input_tokens': 11,
      'gen_ai.usage.output_tokens': 7,
      'gen_ai.response.finish_reasons': ['stop'],
      'gen_ai.request.max_tokens': 64,
      'gen_ai.request.temperature': 0.5,
      'gen_ai.request.top_p': 0.9,
      'http.request.method': 'POST',
      'http.route': '/v1/chat/completions',
      'url.path': '/v1/chat/completions',
      'http.response.status_code': 200,
      'gatehouse.upstream.account': 'a',
      'gatehouse.group.id': 'main',
    })
    expect(request.attributes['error.type']).toBeUndefined()

    expect(attempts).toHaveLength(1)
    const [only] = attempts
    expect(only.name).toBe('chat test-gpt')
    expect(only.kind).toBe(CLIENT)
    expect(only.traceId).toBe(request.traceId)
    expect(only.statusCode).toBe(0)
    expect(only.attributes).toEqual({
      'gen_ai.operation.name': 'chat',
      'gen_ai.provider.name': 'openai',
      'gen_ai.request.model': 'test-gpt',
      'gatehouse.upstream.account': 'a',
      'gatehouse.upstream.outcome': 'ok',
    })
    // The attempt lies within its request.
    expect(BigInt(only.startTimeUnixNano) >= BigInt(request.startTimeUnixNano)).toBe(true)
    expect(BigInt(only.endTimeUnixNano) <= BigInt(request.endTimeUnixNano)).toBe(true)
  })

  it('traces a streamed answer: the usage and finish reason of its last chunks', async () => {
    a.setScenario({ kind: 'ok', text: ANSWER, chunks: 3, usage: { prompt_tokens: 13, completion_tokens: 5 } })
    const res = await fetch(`${gw.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TEST_KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'test-gpt', messages: [{ role: 'user', content: PROMPT }], stream: true, stream_options: { include_usage: true }, max_tokens: 32 }),
    })
    expect(res.status).toBe(200)
    const text = await res.text()
    expect(text).toContain(ANSWER.slice(0, 6))
    expect(text.trimEnd().endsWith('data: [DONE]')).toBe(true)
    const { request, attempts } = await traced(collector, res.headers.get('x-request-id')!, 1)
    expect(request.name).toBe('chat test-gpt')
    expect(request.attributes).toMatchObject({
      'gen_ai.operation.name': 'chat',
      'gen_ai.request.model': 'test-gpt',
      'gen_ai.response.model': 'test-gpt',
      'gen_ai.usage.input_tokens': 13,
      'gen_ai.usage.output_tokens': 5,
      'gen_ai.response.finish_reasons': ['stop'],
      'gen_ai.request.max_tokens': 32,
      'http.response.status_code': 200,
    })
    expect(attempts.map((s) => [s.attributes['gatehouse.upstream.account'], s.attributes['gatehouse.upstream.outcome']])).toEqual([['a', 'ok']])
  })

  it('makes a child span per attempt of a failover: the refused account with its reason, then the one that served', async () => {
    a.setScenario({ kind: 'status', status: 401 })
    b.setScenario({ kind: 'ok', text: ANSWER, usage: { prompt_tokens: 17, completion_tokens: 3 } })
    const res = await gw.post('/v1/chat/completions', { model: 'test-gpt', messages: [{ role: 'user', content: PROMPT }] })
    expect(res.status).toBe(200)
    const { request, attempts } = await traced(collector, res.headers.get('x-request-id')!, 2)
    expect(request.attributes).toMatchObject({
      'gen_ai.provider.name': 'openai',
      'gen_ai.usage.input_tokens': 17,
      'gen_ai.usage.output_tokens': 3,
      'gen_ai.response.finish_reasons': ['stop'],
      'gatehouse.upstream.account': 'b',
    })
    const [refused, served] = attempts
    expect(refused.parentSpanId).toBe(request.spanId)
    expect(served.parentSpanId).toBe(request.spanId)
    expect(refused.statusCode).toBe(ERROR)
    expect(refused.attributes).toEqual({
      'gen_ai.operation.name': 'chat',
      'gen_ai.provider.name': 'openai',
      'gen_ai.request.model': 'test-gpt',
      'gatehouse.upstream.account': 'a',
      'gatehouse.upstream.outcome': 'status 401',
      'gatehouse.upstream.next': 'failed over',
      'gatehouse.upstream.reason': 'key_refused',
      'error.type': 'key_refused',
      'http.response.status_code': 401,
    })
    expect(served.statusCode).toBe(0)
    expect(served.attributes['gatehouse.upstream.account']).toBe('b')
    expect(served.attributes['gatehouse.upstream.outcome']).toBe('ok')
    expect(BigInt(refused.endTimeUnixNano) <= BigInt(served.startTimeUnixNano)).toBe(true)
  })

  it('traces a messages stream from Anthropic: its stop reason, and input tokens counting the cache reads and writes', async () => {
    claude.setScenario({ kind: 'ok', text: ANSWER, usage: { input_tokens: 19, output_tokens: 4, cache_read_input_tokens: 6, cache_creation_input_tokens: 2 } })
    const res = await gw.post('/v1/messages', { model: 'test-claude', max_tokens: 48, stream: true, messages: [{ role: 'user', content: PROMPT }] }, { authorization: `Bearer ${MESSAGES_KEY}` })
    expect(res.status).toBe(200)
    expect(await res.text()).toContain('"stop_reason":"end_turn"')
    const { request, attempts } = await traced(collector, res.headers.get('x-request-id')!, 1)
    expect(request.name).toBe('chat test-claude')
    expect(request.attributes).toMatchObject({
      'gen_ai.operation.name': 'chat',
      'gen_ai.provider.name': 'anthropic',
      'gen_ai.request.model': 'test-claude',
      'gen_ai.response.model': 'test-claude',
      'gen_ai.usage.input_tokens': 27,
      'gen_ai.usage.output_tokens': 4,
      'gen_ai.usage.cache_read.input_tokens': 6,
      'gen_ai.usage.cache_creation.input_tokens': 2,
      'gen_ai.response.finish_reasons': ['end_turn'],
      'gen_ai.request.max_tokens': 48,
      'http.route': '/v1/messages',
      'gatehouse.group.id': 'claude',
    })
    expect(attempts.map((s) => [s.attributes['gen_ai.provider.name'], s.attributes['gatehouse.upstream.account'], s.attributes['gatehouse.upstream.outcome']])).toEqual([['anthropic', 'claude', 'ok']])
  })

  it('traces a refusal before any upstream call with its error and no attempt', async () => {
    const res = await gw.post('/v1/chat/completions', { model: 'no-such-model', messages: [{ role: 'user', content: PROMPT }] })
    expect(res.status).toBe(404)
    const { request, attempts } = await traced(collector, res.headers.get('x-request-id')!, 0)
    // A name the client made up is an attribute, never the span's name.
    expect(request.name).toBe('chat')
    expect(request.attributes).toMatchObject({ 'gen_ai.request.model': 'no-such-model', 'http.response.status_code': 404, 'error.type': 'model_not_found' })
    expect(request.attributes['gen_ai.response.model']).toBeUndefined()
    expect(request.statusCode).toBe(0)
    expect(attempts).toEqual([])
  })

  it('sends the configured headers to the collector, and no key, secret, prompt or answer in any export or log line', async () => {
    await until('an export', 10_000, () => collector.exports.length > 0)
    for (const e of collector.exports) {
      expect(e.path).toBe('/v1/traces')
      expect(e.headers.authorization).toBe(`Bearer ${COLLECTOR_SECRET}`)
      expect(e.headers['content-type']).toBe('application/json')
      for (const secret of [TEST_KEY, MESSAGES_KEY, 'upstream-secret-a', 'upstream-secret-b', 'upstream-secret-claude', COLLECTOR_SECRET, PROMPT, ANSWER]) expect(e.body).not.toContain(secret)
    }
    expect(logs.some((l) => l.includes(`tracing: spans go to ${collector.url}/v1/traces over OTLP/HTTP`))).toBe(true)
    expect(logs.join('\n')).not.toContain(COLLECTOR_SECRET)
  })
})

describe('a collector that never answers', () => {
  let collector: FakeCollector
  let upstream: FakeOpenAI
  beforeAll(async () => {
    ;[collector, upstream] = await Promise.all([startFakeCollector('never'), startFakeOpenAI()])
  })
  afterAll(async () => {
    await Promise.all([collector?.close(), upstream?.close()])
  })

  it('delays neither the answers nor the gateway\'s close beyond the flush deadline', async () => {
    const data = tempDataDir()
    const gw = await startTestGateway(chatConfig([{ id: 'a', baseUrl: upstream.url }], { telemetry: { otlp: { endpoint: collector.url } } }), data)
    try {
      for (let i = 0; i < 3; i++) {
        const started = performance.now()
        const res = await gw.post('/v1/chat/completions', { model: 'test-gpt', messages: [{ role: 'user', content: 'hello' }] })
        expect(res.status).toBe(200)
        expect(performance.now() - started).toBeLessThan(1_000)
        // The first batch is on its way to the collector (and held there) before the next requests.
        if (i === 0) await until('an export held by the collector', 10_000, () => collector.exports.length > 0)
      }
      const res = await gw.post('/v1/chat/completions', { model: 'test-gpt', messages: [{ role: 'user', content: 'hello' }] })
      expect(res.status).toBe(200)
    } finally {
      const closing = performance.now()
      await gw.close(1_000)
      const took = performance.now() - closing
      data.remove()
      // The gateway's own close (its server, store, clients) takes well under a second here; the spans wait at most the deadline.
      expect(took).toBeLessThan(FLUSH_DEADLINE_MS + 1_000)
    }
    expect(collector.exports.length).toBeGreaterThan(0)
  })
})
