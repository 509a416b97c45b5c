// Kept request and answer bodies (Settings → "Keep request and answer bodies") and replays of them on another account
// or model. Runs on SQLite (node) and on PostgreSQL (node-pg).
import { createHash } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { BODY_LIMITS, type CapturedExchange, type RequestLogEntry } from '../../shared/admin.js'
import { startFakeOpenAI } from '../fakes/openai.js'
import { chatConfig, TEST_KEY, TEST_STORE, withGateway } from '../helpers/gateway.js'
import { storeText } from '../helpers/store-text.js'
import { walkDir } from '../helpers/walk-dir.js'
import { adminClient, apiError } from './admin/admin-helpers.js'

const PNG_1PX = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=='
const PNG_BYTES = Buffer.from(PNG_1PX, 'base64')
const UPSTREAM_KEYS = ['upstream-secret-a', 'upstream-secret-b']

const { gw, fakes } = withGateway({
  fakes: { a: () => startFakeOpenAI(), b: () => startFakeOpenAI() },
  resetFakes: true,
  config: ({ a, b }) => {
    const base = chatConfig([{ id: 'a', baseUrl: a.url }, { id: 'b', baseUrl: b.url }])
    return {
      ...base,
      models: [
        ...base.models!,
        { id: 'test-gpt-mini', family: 'gpt', vendor: 'openai', pricing: { unit: 'token', input: 0.5, output: 1 }, limits: { maxOutputTokens: 4096 } },
        { id: 'test-tts', family: 'tts', vendor: 'openai', pricing: { unit: 'character', price: 15 } },
      ],
      groups: [{ id: 'main', protocol: 'chat', models: ['test-gpt', 'test-gpt-mini', 'test-tts'], upstreams: ['a', 'b'] }, ...base.groups!.slice(1)],
    }
  },
})

const admin = () => adminClient(gw)
const keep = (bodies: { keep: boolean; keepMedia: boolean; count: number }) => admin().put('/admin/v1/settings', { port: 8787, language: 'en', bodies })

async function chat(body: Record<string, unknown>, headers: Record<string, string> = {}) {
  const res = await gw.post('/v1/chat/completions', { model: 'test-gpt', ...body }, headers)
  const text = await res.text()
  return { status: res.status, id: res.headers.get('x-request-id')!, text }
}

const kept = async (id: string) => {
  const res = await admin().get(`/admin/v1/requests/${id}/body`)
  return { status: res.status, json: res.json as CapturedExchange }
}

const logEntry = async (id: string) => (await admin().get(`/admin/v1/requests?id=${id}`)).json.data[0] as RequestLogEntry

describe('keeping bodies', () => {
  it('is off by default headless: nothing is kept, and the settings say so', async () => {
    const settings = await admin().get('/admin/v1/settings')
    expect(settings.json.bodies).toEqual({ keep: false, keepMedia: false, count: BODY_LIMITS.defaultCount })
    const { status, id } = await chat({ messages: [{ role: 'user', content: 'hi' }] })
    expect(status).toBe(200)
    const res = await admin().get(`/admin/v1/requests/${id}/body`)
    expect(res.status).toBe(404)
    expect(res.json).toEqual(apiError('not_found', `No request body "${id}"`, null, 'not_found_error'))
  })

  it('keeps the request as parsed and the JSON answer, credential headers redacted and images described', async () => {
    expect((await keep({ keep: true, keepMedia: false, count: 50 })).status).toBe(200)
    const image = `data:image/png;base64,${PNG_1PX}`
    const { status, id } = await chat(
      { messages: [{ role: 'user', content: [{ type: 'text', text: 'what is this?' }, { type: 'image_url', image_url: { url: image } }] }] },
      { cookie: 'session=abc123', 'x-custom-token': 'tok-zzz', 'x-trace': 'visible' },
    )
    expect(status).toBe(200)
    const { status: found, json } = await kept(id)
    expect(found).toBe(200)
    expect(json.requestId).toBe(id)
    expect(json.replayOf).toBeNull()
    expect(json.request.method).toBe('POST')
    expect(json.request.path).toBe('/v1/chat/completions')
    expect(json.request.headers.authorization).toBe('[redacted]')
    expect(json.request.headers.cookie).toBe('[redacted]')
    expect(json.request.headers['x-custom-token']).toBe('[redacted]')
    expect(json.request.headers['x-trace']).toBe('visible')
    expect(json.request.body).toEqual({
      model: 'test-gpt',
      messages: [{ role: 'user', content: [
        { type: 'text', text: 'what is this?' },
        { type: 'image_url', image_url: { url: { stripped: 'media', type: 'image/png', bytes: PNG_BYTES.length, sha256: createHash('sha256').update(PNG_BYTES).digest('hex') } } },
      ] }],
    })
    expect(json.answer.kind).toBe('json')
    expect(json.answer.status).toBe(200)
    expect(json.answer.truncated).toBe(false)
    expect((json.answer.body as any).choices[0].message.content).toBe('Hello from the fake upstream.')
    expect(json.timings.firstByteMs).toBeGreaterThan(0)
    expect(json.timings.queueMs).toBeGreaterThanOrEqual(0)
    expect(json.timings.firstTokenMs).toBeNull()
    expect(json.timings.totalMs).toBeGreaterThanOrEqual(json.timings.firstByteMs!)
  })

  it('leaves out the calls that call no model: model lists, usage reads, quotes', async () => {
    await keep({ keep: true, keepMedia: false, count: 50 })
    const quote = await gw.post('/v1/quote', { endpoint: '/v1/chat/completions', request: { model: 'test-gpt', messages: [{ role: 'user', content: 'hi' }] } })
    expect(quote.status).toBe(200)
    const models = await gw.get('/v1/models')
    expect(models.status).toBe(200)
    for (const res of [quote, models]) expect((await kept(res.headers.get('x-request-id')!)).status).toBe(404)
  })

  it('keeps images when "keep media" is on', async () => {
    await keep({ keep: true, keepMedia: true, count: 50 })
    const image = `data:image/png;base64,${PNG_1PX}`
    const { id } = await chat({ messages: [{ role: 'user', content: [{ type: 'image_url', image_url: { url: image } }] }] })
    const { json } = await kept(id)
    expect((json.request.body as any).messages[0].content[0].image_url.url).toBe(image)
  })

  it('keeps a stream as its events with their arrival times', async () => {
    await keep({ keep: true, keepMedia: false, count: 50 })
    const { status, id } = await chat({ stream: true, messages: [{ role: 'user', content: 'stream please' }] })
    expect(status).toBe(200)
    const { json } = await kept(id)
    expect(json.answer.kind).toBe('sse')
    const events = json.answer.events!
    expect(events.at(-1)!.data).toBe('[DONE]')
    const text = events.slice(0, -1).map((e: any) => e.data.choices?.[0]?.delta?.content ?? '').join('')
    expect(text).toBe('Hello from the fake upstream.')
    for (let i = 1; i < events.length; i++) expect(events[i].at).toBeGreaterThanOrEqual(events[i - 1].at)
    expect(json.timings.firstTokenMs).toBe(events[0].at)
  })

  it('keeps audio answers as their type, size and hash', async () => {
    await keep({ keep: true, keepMedia: false, count: 50 })
    const res = await gw.post('/v1/audio/speech', { model: 'test-tts', input: 'Say it', voice: 'alloy' })
    expect(res.status).toBe(200)
    const audio = Buffer.from(await res.arrayBuffer())
    const { json } = await kept(res.headers.get('x-request-id')!)
    expect(json.answer).toEqual({
      status: 200, contentType: 'audio/mpeg', kind: 'binary', truncated: false, bytes: audio.length,
      body: { omitted: 'binary', type: 'audio/mpeg', bytes: audio.length, sha256: createHash('sha256').update(audio).digest('hex') },
    })
    expect(json.request.body).toEqual({ model: 'test-tts', input: 'Say it', voice: 'alloy' })
  })

  it('bounds each body: a request past the bound is kept as its size and hash', async () => {
    await keep({ keep: true, keepMedia: false, count: 50 })
    const long = 'word '.repeat(Math.ceil(BODY_LIMITS.requestBytes / 5) + 10)
    const { id } = await chat({ messages: [{ role: 'user', content: long }], max_tokens: 5 })
    const { json } = await kept(id)
    const sent = await gw.services.store.requestBodies.get(id)
    expect(json.request.body).toMatchObject({ omitted: 'too_large', type: 'application/json' })
    expect((json.request.body as any).bytes).toBeGreaterThan(BODY_LIMITS.requestBytes)
    expect(sent!.bytes).toBeLessThan(BODY_LIMITS.requestBytes)
  })

  it('keeps the newest N only', async () => {
    await keep({ keep: true, keepMedia: false, count: 3 })
    const ids: string[] = []
    for (let i = 0; i < 5; i++) ids.push((await chat({ messages: [{ role: 'user', content: `n${i}` }] })).id)
    const statuses = []
    for (const id of ids) statuses.push((await kept(id)).status)
    expect(statuses).toEqual([404, 404, 200, 200, 200])
  })

  it('erases a body with its ledger row, and forgets one on request', async () => {
    await keep({ keep: true, keepMedia: false, count: 50 })
    const first = await chat({ messages: [{ role: 'user', content: 'erase me' }] })
    const second = await chat({ messages: [{ role: 'user', content: 'forget me' }] })
    expect((await kept(first.id)).status).toBe(200)
    await gw.services.store.ledger.flush()
    await gw.services.store.sql.run('DELETE FROM requests WHERE id = ?', [first.id])
    expect((await kept(first.id)).status).toBe(404)
    expect((await admin().del(`/admin/v1/requests/${second.id}/body`)).status).toBe(204)
    expect((await kept(second.id)).status).toBe(404)
    expect(await logEntry(second.id)).toMatchObject({ id: second.id, status: 200 })
  })

  it('never stores a key: every stored byte is free of the client key and the upstream keys', async () => {
    await keep({ keep: true, keepMedia: true, count: 50 })
    // Keys in every place a client may put them: headers, the prompt, a stream.
    await chat({ messages: [{ role: 'user', content: `my key is ${TEST_KEY} and theirs ${UPSTREAM_KEYS.join(' ')}` }] }, { 'x-api-key': TEST_KEY, 'api-key': TEST_KEY })
    await chat({ stream: true, messages: [{ role: 'user', content: `again ${TEST_KEY}` }] })
    await gw.services.capture.flush()
    await gw.services.store.ledger.flush()
    const rows = await gw.services.store.sql.all<{ request: string }>('SELECT request FROM request_bodies')
    expect(rows.some((r) => r.request.includes('my key is [redacted]'))).toBe(true)
    const secrets = [TEST_KEY, ...UPSTREAM_KEYS]
    const stored = await storeText(gw.services.store.sql)
    for (const secret of secrets) expect(stored.includes(secret), secret).toBe(false)
    const files = walkDir(gw.dataDir).filter((e) => !e.dir)
    for (const file of files) {
      expect(file.mode & 0o077, file.path).toBe(0)
      if (TEST_STORE === 'sqlite') {
        const bytes = readFileSync(join(gw.dataDir, file.path)).toString('latin1')
        for (const secret of secrets) expect(bytes.includes(secret), `${file.path}: ${secret}`).toBe(false)
      }
    }
  })
})

describe('replay', () => {
  it('sends a kept request again on another account: quoted, billed, marked', async () => {
    await keep({ keep: true, keepMedia: false, count: 50 })
    const original = await chat({ messages: [{ role: 'user', content: 'replay me' }] })
    expect(fakes.a.calls.length).toBe(1)
    const before = (await admin().get('/admin/v1/account')).json.spent as number
    const res = await admin().post(`/admin/v1/requests/${original.id}/replay`, { account: 'b' })
    expect(res.status).toBe(200)
    expect(res.json.replayOf).toBe(original.id)
    expect(res.json.quote).toMatchObject({ object: 'quote', currency: 'USD' })
    const replay = res.json.replay as RequestLogEntry
    expect(replay).toMatchObject({ replayOf: original.id, upstream: 'b', model: 'test-gpt', status: 200, endpoint: 'chat.completions' })
    expect(replay.cost).toBeGreaterThan(0)
    expect(fakes.b.calls.length).toBe(1)
    expect(fakes.b.calls[0].body.messages).toEqual([{ role: 'user', content: 'replay me' }])
    expect(fakes.b.calls[0].headers.authorization).toBe('Bearer upstream-secret-b')
    expect(await logEntry(replay.id)).toMatchObject({ id: replay.id, replayOf: original.id })
    expect(await logEntry(original.id)).not.toHaveProperty('replayOf')
    const after = (await admin().get('/admin/v1/account')).json.spent as number
    expect(after).toBeCloseTo(before + replay.cost, 9)
    const replayBody = await kept(replay.id)
    expect(replayBody.json.replayOf).toBe(original.id)
    expect(replayBody.json.request.headers['x-gatehouse-replay']).toBe('[redacted]')
  })

  it('sends a kept request again to another model of the group, priced at that model', async () => {
    await keep({ keep: true, keepMedia: false, count: 50 })
    const original = await chat({ messages: [{ role: 'user', content: 'which model?' }] })
    const res = await admin().post(`/admin/v1/requests/${original.id}/replay`, { model: 'test-gpt-mini' })
    expect(res.status).toBe(200)
    const replay = res.json.replay as RequestLogEntry
    expect(replay).toMatchObject({ replayOf: original.id, model: 'test-gpt-mini', status: 200 })
    const originalEntry = await logEntry(original.id)
    // Same tokens, a quarter of the input price and an eighth of the output price.
    expect(replay.inputTokens).toBe(originalEntry.inputTokens)
    expect(replay.cost).toBeCloseTo((replay.inputTokens! * 0.5 + replay.outputTokens! * 1) / 1e6, 9)
    expect(fakes.a.calls.at(-1)!.body.model).toBe('test-gpt-mini')
  })

  it('goes through admission like any request: a budget too small for its worst case refuses it (402), and the refusal is logged as a replay', async () => {
    await keep({ keep: true, keepMedia: false, count: 50 })
    const original = await chat({ messages: [{ role: 'user', content: 'budget me' }] })
    // A budget counts spending anew from when it is set.
    expect((await admin().patch('/admin/v1/account', { budget: 0.001 })).status).toBe(200)
    const calls = fakes.a.calls.length + fakes.b.calls.length
    const res = await admin().post(`/admin/v1/requests/${original.id}/replay`, {})
    await admin().patch('/admin/v1/account', { budget: 100 })
    expect(res.status).toBe(402)
    expect(res.json.error).toMatchObject({ code: 'insufficient_quota', type: 'insufficient_quota' })
    // The quote's worst case (the prompt and test-gpt's 4,096 output tokens) against what is left of the budget.
    expect(res.json.error.message).toMatch(/^This request could cost up to 0\.032776 USD, and 0\.001 USD is left of the account's budget \(less what requests under way hold\)\. A lower max_tokens fits: at most \d+\.$/)
    expect(fakes.a.calls.length + fakes.b.calls.length).toBe(calls)
    const [row] = await gw.services.store.requestLog.page({ limit: 1, endpoint: 'chat.completions' })
    expect(row).toMatchObject({ replay_of: original.id, status: 402, cost_nano: 0 })
  })

  it('refuses an account that does not serve the model, media not kept, and a request with no kept body', async () => {
    await keep({ keep: true, keepMedia: false, count: 50 })
    const original = await chat({ messages: [{ role: 'user', content: 'pin me' }] })
    const unknown = await admin().post(`/admin/v1/requests/${original.id}/replay`, { account: 'nope' })
    expect(unknown.status).toBe(400)
    expect(unknown.json).toEqual(apiError('invalid_request', 'Account "nope" does not serve model "test-gpt" in group "main"'))

    const withImage = await chat({ messages: [{ role: 'user', content: [{ type: 'image_url', image_url: { url: `data:image/png;base64,${PNG_1PX}` } }] }] })
    const stripped = await admin().post(`/admin/v1/requests/${withImage.id}/replay`, {})
    expect(stripped.status).toBe(409)
    expect(stripped.json).toEqual(apiError('conflict', `Request "${withImage.id}" cannot be replayed: its images or audio were not kept (turn on "Keep media" in Settings)`))

    await keep({ keep: false, keepMedia: false, count: 50 })
    const notKept = await chat({ messages: [{ role: 'user', content: 'not kept' }] })
    const missing = await admin().post(`/admin/v1/requests/${notKept.id}/replay`, {})
    expect(missing.status).toBe(404)
    expect(missing.json).toEqual(apiError('not_found', `Request "${notKept.id}" cannot be replayed: its body was not kept (turn on "Keep request and answer bodies" in Settings)`, null, 'not_found_error'))

    const none = await admin().post('/admin/v1/requests/req_none/replay', {})
    expect(none.status).toBe(404)
    expect(none.json).toEqual(apiError('not_found', 'No request "req_none"', null, 'not_found_error'))

    const bad = await admin().post(`/admin/v1/requests/${original.id}/replay`, { account: 5 })
    expect(bad.status).toBe(400)
  })
})
