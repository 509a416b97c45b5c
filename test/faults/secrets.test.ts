// Secrets stay secret: an upstream that quotes its own credentials in its errors (status errors, in-stream error
// events, failed video tasks) never gets them to a client, the ledger, the stored tasks or the log; and gateway keys
// are stored as keyed hashes (secrets-sqlite.test.ts: older SQLite stores upgraded without losing a key or its id).
import http from 'node:http'
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { formatMessage } from '../../shared/messages.js'
import type { GatewayConfig } from '../../electron/gateway/config/load-config.js'
import type { RunningGateway } from '../../electron/gateway/gateway.js'
import { legacyKeyHash } from '../../electron/gateway/secrets/keys.js'
import { listenLocal } from '../fakes/listen-local.js'
import { chatConfig, startGatewayOnTestStore, TEST_KEY, tempDataDir } from '../helpers/gateway.js'
import { storeText } from '../helpers/store-text.js'

const OPENAI_KEY = 'AKleak0123456789ab:SKleak9876543210cdef' // composite, as a Kling account's
const ANTHROPIC_KEY = 'sk-ant-leak-0123456789abcdef'
const DASHSCOPE_KEY = 'ds-leak-secret-0123456789'
const MESSAGES_KEY = 'sk-messages-leak-0123456789'
const WAN = 'wan2.7-t2v'

/** Every spelling of every upstream secret that must never come out. */
const ROTATED_KEY = 'rotated-upstream-key-000111222'
const SECRETS = [OPENAI_KEY, ANTHROPIC_KEY, DASHSCOPE_KEY, ROTATED_KEY, ...OPENAI_KEY.split(':')].flatMap((s) => [s, encodeURIComponent(s)])

/** What the leaky upstream says: the credentials it got, quoted in several spellings. */
function leak(presented: string, accountKey: string): string {
  const [access, secret] = accountKey.includes(':') ? accountKey.split(':') : [accountKey, accountKey]
  return `you sent Authorization: ${presented}; as JSON ${JSON.stringify({ key: accountKey })}; see https://leak.test/keys?k=${encodeURIComponent(accountKey)}&x=1; access ${access} secret ${secret}`
}

/** The same text as the client must see it. */
const redactedLeak = (scheme: string) =>
  `you sent Authorization: ${scheme}[redacted]; as JSON {"key":"[redacted]"}; see https://leak.test/keys?k=[redacted]&x=1; access [redacted] secret [redacted]`

/** error.upstream: why the vendor failed and its own words, redacted like the message (issue 25: errors name the fix). */
const upstreamNote = (reason: string, status: number) => ({ reason, status, message: redactedLeak('Bearer ') })

/** The account key the upstream got: `Authorization: Bearer …` (OpenAI, DashScope) or `x-api-key` (Anthropic). */
const accountKeyOf = (req: http.IncomingMessage) => String(req.headers['x-api-key'] ?? req.headers.authorization).replace(/^Bearer /, '')

function send(res: http.ServerResponse, status: number, body: unknown) {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body))
}

/** One fake for three vendors (OpenAI-compatible chat, Anthropic messages, DashScope video), all of them leaky. */
async function startLeakyUpstream() {
  let polls = 0
  const server = http.createServer((req, res) => {
    let raw = ''
    req.on('data', (c: Buffer) => (raw += c.toString()))
    req.on('end', () => {
      const body = raw ? JSON.parse(raw) : {}
      const accountKey = accountKeyOf(req)
      const said = leak(String(req.headers.authorization ?? req.headers['x-api-key']), accountKey)
      const prompt: string = body.messages?.[0]?.content ?? body.input?.prompt ?? ''
      if (req.url === '/chat/completions') {
        const status = /^status-(\d+)$/.exec(prompt)
        if (status) return send(res, Number(status[1]), { error: { message: said, type: 'invalid_request_error', code: accountKey, param: null } })
        res.writeHead(200, { 'content-type': 'text/event-stream' })
        res.write(`data: ${JSON.stringify({ id: 'c1', object: 'chat.completion.chunk', choices: [{ index: 0, delta: { content: 'hi' } }] })}\n\n`)
        return res.end(`data: ${JSON.stringify({ error: { message: said, code: accountKey } })}\n\n`)
      }
      if (req.url === '/v1/messages') {
        if (!body.stream) return send(res, 400, { type: 'error', error: { type: 'invalid_request_error', message: said } })
        res.writeHead(200, { 'content-type': 'text/event-stream' })
        res.write(`event: message_start\ndata: ${JSON.stringify({ type: 'message_start', message: { id: 'm1', usage: { input_tokens: 3, output_tokens: 0 } } })}\n\n`)
        res.write(`event: content_block_delta\ndata: ${JSON.stringify({ type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'hi' } })}\n\n`)
        return res.end(`event: error\ndata: ${JSON.stringify({ type: 'error', error: { type: 'api_error', message: said } })}\n\n`)
      }
      if (req.url === '/api/v1/services/aigc/video-generation/video-synthesis') {
        if (prompt === 'refuse') return send(res, 400, { request_id: 'r1', code: 'InvalidParameter', message: said })
        return send(res, 200, { request_id: 'r2', output: { task_id: 'vt-1', task_status: 'PENDING' } })
      }
      if (req.url === '/api/v1/tasks/vt-1') {
        // The first poll fails (the gateway logs it and polls again), the second ends the task with the vendor's words.
        if (++polls === 1) return send(res, 500, { request_id: 'r3', code: 'InternalError', message: said })
        return send(res, 200, { request_id: 'r4', output: { task_id: 'vt-1', task_status: 'FAILED', code: 'DataInspectionFailed', message: said } })
      }
      send(res, 404, {})
    })
  })
  return listenLocal(server)
}

function expectClean(what: string, text: string) {
  for (const secret of SECRETS) expect(text, `${what} holds ${secret}`).not.toContain(secret)
}

describe('an upstream that quotes its secrets', () => {
  let upstream: Awaited<ReturnType<typeof startLeakyUpstream>>
  let gw: RunningGateway
  const data = tempDataDir()
  const logs: string[] = []
  const stderr: string[] = []

  beforeAll(async () => {
    upstream = await startLeakyUpstream()
    const base = chatConfig([])
    const config: GatewayConfig = {
      ...base,
      models: [...base.models!, { id: 'test-claude', family: 'claude', vendor: 'anthropic', pricing: { unit: 'token', input: 3, output: 15 } }],
      upstreams: [
        { id: 'leaky', vendor: 'openai', baseUrl: upstream.origin, apiKey: OPENAI_KEY },
        { id: 'leaky-anthropic', vendor: 'anthropic', baseUrl: upstream.origin, apiKey: ANTHROPIC_KEY },
        { id: 'leaky-dashscope', vendor: 'dashscope', baseUrl: upstream.origin, apiKey: DASHSCOPE_KEY },
      ],
      groups: [
        { id: 'main', protocol: 'chat', models: ['test-gpt', WAN], upstreams: ['leaky', 'leaky-dashscope'] },
        { id: 'msgs', protocol: 'messages', models: ['test-claude'], upstreams: ['leaky-anthropic'] },
      ],
      keys: [{ key: TEST_KEY, group: 'main' }, { key: MESSAGES_KEY, group: 'msgs' }],
    }
    const write = process.stderr.write.bind(process.stderr)
    vi.spyOn(process.stderr, 'write').mockImplementation((chunk: string | Uint8Array, ...rest: any[]) => {
      stderr.push(String(chunk))
      return write(chunk, ...rest)
    })
    gw = await startGatewayOnTestStore({ dataDir: data.dir, config, port: 0, log: (l) => logs.push(l), videoPoll: { intervalMs: 15, maxIntervalMs: 40, timeoutMs: 1_000 } })
  })
  afterAll(async () => {
    vi.restoreAllMocks()
    await gw.close(1_000)
    await upstream.close()
    data.remove()
  })

  const post = (path: string, body: unknown, key = TEST_KEY, headers: Record<string, string> = {}) =>
    fetch(`${gw.url}${path}`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) })
  const get = (path: string) => fetch(`${gw.url}${path}`, { headers: { authorization: `Bearer ${TEST_KEY}` } })
  const chat = (content: string, stream = false) => post('/v1/chat/completions', { model: 'test-gpt', stream, messages: [{ role: 'user', content }] })

  it('chat: a 400 that quotes the key reaches the client redacted, with its code redacted too', async () => {
    const res = await chat('status-400')
    expect(res.status).toBe(400)
    expect(await res.json()).toEqual({ error: { message: redactedLeak('Bearer '), type: 'invalid_request_error', param: null, code: '[redacted]', upstream: upstreamNote('vendor_refused', 400) } })
  })

  it.each([
    [401, 'account credentials refused, HTTP 401', 'key_refused'],
    [500, 'HTTP 500', 'vendor_error'],
  ])('chat: a %i is failed over and answered 502, the upstream words only in error.upstream and redacted', async (status, detail, reason) => {
    const res = await chat(`status-${status}`)
    expect(res.status).toBe(502)
    expect(await res.json()).toEqual({ error: { message: formatMessage('upstream_error', 'en', { detail }), type: 'upstream_error', param: null, code: 'upstream_error', upstream: upstreamNote(reason, status) } })
  })

  it('chat: an error event inside the stream is relayed redacted', async () => {
    const res = await chat('stream', true)
    expect(res.status).toBe(200)
    const text = await res.text()
    expect(text).toContain(`data: ${JSON.stringify({ error: { message: redactedLeak('Bearer '), code: '[redacted]' } })}\n\n`)
    expectClean('the chat stream', text)
  })

  it('messages: a 400 and an error event inside the stream are redacted', async () => {
    const res = await post('/v1/messages', { model: 'test-claude', max_tokens: 16, messages: [{ role: 'user', content: 'x' }] }, MESSAGES_KEY)
    expect(res.status).toBe(400)
    expect(await res.json()).toEqual({ type: 'error', error: { type: 'invalid_request_error', message: redactedLeak('') } })
    const stream = await post('/v1/messages', { model: 'test-claude', max_tokens: 16, stream: true, messages: [{ role: 'user', content: 'x' }] }, MESSAGES_KEY)
    const text = await stream.text()
    expect(text).toContain(`event: error\ndata: ${JSON.stringify({ type: 'error', error: { type: 'api_error', message: redactedLeak('') } })}\n\n`)
    expectClean('the messages stream', text)
  })

  it('video: a refused submission (unified and native paths) and its stored task are redacted', async () => {
    const res = await post('/v1/video/generate', { model: WAN, prompt: 'refuse' })
    expect(res.status).toBe(400)
    expect(await res.json()).toEqual({ error: { message: redactedLeak('Bearer '), type: 'invalid_request_error', param: null, code: 'InvalidParameter', upstream: upstreamNote('vendor_refused', 400) } })
    const native = await post('/api/v1/services/aigc/video-generation/video-synthesis', { model: WAN, input: { prompt: 'refuse' } }, TEST_KEY, { 'x-dashscope-async': 'enable' })
    expect(native.status).toBe(400)
    expect(await native.json()).toEqual({ request_id: native.headers.get('x-request-id'), code: 'InvalidParameter', message: redactedLeak('Bearer ') })
    const failed = (await gw.services.store.tasks.recent('video', 10)).filter((t) => t.status === 'failed')
    expect(failed.map((t) => JSON.parse(t.error!))).toEqual([
      { code: 'InvalidParameter', message: redactedLeak('Bearer ') },
      { code: 'InvalidParameter', message: redactedLeak('Bearer ') },
    ])
  })

  it('video: a task the vendor fails with its secrets in the words is stored and shown redacted', async () => {
    const res = await post('/v1/video/generate', { model: WAN, prompt: 'a kite', duration: 5 })
    expect(res.status).toBe(202)
    const { task_id: id } = (await res.json()) as { task_id: string }
    let view: Record<string, any> = {}
    for (let i = 0; i < 200 && view.status !== 'failed'; i++) {
      await new Promise((r) => setTimeout(r, 25))
      view = (await (await get(`/v1/video/tasks/${id}`)).json()) as Record<string, any>
    }
    expect(view.error).toEqual({ code: 'DataInspectionFailed', message: redactedLeak('Bearer ') })
    const native = (await (await get(`/api/v1/tasks/${id}`)).json()) as { output: Record<string, unknown> }
    expect(native.output).toMatchObject({ task_status: 'FAILED', code: 'DataInspectionFailed', message: redactedLeak('Bearer ') })
    expect(JSON.parse((await gw.services.store.tasks.get(id))!.error!)).toEqual({ code: 'DataInspectionFailed', message: redactedLeak('Bearer ') })
    // The failed first poll was logged, with the vendor's words redacted.
    expect(logs.some((l) => l.includes(`video task ${id}: poll failed`) && l.includes(redactedLeak('Bearer ')))).toBe(true)
  })

  it('the ledger, the stored tasks, every table of the store and every log line hold none of the secrets', async () => {
    const ledger = (await gw.services.store.ledger.recent(null, 100))
    expect(ledger.some((r) => r.error_code === '[redacted]')).toBe(true)
    expectClean('the ledger', JSON.stringify(ledger))
    expectClean('the tasks', JSON.stringify((await gw.services.store.tasks.recent('video', 100))))
    expectClean('the store', await storeText(gw.services.store.sql))
    expectClean('the log', logs.join('\n'))
    expectClean('stderr', stderr.join(''))
  })

  it('a new upstream secret is redacted as soon as the account is saved (registry reload)', async () => {
    const admin = (method: string, path: string, body: unknown) =>
      fetch(`${gw.url}${path}`, { method, headers: { authorization: `Bearer ${gw.adminToken}`, 'content-type': 'application/json' }, body: JSON.stringify(body) })
    expect((await admin('PATCH', '/admin/v1/upstreams/leaky', { apiKey: ROTATED_KEY })).status).toBe(200)
    const res = await chat('status-400')
    expect(res.status).toBe(400)
    expect(await res.json()).toEqual({ error: { message: redactedLeak('Bearer '), type: 'invalid_request_error', param: null, code: '[redacted]', upstream: upstreamNote('vendor_refused', 400) } })
    expectClean('the log', logs.join('\n'))
  })
})

describe('gateway keys: keyed hashes', () => {
  const dirs: Array<{ dir: string; remove(): void }> = []
  const gateways: RunningGateway[] = []
  afterEach(async () => {
    await Promise.all(gateways.splice(0).map((g) => g.close(1_000)))
    for (const d of dirs.splice(0)) d.remove()
  })
  const start = async (dir: string, config: GatewayConfig) => {
    const gw = await startGatewayOnTestStore({ dataDir: dir, config, port: 0, log: () => {} })
    gateways.push(gw)
    return gw
  }
  const newDir = () => {
    const d = tempDataDir()
    dirs.push(d)
    return d.dir
  }
  const models = (gw: RunningGateway, key: string) => fetch(`${gw.url}/v1/models`, { headers: { authorization: `Bearer ${key}` } })
  const config = chatConfig([{ id: 'up', baseUrl: 'http://127.0.0.1:9' }])

  it('two installs hash the same key differently, and neither stores its plain SHA-256', async () => {
    const [a, b] = [await start(newDir(), config), await start(newDir(), config)]
    const rowOf = async (gw: RunningGateway) => (await gw.services.store.apiKeys.all()).find((k) => k.name === 'test')!
    expect((await rowOf(a)).hash).not.toBe((await rowOf(b)).hash)
    expect((await rowOf(a)).id).not.toBe((await rowOf(b)).id)
    for (const gw of [a, b]) {
      expect((await rowOf(gw)).hash).not.toBe(legacyKeyHash(TEST_KEY))
      expect((await rowOf(gw)).hash).toBe(gw.services.registry.keyHasher.hash(TEST_KEY))
      expect((await gw.services.store.meta.get('key_hash_secret'))).toMatch(/^v1:/) // sealed by the SecretBox
      expect((await models(gw, TEST_KEY)).status).toBe(200)
    }
  })
})
