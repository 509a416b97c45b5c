// Request bodies held in memory are bounded before they are read: each key may hold its concurrency cap × 60 MB of
// bodies in flight, the gateway limits.bodyBytes. Past either, the exact 429/503 in the route's protocol, with
// Retry-After; what a request held comes back exactly once, however it ended.
import { connect, type Socket } from 'node:net'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { startFakeOpenAIImages } from '../fakes/images/openai-images.js'
import { startFakeOpenAI, type FakeOpenAI } from '../fakes/openai.js'
import { chatConfig, startTestGateway, TEST_KEY, type TestGateway } from '../helpers/gateway.js'
import { until } from '../helpers/until.js'

const CAPPED_KEY = 'sk-capped-body-0123456789'
const MESSAGES_CAPPED_KEY = 'sk-capped-messages-0123456789'
const IMAGE_KEY = 'sk-images-body-0123456789'
/** The gateway-wide budget of these tests: room for 100 MB of bodies at once. */
const GATEWAY_BYTES = 100_000_000
/** A key capped at one request in flight may hold one body of the 60 MB limit. */
const CAPPED_BYTES = 60_000_000

let fake: FakeOpenAI
let images: Awaited<ReturnType<typeof startFakeOpenAIImages>>
let gw: TestGateway
const open: Socket[] = []

beforeAll(async () => {
  fake = await startFakeOpenAI()
  images = await startFakeOpenAIImages({ apiKey: 'oa' })
  const config = chatConfig([{ id: 'a', baseUrl: fake.url }], {
    account: { balance: 100, concurrency: 3 },
    timeouts: { bodyIdleMs: 400, bodyMs: 5_000 },
    limits: { bodyBytes: GATEWAY_BYTES },
  })
  config.models!.push({ id: 'img-gpt', family: 'gpt-image', vendor: 'openai', pricing: { unit: 'image', price: 0.04 }, variant: '2.5', sizeTiers: [], maxN: 10, maxReferenceImages: 16 } as never)
  config.upstreams!.push({ id: 'oa', vendor: 'openai', baseUrl: images.url, apiKey: 'oa' })
  config.groups!.push({ id: 'images', protocol: 'chat', models: ['img-gpt'], upstreams: ['oa'] })
  config.keys!.push(
    { key: CAPPED_KEY, group: 'main', concurrency: 1 },
    { key: MESSAGES_CAPPED_KEY, group: 'anthropic-only', concurrency: 1 },
    { key: IMAGE_KEY, group: 'images' },
  )
  gw = await startTestGateway(config)
})
afterAll(async () => {
  await gw.stop()
  await fake.close()
  await images.close()
})
afterEach(async () => {
  for (const socket of open.splice(0)) socket.destroy()
  fake.reset()
  images.reset()
  await until('every held body given back', 5_000, () => gw.services.bodies.held() === 0)
})

const as = (key: string) => ({ authorization: `Bearer ${key}` })
const RETRY = { 'retry-after': '1', 'retry-after-ms': '1000', connection: 'close' }
const KEY_LIMIT_EN = `The request bodies in flight for this API key would exceed its budget of ${CAPPED_BYTES} bytes; retry after the current ones finish.`
const GATEWAY_LIMIT_EN = `The gateway already holds its limit of ${GATEWAY_BYTES} bytes of request bodies; retry in a moment.`

/**
 * An upload that declares `length` bytes and sends a byte every 100 ms (within timeouts.bodyIdleMs), or, `stalled`,
 * only its first: the gateway holds the declared length until the client leaves (the test ends it) or the body
 * times out. Resolves once the gateway holds `heldAfter` bytes in all.
 */
async function holdUpload(path: string, key: string, length: number, heldAfter: number, opts: { contentType?: string; stalled?: boolean } = {}): Promise<Socket> {
  const socket = connect(gw.port, '127.0.0.1')
  socket.on('error', () => {})
  open.push(socket)
  socket.write(`POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${key}\r\nContent-Type: ${opts.contentType ?? 'application/json'}\r\nContent-Length: ${length}\r\n\r\n{`)
  if (!opts.stalled) {
    const keepSending = setInterval(() => socket.write(' '), 100)
    socket.once('close', () => clearInterval(keepSending))
  }
  await until(`the gateway holds ${heldAfter} bytes`, 5_000, () => gw.services.bodies.held() === heldAfter)
  return socket
}

/** A quote request of exactly `size` bytes (a long prompt). */
function quoteOfSize(size: number): string {
  const frame = (content: string) => JSON.stringify({ endpoint: '/v1/chat/completions', request: { model: 'test-gpt', messages: [{ role: 'user', content }] } })
  return frame('a'.repeat(size - frame('').length))
}

async function expectRefusal(res: Response, status: number, body: unknown): Promise<void> {
  expect(res.status).toBe(status)
  for (const [name, value] of Object.entries(RETRY)) expect(res.headers.get(name)).toBe(value)
  expect(await res.json()).toEqual(body)
}

describe("a key's byte budget (its concurrency cap × 60 MB)", () => {
  it('a body that would pass it: 429 apikey_body_limit with Retry-After, by its declared length; small quotes still answer; the budget comes back when the held upload leaves', async () => {
    const held = await holdUpload('/v1/chat/completions', CAPPED_KEY, 50_000_000, 50_000_000)
    const big = quoteOfSize(10_000_001)
    await expectRefusal(await gw.post('/v1/quote', big, as(CAPPED_KEY)), 429, { error: { message: KEY_LIMIT_EN, type: 'rate_limit_error', param: null, code: 'apikey_body_limit' } })
    expect(gw.services.bodies.held()).toBe(50_000_000)
    // The app prices what is typed while the key's only slot and 50 MB are taken: a quote of a few bytes fits.
    for (let i = 0; i < 5; i++) expect((await gw.post('/v1/quote', quoteOfSize(2_000), as(CAPPED_KEY))).status).toBe(200)
    // In Chinese too.
    const zh = await gw.post('/v1/quote', big, { ...as(CAPPED_KEY), 'accept-language': 'zh-CN' })
    expect(((await zh.json()) as { error: { message: string } }).error.message).toBe(`此 API 密钥处理中的请求体将超过其 ${CAPPED_BYTES} 字节的额度，请在当前请求完成后重试。`)
    held.destroy()
    await until('the held upload given back', 5_000, () => gw.services.bodies.held() === 0)
    expect((await gw.post('/v1/quote', big, as(CAPPED_KEY))).status).toBe(200)
  })

  it('count_tokens answers it in the messages shape', async () => {
    await holdUpload('/v1/messages/count_tokens', MESSAGES_CAPPED_KEY, 50_000_000, 50_000_000)
    const body = JSON.stringify({ model: 'test-gpt', messages: [{ role: 'user', content: 'a'.repeat(10_000_001) }] })
    const res = await gw.post('/v1/messages/count_tokens', body, as(MESSAGES_CAPPED_KEY))
    await expectRefusal(res, 429, { type: 'error', error: { type: 'rate_limit_error', message: KEY_LIMIT_EN } })
  })

  it('a multipart /v1/images/edits upload counts against it', async () => {
    await holdUpload('/v1/images/edits', CAPPED_KEY, 55_000_000, 55_000_000, { contentType: 'multipart/form-data; boundary=b' })
    const res = await gw.post('/v1/chat/completions', JSON.stringify({ model: 'test-gpt', messages: [{ role: 'user', content: 'a'.repeat(5_000_001) }] }), as(CAPPED_KEY))
    await expectRefusal(res, 429, { error: { message: KEY_LIMIT_EN, type: 'rate_limit_error', param: null, code: 'apikey_body_limit' } })
  })

  it('a body without a length takes the 60 MB it may be until it has arrived (refused beside 50 MB held, however small), then only its size', async () => {
    const held = await holdUpload('/v1/chat/completions', CAPPED_KEY, 50_000_000, 50_000_000)
    const chat = new TextEncoder().encode(JSON.stringify({ model: 'test-gpt', messages: [{ role: 'user', content: 'hi' }] }))
    const chunked = () => new ReadableStream<Uint8Array>({ start: (c) => (c.enqueue(chat), c.close()) })
    const post = () => fetch(`${gw.url}/v1/chat/completions`, { method: 'POST', headers: { ...as(CAPPED_KEY), 'content-type': 'application/json' }, body: chunked(), duplex: 'half' } as RequestInit)
    await expectRefusal(await post(), 429, { error: { message: KEY_LIMIT_EN, type: 'rate_limit_error', param: null, code: 'apikey_body_limit' } })
    expect(fake.calls).toHaveLength(0)
    held.destroy()
    await until('the held upload given back', 5_000, () => gw.services.bodies.held() === 0)
    // Read, it holds its own size while the upstream answers.
    fake.setScenario({ kind: 'slow', delayMs: 500 })
    const answer = post()
    await until('the body kept at its size', 3_000, () => gw.services.bodies.held() === chat.length)
    expect((await answer).status).toBe(200)
  })
})

describe('the gateway-wide budget (limits.bodyBytes)', () => {
  it('a body that would pass it: 503 gateway_body_limit with Retry-After, for any key, in its protocol, and for the admin API', async () => {
    await holdUpload('/v1/chat/completions', TEST_KEY, 50_000_000, 50_000_000)
    await holdUpload('/v1/chat/completions', CAPPED_KEY, 45_000_000, 95_000_000)
    const chat = JSON.stringify({ model: 'test-gpt', messages: [{ role: 'user', content: 'a'.repeat(5_000_001) }] })
    await expectRefusal(await gw.post('/v1/chat/completions', chat, as(TEST_KEY)), 503, { error: { message: GATEWAY_LIMIT_EN, type: 'overloaded_error', param: null, code: 'gateway_body_limit' } })
    await expectRefusal(await gw.post('/v1/messages', chat, as('sk-messages-0123456789')), 503, { type: 'error', error: { type: 'overloaded_error', message: GATEWAY_LIMIT_EN } })
    const admin = await gw.post('/admin/v1/groups', JSON.stringify({ id: 'x', name: 'a'.repeat(5_000_001), protocol: 'chat', models: [], upstreams: [] }), as(gw.adminToken))
    await expectRefusal(admin, 503, { error: { message: GATEWAY_LIMIT_EN, type: 'overloaded_error', param: null, code: 'gateway_body_limit' } })
    const zh = await gw.post('/v1/chat/completions', chat, { ...as(TEST_KEY), 'accept-language': 'zh-CN' })
    expect(((await zh.json()) as { error: { message: string } }).error.message).toBe(`网关暂存的请求体已达 ${GATEWAY_BYTES} 字节的上限，请稍后重试。`)
    // Small bodies still fit.
    expect((await gw.post('/v1/chat/completions', { model: 'test-gpt', messages: [{ role: 'user', content: 'hi' }] })).status).toBe(200)
    expect(gw.services.bodies.held()).toBe(95_000_000)
  })
})

describe('a body is given back exactly once, however its request ends', () => {
  it('after a 413, a 408, a 400 and a client that leaves mid-upload, nothing is held and the key can hold a full-size body again', async () => {
    const capped = { ...as(CAPPED_KEY), 'content-type': 'application/json' }
    // 413: 61 MB sent chunked.
    let sent = 0
    const piece = new Uint8Array(1_000_000).fill(0x20)
    const tooLarge = new ReadableStream<Uint8Array>({ pull: (c) => (sent++ < 61 ? c.enqueue(piece) : c.close()) })
    const res413 = await fetch(`${gw.url}/v1/chat/completions`, { method: 'POST', headers: capped, body: tooLarge, duplex: 'half' } as RequestInit)
    expect(res413.status).toBe(413)
    await res413.arrayBuffer()
    expect(gw.services.bodies.held()).toBe(0)
    // 408: the body stops arriving (timeouts.bodyIdleMs).
    const stalled = await holdUpload('/v1/chat/completions', CAPPED_KEY, 40_000_000, 40_000_000, { stalled: true })
    await until('the stalled upload timed out and was given back', 5_000, () => gw.services.bodies.held() === 0)
    stalled.destroy()
    // 400: a body that is not JSON.
    expect((await gw.post('/v1/chat/completions', '{not json', as(CAPPED_KEY))).status).toBe(400)
    expect(gw.services.bodies.held()).toBe(0)
    // The client leaves mid-upload.
    const leaving = await holdUpload('/v1/chat/completions', CAPPED_KEY, 40_000_000, 40_000_000)
    leaving.destroy()
    await until('the upload of a client that left given back', 5_000, () => gw.services.bodies.held() === 0)
    // Given back once each, not twice: the key's full budget, and no more, is there.
    await holdUpload('/v1/chat/completions', CAPPED_KEY, CAPPED_BYTES, CAPPED_BYTES)
    await expectRefusal(await gw.post('/v1/quote', quoteOfSize(1_000), as(CAPPED_KEY)), 429, { error: { message: KEY_LIMIT_EN, type: 'rate_limit_error', param: null, code: 'apikey_body_limit' } })
  })

  it('an async image task keeps its body held until the task ends, then gives it back', async () => {
    images.setScenario({ kind: 'slow', delayMs: 600 })
    const res = await gw.post('/v1/images/generations', { model: 'img-gpt', prompt: 'a fox' }, { ...as(IMAGE_KEY), prefer: 'respond-async' })
    expect(res.status).toBe(202)
    const { status_url: statusUrl } = (await res.json()) as { status_url: string }
    // The task forwards the body it was sent: it is still in memory, and counted.
    expect(gw.services.bodies.held()).toBeGreaterThan(0)
    await until('the task ended', 5_000, async () => ((await (await gw.get(statusUrl, as(IMAGE_KEY))).json()) as { status: string }).status === 'succeeded')
    await until('its body given back', 2_000, () => gw.services.bodies.held() === 0)
  })
})
