// A key deleted, disabled or expired while its stream runs ends that stream within a second: the protocol's error
// event and no chunk after it, the upstream call aborted, the ledger billing what was delivered. Runs on both stores.
import { get, type IncomingMessage } from 'node:http'
import { createParser, type EventSourceMessage } from 'eventsource-parser'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { messagesPromptText } from '../../electron/gateway/routes/messages.js'
import { responsesPromptText } from '../../electron/gateway/routes/responses.js'
import { countTextTokens, promptText } from '../../electron/gateway/tokens/tokens.js'
import { startTestGateway, type TestGateway } from '../helpers/gateway.js'
import { until } from '../helpers/until.js'
import { adminClient } from '../integration/admin/admin-helpers.js'
import { startTrickleUpstream, trickleWord, type TrickleUpstream } from './trickle-upstream.js'

const START_USD = 100
/** Upstream deltas: one every 50 ms, 200 of them (a 10 s stream, far longer than any test waits). */
const DELTAS = 200

let trickle: TrickleUpstream
let gw: TestGateway
let admin: ReturnType<typeof adminClient>

beforeAll(async () => {
  trickle = await startTrickleUpstream({ everyMs: 50, deltas: DELTAS })
  gw = await startTestGateway({
    account: { balance: START_USD, concurrency: 10 },
    models: [
      { id: 'test-gpt', family: 'gpt', vendor: 'openai', pricing: { unit: 'token', input: 2, output: 8 } },
      { id: 'test-claude', family: 'claude', vendor: 'anthropic', pricing: { unit: 'token', input: 3, output: 15 } },
    ],
    upstreams: [
      { id: 'trickle-openai', vendor: 'openai', baseUrl: `${trickle.origin}/v1`, apiKey: 'sk-upstream-trickle-openai' },
      { id: 'trickle-anthropic', vendor: 'anthropic', baseUrl: trickle.origin, apiKey: 'sk-upstream-trickle-anthropic' },
    ],
    groups: [
      { id: 'chat', protocol: 'chat', models: ['test-gpt'], upstreams: ['trickle-openai'] },
      { id: 'messages', protocol: 'messages', models: ['test-claude'], upstreams: ['trickle-anthropic'] },
    ],
  })
  admin = adminClient(gw)
})
afterAll(async () => {
  await gw?.stop()
  await trickle?.close()
})

afterEach(async () => {
  // Every slot given back, and the books right: balance = start − Σ ledger costs.
  await until('every slot given back', 2_000, () => gw.services.limiter.inFlight() === 0)
  await gw.services.store.ledger.flush()
  const { sql } = gw.services.store
  const { total } = (await sql.get<{ total: number }>('SELECT COALESCE(SUM(cost_nano), 0) AS total FROM requests'))!
  expect((await gw.services.store.account.get()).balance_nano).toBe(START_USD * 1e9 - total)
})

type Protocol = 'chat' | 'responses' | 'messages'
const messages = [{ role: 'user', content: 'hello there' }]

/** What each protocol sends, how its content and its error event read, and what its tokens cost (nano-USD). */
const PROTOCOLS: Record<Protocol, {
  path: string
  group: string
  body: Record<string, unknown>
  prompt: string
  /** the input the upstream reports before its end (message_start), billed for a cut stream instead of a count */
  reportedInput?: number
  prices: { input: number; output: number }
  content(e: EventSourceMessage): string | undefined
  /** the error event the protocol ends a stream with (spec §6 rule 1) */
  expectError(e: EventSourceMessage, code: string, message: string): void
}> = {
  chat: {
    path: '/v1/chat/completions', group: 'chat', body: { model: 'test-gpt', messages, stream: true }, prompt: promptText(messages), prices: { input: 2000, output: 8000 },
    content: (e) => (e.event === undefined && e.data !== '[DONE]' ? (JSON.parse(e.data) as { choices: Array<{ delta: { content?: string } }> }).choices[0]?.delta.content : undefined),
    expectError(e, code, message) {
      expect([e.event, JSON.parse(e.data)]).toEqual(['error', { error: { message, type: 'authentication_error', param: null, code } }])
    },
  },
  responses: {
    path: '/v1/responses', group: 'chat', body: { model: 'test-gpt', input: 'hello there', stream: true }, prompt: responsesPromptText({ input: 'hello there' }),
    prices: { input: 2000, output: 8000 },
    content: (e) => (e.event === 'response.output_text.delta' ? (JSON.parse(e.data) as { delta: string }).delta : undefined),
    expectError(e, code, message) {
      expect(e.event).toBe('response.failed')
      expect(JSON.parse(e.data)).toEqual({
        type: 'response.failed', sequence_number: expect.any(Number),
        response: { id: 'resp_trickle', object: 'response', status: 'failed', error: { code, message }, output: [], usage: null },
      })
    },
  },
  messages: {
    path: '/v1/messages', group: 'messages', body: { model: 'test-claude', max_tokens: 1024, messages, stream: true },
    prompt: messagesPromptText({ model: 'test-claude', max_tokens: 1024, messages }), reportedInput: 12, prices: { input: 3000, output: 15000 },
    content: (e) => (e.event === 'content_block_delta' ? (JSON.parse(e.data) as { delta: { text: string } }).delta.text : undefined),
    expectError(e, _code, message) {
      expect([e.event, JSON.parse(e.data)]).toEqual(['error', { type: 'error', error: { type: 'authentication_error', message } }])
    },
  },
}

/** A new key of `group` through the admin API: its secret and its id. */
async function newKey(group: string, expiresAt?: number): Promise<{ key: string; id: string }> {
  const created = await admin.post('/admin/v1/keys', { group, ...(expiresAt === undefined ? {} : { expiresAt }) })
  expect(created.status).toBe(201)
  return { key: created.json.key, id: created.json.id }
}

/** An SSE answer read as it arrives: its events, each with the time it came, and when the body ended. */
function readStream(res: Response) {
  const events: Array<EventSourceMessage & { at: number }> = []
  const parser = createParser({ onEvent: (e) => void events.push({ ...e, at: Date.now() }) })
  const decoder = new TextDecoder()
  const reader = res.body!.getReader()
  const ended = (async () => {
    for (;;) {
      const { value, done } = await reader.read()
      if (done) return Date.now()
      parser.feed(decoder.decode(value, { stream: true }))
    }
  })()
  return { events, ended }
}

/** `promise`, or a failure naming `what` after `ms`. */
async function within<T>(ms: number, what: string, promise: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined
  const late = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`not within ${ms} ms: ${what}`)), ms)))
  try {
    return await Promise.race([promise, late])
  } finally {
    clearTimeout(timer)
  }
}

interface Ending {
  /** what ends the key: an admin call, or nothing (its expiry comes) */
  act(id: string): Promise<unknown>
  /** when the key stops working (ms since the epoch), known once `act` ran */
  at(): number
  code: string
  message: string
  /** what the key gets afterwards */
  refusal: { code: string; message: RegExp }
}

/**
 * Starts a stream with a new key (`expiresAt` set at creation), lets three words through, ends the key as `ending`
 * says, and checks what the client, the upstream and the ledger saw.
 */
async function expectEndedMidStream(protocol: Protocol, ending: Ending, expiresAt?: number): Promise<void> {
  const p = PROTOCOLS[protocol]
  const { key, id } = await newKey(p.group, expiresAt)
  trickle.reset()
  const res = await fetch(`${gw.url}${p.path}`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: JSON.stringify(p.body) })
  expect(res.status).toBe(200)
  const stream = readStream(res)
  const words = () => stream.events.map(p.content).filter((t) => t !== undefined && t !== '')
  await until('three words delivered', 3_000, () => words().length >= 3)
  await ending.act(id)
  const endsAt = ending.at()
  const endedAt = await within(3_000, 'the stream ends', stream.ended)

  // The client: the words so far, then the protocol's error event, then nothing: the body ends.
  const last = stream.events.at(-1)!
  p.expectError(last, ending.code, ending.message)
  expect(last.at).toBeGreaterThanOrEqual(endsAt)
  expect(last.at - endsAt).toBeLessThan(1_000)
  expect(endedAt - endsAt).toBeLessThan(1_000)
  const delivered = words()
  expect(delivered).toEqual(delivered.map((_, i) => trickleWord(i)))
  expect(delivered.length).toBeLessThan(DELTAS)

  // The upstream: its connection closed by the gateway within the second, its answer unfinished.
  expect(trickle.calls).toHaveLength(1)
  const [call] = trickle.calls
  const cutAt = await until('the upstream connection is closed', 1_000, () => call.cutAt)
  expect(call.finished).toBe(false)
  expect(cutAt - endsAt).toBeLessThan(1_000)
  expect(call.deltas).toBeLessThan(DELTAS)

  // The ledger: status and code of the end, billed for the prompt (as the upstream reported it, else counted) and the
  // words delivered (counted locally).
  const requestId = res.headers.get('x-request-id')!
  const row = await until('the ledger row is final', 3_000, async () => {
    await gw.services.store.ledger.flush()
    const r = await gw.services.store.ledger.get(requestId)
    return r?.status === 401 ? r : undefined
  })
  const [input, output] = await Promise.all([p.reportedInput ?? countTextTokens(p.prompt), countTextTokens(delivered.join(''))])
  expect({ status: row.status, code: row.error_code, input: row.input_tokens, output: row.output_tokens, cost: row.cost_nano })
    .toEqual({ status: 401, code: ending.code, input, output, cost: input * p.prices.input + output * p.prices.output })

  // And the key is refused from now on.
  const again = await fetch(`${gw.url}${p.path}`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: JSON.stringify(p.body) })
  expect(again.status).toBe(401)
  const refused = (await again.json()) as { error: { code?: string; message: string } }
  if (protocol !== 'messages') expect(refused.error.code).toBe(ending.refusal.code)
  expect(refused.error.message).toMatch(ending.refusal.message)
}

/** An admin call that ends the key, timed from just before it. */
function byAdmin(call: (id: string) => Promise<{ status: number }>, status: number): Pick<Ending, 'act' | 'at'> {
  let before = 0
  return {
    async act(id) {
      before = Date.now()
      expect((await call(id)).status).toBe(status)
    },
    at: () => before,
  }
}

describe.each<Protocol>(['chat', 'responses', 'messages'])('a key ended while its %s stream runs', (protocol) => {
  it('revoked (DELETE /admin/v1/keys/{id}): api_key_revoked', async () => {
    await expectEndedMidStream(protocol, {
      ...byAdmin((id) => admin.del(`/admin/v1/keys/${id}`), 204),
      code: 'api_key_revoked', message: 'This API key was revoked while the request was running.',
      refusal: { code: 'invalid_api_key', message: /^Incorrect API key provided: sk-/ },
    })
  })

  it('disabled (PATCH disabled: true): api_key_revoked', async () => {
    await expectEndedMidStream(protocol, {
      ...byAdmin((id) => admin.patch(`/admin/v1/keys/${id}`, { disabled: true }), 200),
      code: 'api_key_revoked', message: 'This API key was disabled while the request was running.',
      refusal: { code: 'invalid_api_key', message: /^This API key is disabled: sk-/ },
    })
  })

  it('expired (a key made to expire in 2-3 s): api_key_expired at its expiry, not at the next chunk or request', async () => {
    const expiresAt = Math.floor(Date.now() / 1000) + 3
    await expectEndedMidStream(protocol, {
      act: () => Promise.resolve(),
      at: () => expiresAt * 1000,
      code: 'api_key_expired', message: 'This API key expired while the request was running.',
      refusal: { code: 'api_key_expired', message: /^This API key has expired: sk-/ },
    }, expiresAt)
  })
})

describe('an expiry set while the stream runs', () => {
  it('ends the stream when it comes (the reload arms it again); a change that leaves the key working ends nothing', async () => {
    let expiresAt = 0
    await expectEndedMidStream('chat', {
      async act(id) {
        // A rename and a far expiry: the stream runs on.
        expect((await admin.patch(`/admin/v1/keys/${id}`, { name: 'renamed', expiresAt: Math.floor(Date.now() / 1000) + 3600 })).status).toBe(200)
        const calls = trickle.calls[0]
        const before = calls.deltas
        await until('three more words after the harmless change', 3_000, () => calls.deltas >= before + 3)
        expiresAt = Math.floor(Date.now() / 1000) + 2
        expect((await admin.patch(`/admin/v1/keys/${id}`, { expiresAt })).status).toBe(200)
      },
      at: () => expiresAt * 1000,
      code: 'api_key_expired', message: 'This API key expired while the request was running.',
      refusal: { code: 'api_key_expired', message: /^This API key has expired: sk-/ },
    })
  })
})

describe('a key revoked before its answer started', () => {
  it.each<Protocol>(['chat', 'messages'])('%s: the waiting request gets 401 api_key_revoked in its protocol shape at once, billed nothing', async (protocol) => {
    const p = PROTOCOLS[protocol]
    const { key, id } = await newKey(p.group)
    trickle.reset()
    // Not streamed: the gateway waits for the whole upstream answer (10 s here) before it answers.
    const pending = fetch(`${gw.url}${p.path}`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: JSON.stringify({ ...p.body, stream: false }) })
    await until('the upstream is answering', 3_000, () => (trickle.calls[0]?.deltas ?? 0) >= 3)
    const revokedAt = Date.now()
    expect((await admin.del(`/admin/v1/keys/${id}`)).status).toBe(204)
    const res = await within(1_000, 'the answer', pending)
    expect(Date.now() - revokedAt).toBeLessThan(1_000)
    const message = 'This API key was revoked while the request was running.'
    expect([res.status, await res.json()]).toEqual([401, protocol === 'messages'
      ? { type: 'error', error: { type: 'authentication_error', message } }
      : { error: { message, type: 'authentication_error', param: null, code: 'api_key_revoked' } }])
    const cutAt = await until('the upstream connection is closed', 1_000, () => trickle.calls[0].cutAt)
    expect(cutAt - revokedAt).toBeLessThan(1_000)
    await gw.services.store.ledger.flush()
    expect(await gw.services.store.ledger.get(res.headers.get('x-request-id')!)).toMatchObject({ status: 401, error_code: 'api_key_revoked', cost_nano: 0 })
  })
})

describe("a key revoked while its video downloads", () => {
  it('GET /v1/video/tasks/{id}/content is cut within a second, even with the reader stalled', async () => {
    const { key, id } = await newKey('chat')
    // A finished video task of the key, with its saved copy: far more than the socket buffers of both ends hold.
    const size = 24 * 1024 * 1024
    const taskId = `vid_revoke_${id}`
    const now = Date.now()
    await gw.services.store.tasks.insert({
      id: taskId, kind: 'video', key_id: id, group_id: 'chat', model: 'test-gpt', endpoint: 'video.generate', upstream_id: null, vendor_task_id: null,
      status: 'succeeded', progress: 100, request: null, result: null, error: null, reserved_nano: 0, cost_nano: 0, settled: 1, idempotency_key: null,
      created_at: now, updated_at: now,
    })
    const path = await gw.services.media.write(`media/video/${taskId}.mp4`, Buffer.alloc(size, 1), size)
    await gw.services.store.media.insert({ id: `${taskId}-0`, request_id: taskId, kind: 'video', source_url: null, path, mime_type: 'video/mp4', created_at: now })

    // Its own connection, one chunk read, then nothing: the gateway's writes wait on the reader.
    const res = await new Promise<IncomingMessage>((resolve, reject) => {
      get(`${gw.url}/v1/video/tasks/${taskId}/content`, { headers: { authorization: `Bearer ${key}` }, agent: false }, resolve).on('error', reject)
    })
    expect([res.statusCode, res.headers['content-length']]).toEqual([200, String(size)])
    res.on('error', () => {}) // cut short: `close` says it
    let received = await new Promise<number>((resolve) => res.once('data', (chunk: Buffer) => {
      res.pause()
      resolve(chunk.length)
    }))
    await until('the download is under way', 2_000, () => gw.services.keyRequests.count(id) === 1)

    const revokedAt = Date.now()
    expect((await admin.del(`/admin/v1/keys/${id}`)).status).toBe(204)
    const cut = await within(1_000, 'the download is cut', new Promise<boolean>((resolve) => {
      res.on('data', (chunk: Buffer) => (received += chunk.length))
      res.once('close', () => resolve(!res.complete))
      res.resume()
    }))
    expect([cut, received < size, Date.now() - revokedAt < 1_000]).toEqual([true, true, true])
    expect(gw.services.keyRequests.count(id)).toBe(0)
  })
})
