// Clients that misbehave on purpose: deep JSON, huge multipart bodies, trickled uploads, readers that stop
// reading, oversized bodies, uploads cut short. Each must get its exact answer, give back its slot, and leave
// the gateway serving everyone else, with the books right (balance = start − Σ ledger costs).
import { connect, type Socket } from 'node:net'
import { Readable } from 'node:stream'
import Anthropic from '@anthropic-ai/sdk'
import OpenAI from 'openai'
import { Agent, request } from 'undici'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { startFakeOpenAI, type FakeOpenAI } from '../fakes/openai.js'
import { chatConfig, startTestGateway, TEST_KEY, type TestGateway } from '../helpers/gateway.js'

const START_BALANCE_NANO = 100 * 1e9
const MESSAGES_KEY = 'sk-messages-0123456789'
const OTHER_KEY = 'sk-other-0123456789'
const chat = { model: 'test-gpt', messages: [{ role: 'user', content: 'hello' }] }
const DEEP = '['.repeat(100_000) + ']'.repeat(100_000)
const TOO_DEEP_EN = 'The JSON body nests arrays and objects deeper than 128 levels.'

let fake: FakeOpenAI
let gw: TestGateway

beforeAll(async () => {
  fake = await startFakeOpenAI()
  const config = chatConfig([{ id: 'a', baseUrl: fake.url }], {
    account: { balance: 100, concurrency: 2 },
    timeouts: { headersMs: 1_000, bodyIdleMs: 600, bodyMs: 1_500, clientIdleMs: 400 },
  })
  config.keys!.push({ key: OTHER_KEY, group: 'main' })
  gw = await startTestGateway(config)
})
afterAll(async () => {
  await gw.stop()
  await fake.close()
})
beforeEach(() => fake.reset())
afterEach(() => expectBooksBalanced(gw))

/** balance = start − Σ ledger costs, and no ledger row has a negative cost. */
async function expectBooksBalanced(g: TestGateway): Promise<void> {
  await g.services.store.ledger.flush()
  const { spent, lowest } = (await g.services.store.sql.get<{ spent: number; lowest: number }>('SELECT COALESCE(SUM(cost_nano), 0) AS spent, COALESCE(MIN(cost_nano), 0) AS lowest FROM requests'))!
  expect((await g.services.store.account.get()).balance_nano).toBe(START_BALANCE_NANO - spent)
  expect(lowest).toBeGreaterThanOrEqual(0)
}

const as = (key: string) => ({ authorization: `Bearer ${key}` })

async function until(cond: () => boolean | Promise<boolean>, what: string, timeoutMs = 10_000): Promise<void> {
  const end = Date.now() + timeoutMs
  while (!(await cond())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`)
    await new Promise((r) => setTimeout(r, 20))
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

interface RawAnswer { status: number; headers: Record<string, string>; body: string }

/**
 * A raw HTTP/1.1 client on its own connection, so a test can trickle, pause or cut it. `answer` resolves
 * with the first response (its body read by Content-Length), or rejects after `timeoutMs`.
 */
function rawClient(g: TestGateway, head: string, timeoutMs = 15_000): { socket: Socket; answer: Promise<RawAnswer>; errors: string[] } {
  const socket = connect(g.port, '127.0.0.1')
  const errors: string[] = []
  socket.on('error', (err: NodeJS.ErrnoException) => errors.push(err.code ?? err.message))
  socket.write(head)
  const answer = new Promise<RawAnswer>((resolve, reject) => {
    let received = Buffer.alloc(0)
    const timer = setTimeout(() => reject(new Error('no answer in time')), timeoutMs)
    const tryParse = (final: boolean) => {
      const end = received.indexOf('\r\n\r\n')
      if (end < 0) return final && reject(new Error(`connection closed without an answer: ${received.toString()}`))
      const [statusLine, ...lines] = received.subarray(0, end).toString().split('\r\n')
      const headers = Object.fromEntries(lines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]))
      const length = Number(headers['content-length'] ?? NaN)
      const body = received.subarray(end + 4)
      if (body.length >= length || final) {
        clearTimeout(timer)
        resolve({ status: Number(statusLine.split(' ')[1]), headers, body: body.subarray(0, Number.isNaN(length) ? body.length : length).toString() })
      }
    }
    socket.on('data', (chunk: Buffer) => {
      received = Buffer.concat([received, chunk])
      tryParse(false)
    })
    socket.on('close', () => tryParse(true))
  })
  // A test that cuts the connection itself does not wait for an answer.
  answer.catch(() => {})
  return { socket, answer, errors }
}

const postHead = (path: string, key: string, extra: string) => `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${key}\r\nContent-Type: application/json\r\n${extra}\r\n`

describe('deeply nested JSON', () => {
  const chatShape = { error: { message: TOO_DEEP_EN, type: 'invalid_request_error', param: null, code: 'invalid_request' } }

  it('/v1/chat/completions: 400 invalid_request naming the limit (also in Chinese), and the next request is served', async () => {
    const res = await gw.post('/v1/chat/completions', `{"model":"test-gpt","messages":${DEEP}}`)
    expect(res.status).toBe(400)
    expect(await res.json()).toEqual(chatShape)
    const zh = await gw.post('/v1/chat/completions', `{"model":"test-gpt","extra":${DEEP}}`, { 'accept-language': 'zh-CN' })
    expect(zh.status).toBe(400)
    expect(((await zh.json()) as { error: { message: string } }).error.message).toBe('JSON 请求体中数组和对象的嵌套超过 128 层。')
    expect(fake.calls).toHaveLength(0)
    expect((await gw.post('/v1/chat/completions', chat)).status).toBe(200)
  })

  it('/v1/messages: the messages error shape', async () => {
    const res = await gw.post('/v1/messages', `{"model":"test-gpt","max_tokens":5,"messages":[],"metadata":${DEEP}}`, as(MESSAGES_KEY))
    expect(res.status).toBe(400)
    expect(await res.json()).toEqual({ type: 'error', error: { type: 'invalid_request_error', message: TOO_DEEP_EN } })
    expect((await gw.post('/v1/chat/completions', chat)).status).toBe(200)
  })

  it('the admin API', async () => {
    const res = await gw.post('/admin/v1/keys', `{"group":"main","name":${DEEP}}`, as(gw.adminToken))
    expect(res.status).toBe(400)
    expect(await res.json()).toEqual(chatShape)
    expect((await gw.get('/admin/v1/keys', as(gw.adminToken))).status).toBe(200)
  })

  it("DashScope's native video path: DashScope's shape", async () => {
    const res = await gw.post('/api/v1/services/aigc/video-generation/video-synthesis', `{"model":"wan2.5-t2v-preview","input":${DEEP}}`)
    expect(res.status).toBe(400)
    const body = (await res.json()) as Record<string, unknown>
    expect(body).toEqual({ request_id: res.headers.get('x-request-id'), code: 'invalid_request', message: TOO_DEEP_EN })
    expect((await gw.post('/v1/chat/completions', chat)).status).toBe(200)
  })

  it('128 levels still pass the check (and reach the schema)', async () => {
    const deep128 = '['.repeat(127) + ']'.repeat(127)
    const res = await gw.post('/v1/chat/completions', `{"model":"test-gpt","messages":[{"role":"user","content":"hi"}],"extra":${deep128}}`)
    expect(res.status).toBe(200)
  })
})

describe('multipart/form-data limits', () => {
  const boundary = 'hostile-boundary'
  const multipart = (parts: string[]) => `${parts.map((p) => `--${boundary}\r\n${p}\r\n`).join('')}--${boundary}--\r\n`
  const field = (name: string, value: string) => `Content-Disposition: form-data; name="${name}"\r\n\r\n${value}`
  const file = (name: string) => `Content-Disposition: form-data; name="${name}"; filename="a.png"\r\nContent-Type: image/png\r\n\r\n\x89PNG`
  const edit = (body: string) =>
    request(`${gw.url}/v1/images/edits`, {
      method: 'POST',
      headers: { ...as(TEST_KEY), 'content-type': `multipart/form-data; boundary=${boundary}` },
      body,
      dispatcher: new Agent({ pipelining: 0 }),
    })

  it('30,000 fields: 400 naming the field limit; the next request on another connection is served', async () => {
    const res = await edit(multipart(Array.from({ length: 30_000 }, (_, i) => field('prompt', `p${i}`))))
    expect(res.statusCode).toBe(400)
    expect(await res.body.json()).toEqual({ error: { message: 'The multipart/form-data body has more than 256 fields.', type: 'invalid_request_error', param: null, code: 'invalid_request' } })
    const next = await request(`${gw.url}/v1/chat/completions`, { method: 'POST', headers: { ...as(TEST_KEY), 'content-type': 'application/json' }, body: JSON.stringify(chat), dispatcher: new Agent() })
    expect(next.statusCode).toBe(200)
    await next.body.dump()
    expect(gw.services.limiter.inFlight()).toBe(0)
  })

  it('65 files: 400 naming the file limit', async () => {
    const res = await edit(multipart([field('model', 'test-image'), field('prompt', 'p'), ...Array.from({ length: 65 }, () => file('image[]'))]))
    expect(res.statusCode).toBe(400)
    expect(((await res.body.json()) as { error: { message: string } }).error.message).toBe('The multipart/form-data body has more than 64 files.')
  })

  it('a field value over 32 MiB: 400 naming the size limit', async () => {
    const res = await edit(multipart([field('model', 'test-image'), field('prompt', 'x'.repeat(32 * 1024 * 1024 + 1))]))
    expect(res.statusCode).toBe(400)
    expect(((await res.body.json()) as { error: { message: string } }).error.message).toBe('A multipart/form-data field value is longer than 33554432 bytes.')
  })
})

describe('trickled bodies', () => {
  /** Sends `bytes` bytes of a `length`-byte JSON body, one every `everyMs`, while the socket lasts. */
  async function trickle(socket: Socket, bytes: number, everyMs: number): Promise<void> {
    for (let i = 0; i < bytes && !socket.destroyed; i++) {
      socket.write(' ')
      await sleep(everyMs)
    }
  }

  it('one byte every 200 ms: 408 request_timeout at bodyMs; no slot is held meanwhile, so another key is served', async () => {
    const clients = Array.from({ length: 5 }, () => rawClient(gw, postHead('/v1/chat/completions', TEST_KEY, 'Content-Length: 1000\r\n')))
    const sending = clients.map((c) => trickle(c.socket, 50, 200))
    await sleep(300)
    expect(gw.services.limiter.inFlight()).toBe(0)
    const other = await gw.post('/v1/chat/completions', chat, as(OTHER_KEY))
    expect(other.status).toBe(200)
    for (const { answer } of clients) {
      const res = await answer
      expect(res.status).toBe(408)
      expect(res.headers.connection).toBe('close')
      expect(JSON.parse(res.body)).toEqual({
        error: { message: 'The request body did not arrive in full within 1500 ms (timeouts.bodyMs).', type: 'invalid_request_error', param: null, code: 'request_timeout' },
      })
    }
    for (const c of clients) c.socket.destroy()
    await Promise.all(sending)
    expect(gw.services.limiter.inFlight()).toBe(0)
    // Only the other key's request reached the upstream.
    expect(fake.calls).toHaveLength(1)
  })

  it('a body that stops arriving: 408 after bodyIdleMs, in the messages shape on /v1/messages', async () => {
    const { socket, answer } = rawClient(gw, postHead('/v1/messages', MESSAGES_KEY, 'Content-Length: 1000\r\n') + '{"model":')
    const res = await answer
    socket.destroy()
    expect(res.status).toBe(408)
    expect(JSON.parse(res.body)).toEqual({ type: 'error', error: { type: 'invalid_request_error', message: 'The request body stopped arriving: nothing was received for 600 ms (timeouts.bodyIdleMs).' } })
    expect(gw.services.limiter.inFlight()).toBe(0)
  })

  it('the admin media upload: a trickled upload gets the same 408', async () => {
    const head = `POST /admin/v1/media?request=req_x HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${gw.adminToken}\r\nContent-Type: image/png\r\nContent-Length: 1000\r\n\r\n`
    const { socket, answer } = rawClient(gw, head)
    const sending = trickle(socket, 50, 200)
    const res = await answer
    socket.destroy()
    await sending
    expect(res.status).toBe(408)
    expect(JSON.parse(res.body)).toEqual({
      error: { message: 'The request body did not arrive in full within 1500 ms (timeouts.bodyMs).', type: 'invalid_request_error', param: null, code: 'request_timeout' },
    })
    expect((await gw.services.store.media.byRequest('req_x'))).toEqual([])
  })

  it('a client that leaves mid-upload: no crash, ledger 499 at no cost, and the next request is served', async () => {
    const { socket } = rawClient(gw, postHead('/v1/chat/completions', TEST_KEY, 'Content-Length: 1000000\r\n') + ' '.repeat(100_000))
    await sleep(100)
    socket.destroy()
    await until(async () => (await gw.services.store.ledger.recent(null, 1))[0]?.status === 499, 'the 499 ledger row')
    expect((await gw.services.store.ledger.recent(null, 1))[0]).toMatchObject({ status: 499, error_code: 'client_closed_request', cost_nano: 0 })
    expect(gw.services.limiter.inFlight()).toBe(0)
    expect((await gw.post('/v1/chat/completions', chat)).status).toBe(200)
  })
})

describe('connections', () => {
  it('headers that never end: 408 and the connection closed after timeouts.headersMs', async () => {
    const { socket, answer } = rawClient(gw, 'POST /v1/chat/completions HTTP/1.1\r\nHost: 127.0.0.1\r\n')
    const res = await answer
    expect(res.status).toBe(408)
    expect(res.headers.connection).toBe('close')
    expect(res.headers['x-request-id']).toMatch(/^req_/)
    expect(JSON.parse(res.body)).toEqual({
      error: { message: `The request headers did not arrive in full within 1000 ms (timeouts.headersMs).`, type: 'invalid_request_error', param: null, code: 'request_timeout' },
    })
    await until(() => socket.destroyed || socket.readableEnded, 'the connection to close')
    socket.destroy()
  })

  // A connection served nothing gives its place to a newcomer (connection-lockout.test.ts): here all are being served.
  it('limits.maxConnections: while every connection is being served, one over the cap is closed at once; once one leaves, requests are served', async () => {
    const capped = await startTestGateway(chatConfig([{ id: 'a', baseUrl: fake.url }], { limits: { maxConnections: 3 } }))
    try {
      // Requests whose bodies never come; Node's 100 Continue says each was taken.
      const held = Array.from({ length: 3 }, () => rawClient(capped, postHead('/v1/chat/completions', TEST_KEY, 'Content-Length: 100\r\nExpect: 100-continue\r\n')).socket)
      await Promise.all(held.map((s) => new Promise((resolve) => s.once('data', resolve))))
      const over = rawClient(capped, 'GET /v1/models HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n')
      await expect(over.answer).rejects.toThrow('connection closed without an answer')
      held[0].destroy()
      await sleep(100)
      const res = await request(`${capped.url}/v1/models`, { headers: as(TEST_KEY), dispatcher: new Agent() })
      expect(res.statusCode).toBe(200)
      await res.body.dump()
      for (const s of held) s.destroy()
    } finally {
      await capped.stop()
    }
  })
})

describe('a client that stops reading', () => {
  it('is cut after clientIdleMs: ledger 499, billed for the output produced, slot freed', async () => {
    fake.setScenario({ kind: 'ok', text: 'lorem ipsum dolor sit amet '.repeat(400_000), chunks: 2_000 })
    const body = JSON.stringify({ ...chat, stream: true })
    const { socket } = rawClient(gw, postHead('/v1/chat/completions', TEST_KEY, `Content-Length: ${Buffer.byteLength(body)}\r\n`) + body)
    await new Promise((resolve) => socket.once('data', resolve))
    socket.pause()
    await until(async () => (await gw.services.store.ledger.recent(null, 1))[0]?.status === 499, 'the 499 ledger row', 20_000)
    const row = (await gw.services.store.ledger.recent(null, 1))[0]
    expect(row).toMatchObject({ status: 499, error_code: 'client_closed_request' })
    expect(row.cost_nano).toBeGreaterThan(0)
    expect(row.output_tokens).toBeGreaterThan(0)
    expect(gw.services.limiter.inFlight()).toBe(0)
    socket.destroy()
    fake.setScenario({ kind: 'ok' })
    expect((await gw.post('/v1/chat/completions', chat)).status).toBe(200)
  })
})

describe('bodies over 60 MB: a 413 the client reads', () => {
  let roomy: TestGateway
  const requestRows = async (g: TestGateway) => (await g.services.store.ledger.recent(null, 1_000)).length
  const TOO_LARGE = 'The request body exceeds the 60000000 byte limit.'

  beforeAll(async () => {
    // Default client timeouts: 60 MB may take longer than the short ones above to arrive on a busy machine.
    roomy = await startTestGateway(chatConfig([{ id: 'a', baseUrl: fake.url }]))
  })
  afterAll(() => roomy.stop())
  afterEach(() => expectBooksBalanced(roomy))

  it('with a Content-Length: 413 request_too_large, Connection: close, read by the client', async () => {
    const res = await request(`${roomy.url}/v1/chat/completions`, { method: 'POST', headers: { ...as(TEST_KEY), 'content-type': 'application/json' }, body: Buffer.alloc(60_000_001, 0x20) })
    expect(res.statusCode).toBe(413)
    expect(res.headers.connection).toBe('close')
    expect(await res.body.json()).toEqual({ error: { message: TOO_LARGE, type: 'request_too_large', param: null, code: 'request_too_large' } })
    expect(fake.calls).toHaveLength(0)
    expect(roomy.services.limiter.inFlight()).toBe(0)
  })

  it('without a length (chunked): the same 413, read by the client', async () => {
    async function* chunks() {
      const piece = Buffer.alloc(1_000_000, 0x20)
      for (let i = 0; i < 60; i++) yield piece
      yield Buffer.from(' ')
    }
    const res = await request(`${roomy.url}/v1/chat/completions`, { method: 'POST', headers: { ...as(TEST_KEY), 'content-type': 'application/json' }, body: Readable.from(chunks()) })
    expect(res.statusCode).toBe(413)
    expect(res.headers.connection).toBe('close')
    expect(((await res.body.json()) as { error: { code: string; message: string } }).error).toMatchObject({ code: 'request_too_large', message: TOO_LARGE })
    expect(fake.calls).toHaveLength(0)
    expect(roomy.services.limiter.inFlight()).toBe(0)
  })

  it('a client that sends the whole body before reading finishes its upload (no broken pipe) and reads the 413', async () => {
    const { socket, answer, errors } = rawClient(roomy, postHead('/v1/chat/completions', TEST_KEY, 'Content-Length: 60000001\r\n'))
    const piece = Buffer.alloc(1_000_000, 0x20)
    for (let i = 0; i < 60; i++) socket.write(piece)
    const sent = new Promise<void>((resolve) => socket.write(' ', () => resolve()))
    const res = await answer
    await sent
    expect(res.status).toBe(413)
    expect(res.headers.connection).toBe('close')
    expect(JSON.parse(res.body)).toEqual({ error: { message: TOO_LARGE, type: 'request_too_large', param: null, code: 'request_too_large' } })
    expect(errors).toEqual([])
    socket.destroy()
  })

  it('the openai SDK (default retries) gets a typed 413 from one request', async () => {
    const client = new OpenAI({ baseURL: `${roomy.url}/v1`, apiKey: TEST_KEY })
    const before = await requestRows(roomy)
    const err = await client.chat.completions.create({ model: 'test-gpt', messages: [{ role: 'user', content: 'a'.repeat(60_000_001) }] }).catch((e: unknown) => e)
    expect(err).toBeInstanceOf(OpenAI.APIError)
    expect((err as InstanceType<typeof OpenAI.APIError>).status).toBe(413)
    expect((err as InstanceType<typeof OpenAI.APIError>).code).toBe('request_too_large')
    expect(await requestRows(roomy)).toBe(before + 1)
    expect((await roomy.services.store.ledger.recent(null, 1))[0]).toMatchObject({ status: 413, cost_nano: 0 })
    expect(fake.calls).toHaveLength(0)
  })

  it('the Anthropic SDK (default retries) gets a typed 413 from one request', async () => {
    const client = new Anthropic({ baseURL: roomy.url, apiKey: MESSAGES_KEY })
    const before = await requestRows(roomy)
    const err = await client.messages.create({ model: 'test-gpt', max_tokens: 5, messages: [{ role: 'user', content: 'a'.repeat(60_000_001) }] }).catch((e: unknown) => e)
    expect(err).toBeInstanceOf(Anthropic.APIError)
    expect((err as InstanceType<typeof Anthropic.APIError>).status).toBe(413)
    expect(await requestRows(roomy)).toBe(before + 1)
    expect((await roomy.services.store.ledger.recent(null, 1))[0]).toMatchObject({ status: 413, cost_nano: 0 })
    expect(fake.calls).toHaveLength(0)
  })
})
