import { Readable } from 'node:stream'
import { request } from 'undici'
import { describe, expect, it } from 'vitest'
import { chatConfig, fakeOpenAIChat, startTestGateway, TEST_KEY, withGateway } from '../helpers/gateway.js'
import { until } from '../helpers/until.js'

const body = { model: 'test-gpt', messages: [{ role: 'user', content: 'hello' }] }
const CAPPED_KEY = 'sk-capped-0123456789'
const SECOND_KEY = 'sk-second-0123456789'

const { gw, fakes: { openai: fake } } = withGateway({
  ...fakeOpenAIChat(
    { account: { balance: 100, concurrency: 3 }, timeouts: { connectMs: 500, firstByteMs: 3_000, streamFirstByteMs: 500, firstTokenMs: 500, idleMs: 500 } },
    [{ key: CAPPED_KEY, group: 'main', concurrency: 1 }, { key: SECOND_KEY, group: 'main' }],
  ),
  resetFakes: true,
})

const as = (key: string) => ({ authorization: `Bearer ${key}` })
const errorOf = async (res: Response) => ((await res.json()) as { error: { code: string; message: string } }).error

describe('body size (spec §8)', () => {
  it('61 MB with a Content-Length: 413 request_too_large by the declared length, read by the client', async () => {
    const big = Buffer.alloc(61_000_000, 0x61)
    const res = await request(`${gw.url}/v1/chat/completions`, { method: 'POST', headers: { ...as(TEST_KEY), 'content-type': 'application/json' }, body: big }).catch((e: Error) => e)
    if (res instanceof Error) throw res
    expect(res.statusCode).toBe(413)
    expect(res.headers['x-request-id']).toBeDefined()
    const json = (await res.body.json()) as { error: { code: string; message: string } }
    expect(json.error.code).toBe('request_too_large')
    expect(json.error.message).toBe('The request body exceeds the 60000000 byte limit.')
    expect(fake.calls).toHaveLength(0)
  })
  it('61 MB sent chunked, with no length: 413 once the cap is passed', async () => {
    async function* chunks() {
      const piece = Buffer.alloc(1_000_000, 0x61)
      for (let i = 0; i < 61; i++) yield piece
    }
    const res = await request(`${gw.url}/v1/chat/completions`, { method: 'POST', headers: { ...as(TEST_KEY), 'content-type': 'application/json' }, body: Readable.from(chunks()) })
    // The gateway reads and drops the rest of the upload before answering, so the client reads the 413.
    expect(res.statusCode).toBe(413)
    expect(res.headers.connection).toBe('close')
    expect(((await res.body.json()) as { error: { code: string } }).error.code).toBe('request_too_large')
    expect(fake.calls).toHaveLength(0)
    expect(gw.services.limiter.inFlight()).toBe(0)
  })
  it('a body just under the cap is read', async () => {
    // Its own gateway with the default timeouts: forwarding 59 MB can take longer than the short ones above.
    const roomy = await startTestGateway(chatConfig([{ id: 'a', baseUrl: fake.url }]))
    try {
      const content = 'a'.repeat(59_000_000)
      const res = await fetch(`${roomy.url}/v1/chat/completions`, { method: 'POST', headers: { ...as(TEST_KEY), 'content-type': 'application/json' }, body: JSON.stringify({ ...body, messages: [{ role: 'user', content }] }) })
      expect(res.status).toBe(200)
      await res.arrayBuffer()
    } finally {
      await roomy.stop()
    }
  })
})

describe('concurrency (spec §8)', () => {
  // The requests that hold the slots are answered slowly (2 s, under the 3 s first-byte deadline); each test waits
  // until the gateway holds them before asking once more, so a busy machine cannot let them finish first.
  const HELD_MS = 2_000

  it('the key cap answers 429 apikey_concurrency_limit at once, with Retry-After', async () => {
    fake.setScenario({ kind: 'slow', delayMs: HELD_MS })
    let heldDone = false
    const held = gw.post('/v1/chat/completions', body, as(CAPPED_KEY)).finally(() => void (heldDone = true))
    await until('the first request holds the key\'s slot', 5_000, () => gw.services.limiter.inFlight() === 1)
    const res = await gw.post('/v1/chat/completions', body, as(CAPPED_KEY))
    // At once: answered while the slot's holder is still waiting for its vendor.
    expect(heldDone).toBe(false)
    expect(res.status).toBe(429)
    expect(res.headers.get('retry-after')).toBe('1')
    expect(res.headers.get('retry-after-ms')).toBe('1000')
    const error = await errorOf(res)
    expect(error.code).toBe('apikey_concurrency_limit')
    expect((await held).status).toBe(200)
    // The slot came back: the key can call again.
    fake.setScenario({ kind: 'ok' })
    expect((await gw.post('/v1/chat/completions', body, as(CAPPED_KEY))).status).toBe(200)
  })

  it('the account cap answers 429 user_concurrency_limit across keys', async () => {
    fake.setScenario({ kind: 'slow', delayMs: HELD_MS })
    let heldDone = 0
    const held = [gw.post('/v1/chat/completions', body), gw.post('/v1/chat/completions', body), gw.post('/v1/chat/completions', body, as(SECOND_KEY))]
      .map((p) => p.finally(() => void heldDone++))
    await until('three requests hold the account\'s three slots', 5_000, () => gw.services.limiter.inFlight() === 3)
    const res = await gw.post('/v1/chat/completions', body, as(SECOND_KEY))
    expect(heldDone).toBe(0)
    expect(res.status).toBe(429)
    expect(res.headers.get('retry-after')).toBe('1')
    expect((await errorOf(res)).code).toBe('user_concurrency_limit')
    // GET /v1/models does not count (spec §8).
    expect((await gw.get('/v1/models')).status).toBe(200)
    for (const r of await Promise.all(held)) expect(r.status).toBe(200)
  })

  it('slots are released after errors, timeouts and client disconnects', async () => {
    await gw.post('/v1/chat/completions', '{bad json')
    fake.setScenario({ kind: 'status', status: 500 })
    await gw.post('/v1/chat/completions', body)
    fake.setScenario({ kind: 'stall' })
    await gw.post('/v1/chat/completions', body)
    const disconnect = new AbortController()
    const gone = fetch(`${gw.url}/v1/chat/completions`, { method: 'POST', headers: as(TEST_KEY), body: JSON.stringify(body), signal: disconnect.signal }).catch(() => undefined)
    await until('the stalled request holds a slot', 5_000, () => gw.services.limiter.inFlight() === 1)
    disconnect.abort()
    await gone
    await until('every slot is released', 5_000, () => gw.services.limiter.inFlight() === 0)
  })
})
