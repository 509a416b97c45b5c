import { createServer } from 'node:net'
import { describe, expect, it } from 'vitest'
import { startFakeOpenAI, type Scenario } from '../fakes/openai.js'
import { chatConfig, startTestGateway, withGateway, type TestGateway } from '../helpers/gateway.js'
import { readSse } from '../helpers/sse.js'

const body = { model: 'test-gpt', messages: [{ role: 'user', content: 'hello' }] }
const streamBody = { ...body, stream: true }

/** A port with nothing listening: connect errors. */
async function deadPort(): Promise<number> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as { port: number }
  await new Promise((resolve) => server.close(resolve))
  return port
}

const timeouts = { connectMs: 500, firstByteMs: 600, streamFirstByteMs: 600, firstTokenMs: 600, idleMs: 600 }

const { gw, fakes: { first, second } } = withGateway({
  fakes: { first: startFakeOpenAI, second: startFakeOpenAI },
  config: ({ first, second }) => chatConfig([{ id: 'first', baseUrl: first.url }, { id: 'second', baseUrl: second.url }], { timeouts }),
  resetFakes: true,
})
// A second gateway on the first fake, behind an account nothing listens for.
const { gw: soloGw } = withGateway({
  config: async () => chatConfig([{ id: 'dead', baseUrl: `http://127.0.0.1:${await deadPort()}/v1` }, { id: 'only', baseUrl: first.url }], { timeouts }),
})

const lastLedger = async (g: TestGateway) => (await g.services.store.ledger.recent(null, 1))[0]

describe('failover to the next account before the first byte', () => {
  it('on a connect error', async () => {
    const res = await soloGw.post('/v1/chat/completions', body)
    expect(res.status).toBe(200)
    expect(first.calls).toHaveLength(1)
    expect((await lastLedger(soloGw)).upstream_id).toBe('only')
  })

  it.each<[string, Scenario]>([
    ['429', { kind: 'status', status: 429 }],
    ['500', { kind: 'status', status: 500 }],
    ['503', { kind: 'status', status: 503 }],
    ['a reset', { kind: 'reset' }],
    ['a stall', { kind: 'stall' }],
    ['an upstream account whose key is refused', { kind: 'status', status: 401 }],
  ])('on %s (non-stream)', async (_, scenario) => {
    first.setScenario(scenario)
    const res = await gw.post('/v1/chat/completions', body)
    expect(res.status).toBe(200)
    expect(((await res.json()) as { choices: Array<{ message: { content: string } }> }).choices[0].message.content).toBe('Hello from the fake upstream.')
    expect([first.calls.length, second.calls.length]).toEqual([1, 1])
  })

  it.each<[string, Scenario]>([
    ['an empty stream', { kind: 'empty_stream' }],
    ['a connection reset before any event', { kind: 'reset' }],
    ['a stream that stalls after its headers', { kind: 'stall_after_headers' }],
    ['429', { kind: 'status', status: 429 }],
  ])('on %s (stream)', async (_, scenario) => {
    first.setScenario(scenario)
    const res = await gw.post('/v1/chat/completions', streamBody)
    expect(res.status).toBe(200)
    const events = await readSse(res)
    expect(events.at(-1)?.data).toBe('[DONE]')
    expect(events.some((e) => e.event === 'error')).toBe(false)
    expect(second.calls).toHaveLength(1)
  })
})

describe('after failover is exhausted (spec §7)', () => {
  const expectExhausted = async (res: Response, status: number, code: string) => {
    const json = (await res.json()) as { error: { code: string; message: string } }
    expect([res.status, json.error.code]).toEqual([status, code])
    expect(json.error.message).not.toMatch(/at .*\.ts:\d+/)
  }
  it('5xx everywhere: 502 upstream_error', async () => {
    first.setScenario({ kind: 'status', status: 500 })
    second.setScenario({ kind: 'status', status: 502 })
    await expectExhausted(await gw.post('/v1/chat/completions', body), 502, 'upstream_error')
    expect((await lastLedger(gw))).toMatchObject({ status: 502, error_code: 'upstream_error', cost_nano: 0 })
  })
  it('rate-limited everywhere: 503 upstream_unavailable with Retry-After', async () => {
    first.setScenario({ kind: 'status', status: 429 })
    second.setScenario({ kind: 'status', status: 503 })
    const res = await gw.post('/v1/chat/completions', body)
    expect(res.headers.get('retry-after')).toBe('2')
    await expectExhausted(res, 503, 'upstream_unavailable')
  })
  it('stalled everywhere: 504 upstream_timeout', async () => {
    first.setScenario({ kind: 'stall' })
    second.setScenario({ kind: 'stall' })
    await expectExhausted(await gw.post('/v1/chat/completions', body), 504, 'upstream_timeout')
  })
})

describe('a stream that breaks after it started (spec §6)', () => {
  it('ends with event: error and is not failed over', async () => {
    first.setScenario({ kind: 'break_after', chunks: 2 })
    const res = await gw.post('/v1/chat/completions', streamBody)
    expect(res.status).toBe(200)
    const events = await readSse(res)
    const last = events.at(-1)!
    expect(last.event).toBe('error')
    const error = JSON.parse(last.data) as { error: { code: string; type: string; message: string } }
    expect(error.error.code).toBe('stream_interrupted')
    const content = events.slice(0, -1).map((e) => JSON.parse(e.data).choices[0]?.delta.content ?? '').join('')
    expect(content).toBe('Hello from')
    expect(second.calls).toHaveLength(0)
  })
})

describe('a stream whose body ends cleanly before the protocol\'s end', () => {
  it('ends with event: error, recorded as interrupted', async () => {
    const { createServer } = await import('node:http')
    const server = createServer((req, res) => {
      req.resume()
      res.writeHead(200, { 'content-type': 'text/event-stream' })
      res.write('data: {"id":"c","object":"chat.completion.chunk","created":1,"model":"test-gpt","choices":[{"index":0,"delta":{"content":"Hel"},"finish_reason":null}]}\n\n')
      res.end()
    })
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
    const { port } = server.address() as { port: number }
    const g = await startTestGateway(chatConfig([{ id: 'cut', baseUrl: `http://127.0.0.1:${port}/v1` }]))
    try {
      const events = await readSse(await g.post('/v1/chat/completions', streamBody))
      expect(events.at(-1)?.event).toBe('error')
      expect(JSON.parse(events.at(-1)!.data).error.code).toBe('stream_interrupted')
      expect((await g.services.store.ledger.recent(null, 1))[0]).toMatchObject({ status: 502, error_code: 'stream_interrupted' })
    } finally {
      await g.stop()
      await new Promise((r) => server.close(r))
    }
  })
})
