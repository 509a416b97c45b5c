// Every operation of /openapi.json, called for real: each answer's status must be documented for its operation
// and its body must validate against the documented schema (test/helpers/openapi-conformance.ts). The integration
// tests' own requests through the test helpers' post/get are checked the same way.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { ROUTES } from '../../electron/gateway/routes/index.js'
import { startFakeAnthropic } from '../fakes/anthropic.js'
import { startFakeGateway } from '../fakes/gateway.js'
import { makePng } from '../fakes/images/image-bytes.js'
import { startFakeOpenAI } from '../fakes/openai.js'
import { TEST_KEY, withGateway } from '../helpers/gateway.js'
import { assertConforms, operationOf } from '../helpers/openapi-conformance.js'

const MESSAGES_KEY = 'sk-messages-conformance-0123'
const BROKE_KEY = 'sk-broke-conformance-0123456'
const UPSTREAM_KEY = 'sk-upstream-conformance-0123'
const SEEDANCE = 'doubao-seedance-2-0-260128'
const WAN = 'wan2.7-t2v'
const NATIVE = '/api/v1/services/aigc/video-generation/video-synthesis'

/** "METHOD /doc/path status" of every answer checked */
const seen = new Set<string>()

const { gw, fakes: { openai, anthropic, hosted } } = withGateway({
  fakes: { openai: startFakeOpenAI, anthropic: startFakeAnthropic, hosted: () => startFakeGateway({ apiKey: UPSTREAM_KEY }) },
  config: ({ openai, anthropic, hosted }) => ({
    account: { balance: 50 },
    models: [
      // Output limits, as every real model has: a request without max_tokens holds its model's as its worst case.
      { id: 'test-gpt', family: 'gpt', vendor: 'openai', pricing: { unit: 'token', input: 1, output: 2 }, limits: { maxOutputTokens: 4096 } },
      { id: 'test-tts', family: 'tts', vendor: 'openai', pricing: { unit: 'character', price: 15 } },
      { id: 'test-claude', family: 'claude', vendor: 'anthropic', pricing: { unit: 'token', input: 1, output: 2 }, limits: { maxOutputTokens: 4096 } },
    ],
    upstreams: [
      { id: 'oa', vendor: 'openai', baseUrl: openai.url, apiKey: 'k-oa', models: ['test-gpt', 'test-tts'] },
      { id: 'an', vendor: 'anthropic', baseUrl: anthropic.url, apiKey: 'k-an' },
      { id: 'hosted', vendor: 'gateway', baseUrl: hosted.url, apiKey: UPSTREAM_KEY, models: ['gpt-image-2', SEEDANCE, WAN, 'gemini-omni-1.2-flash'] },
    ],
    groups: [
      { id: 'main', protocol: 'chat', models: ['test-gpt', 'test-tts', 'gpt-image-2', SEEDANCE, WAN, 'gemini-omni-1.2-flash'], upstreams: ['oa', 'hosted'] },
      { id: 'msgs', protocol: 'messages', models: ['test-claude'], upstreams: ['an'] },
    ],
    keys: [{ key: TEST_KEY, group: 'main' }, { key: MESSAGES_KEY, group: 'msgs' }, { key: BROKE_KEY, group: 'main', quota: 0 }],
  } as never),
  options: { videoPoll: { intervalMs: 15, maxIntervalMs: 40, timeoutMs: 1_000 } },
})

const json = { 'content-type': 'application/json' }
const bearer = (key: string) => ({ authorization: `Bearer ${key}` })

/** Calls the gateway, checks the answer against the document, and returns it with its status. */
async function call(method: string, path: string, init: { headers?: Record<string, string>; body?: unknown } = {}): Promise<Response> {
  const body = init.body === undefined || typeof init.body === 'string' || Buffer.isBuffer(init.body) ? init.body : JSON.stringify(init.body)
  const res = await fetch(`${gw.url}${path}`, { method, headers: init.headers, body: body as BodyInit | undefined, redirect: 'manual' })
  await assertConforms(method, `${gw.url}${path}`, res)
  const op = operationOf(method, path)
  if (op) seen.add(`${method} ${op.path} ${res.status}`)
  return res
}
async function expectStatus(status: number, method: string, path: string, init: { headers?: Record<string, string>; body?: unknown } = {}) {
  const res = await call(method, path, init)
  expect(`${method} ${path} → ${res.status}`).toBe(`${method} ${path} → ${status}`)
  return res
}

const chat = { model: 'test-gpt', messages: [{ role: 'user', content: 'hi' }] }

describe('the public API answers as documented', () => {
  it('chat, responses, speech, models, usage and the public documents', async () => {
    const key = { ...json, ...bearer(TEST_KEY) }
    await expectStatus(200, 'POST', '/v1/chat/completions', { headers: key, body: chat })
    await expectStatus(400, 'POST', '/v1/chat/completions', { headers: key, body: { model: 'test-gpt' } })
    await expectStatus(400, 'POST', '/v1/chat/completions', { headers: key, body: '{"model":' })
    await expectStatus(401, 'POST', '/v1/chat/completions', { headers: json, body: chat })
    await expectStatus(402, 'POST', '/v1/chat/completions', { headers: { ...json, ...bearer(BROKE_KEY) }, body: chat })
    await expectStatus(404, 'POST', '/v1/chat/completions', { headers: key, body: { ...chat, model: 'no-such-model' } })
    // A 500 once is retried on the same account: twice, and the gateway answers 502.
    openai.once({ kind: 'status', status: 500 }, { kind: 'status', status: 500 })
    await expectStatus(502, 'POST', '/v1/chat/completions', { headers: key, body: chat })
    await expectStatus(200, 'POST', '/v1/responses', { headers: key, body: { model: 'test-gpt', input: 'hi' } })
    await expectStatus(400, 'POST', '/v1/responses', { headers: key, body: { input: 'hi' } })
    await expectStatus(200, 'POST', '/v1/audio/speech', { headers: key, body: { model: 'test-tts', input: 'hello', voice: 'alloy' } })
    await expectStatus(400, 'POST', '/v1/audio/speech', { headers: key, body: { model: 'test-tts', input: 'hello' } })
    await expectStatus(200, 'GET', '/v1/models', { headers: bearer(TEST_KEY) })
    await expectStatus(200, 'GET', '/v1/models/test-gpt', { headers: bearer(TEST_KEY) })
    await expectStatus(404, 'GET', '/v1/models/no-such-model', { headers: bearer(TEST_KEY) })
    await expectStatus(200, 'GET', '/v1/usage', { headers: bearer(TEST_KEY) })
    await expectStatus(401, 'GET', '/v1/usage', { headers: { 'x-api-key': TEST_KEY } })
    await expectStatus(200, 'POST', '/v1/quote', { headers: key, body: { endpoint: '/v1/chat/completions', request: chat } })
    await expectStatus(200, 'POST', '/v1/quote', { headers: { ...json, ...bearer(BROKE_KEY) }, body: { endpoint: '/v1/audio/speech', request: { model: 'test-tts', input: 'hello', voice: 'alloy' } } })
    await expectStatus(400, 'POST', '/v1/quote', { headers: key, body: { endpoint: '/v1/chat/completions', request: { model: 'test-gpt' } } })
    await expectStatus(401, 'POST', '/v1/quote', { headers: json, body: { endpoint: '/v1/chat/completions', request: chat } })
    await expectStatus(404, 'POST', '/v1/quote', { headers: key, body: { endpoint: '/v1/chat/completions', request: { ...chat, model: 'no-such-model' } } })
    await expectStatus(200, 'GET', '/api/v1/models/pricing')
    await expectStatus(200, 'GET', '/spec/models/index.json')
    await expectStatus(200, 'GET', '/openapi.json')
    await expectStatus(403, 'GET', '/openapi.json', { headers: { origin: 'https://evil.example' } })
    await expectStatus(200, 'GET', '/metrics', { headers: bearer(gw.adminToken) })
    await expectStatus(401, 'GET', '/metrics', { headers: bearer(TEST_KEY) })
    await expectStatus(403, 'GET', '/metrics', { headers: { ...bearer(gw.adminToken), origin: 'https://evil.example' } })
  })

  it('messages and count_tokens, with the messages envelope', async () => {
    const key = { ...json, ...bearer(MESSAGES_KEY) }
    const message = { model: 'test-claude', max_tokens: 64, messages: [{ role: 'user', content: 'hi' }] }
    await expectStatus(200, 'POST', '/v1/messages', { headers: key, body: message })
    await expectStatus(400, 'POST', '/v1/messages', { headers: key, body: { model: 'test-claude' } })
    await expectStatus(404, 'POST', '/v1/messages', { headers: { ...json, ...bearer(TEST_KEY) }, body: message })
    await expectStatus(200, 'POST', '/v1/messages/count_tokens', { headers: key, body: { model: 'test-claude', messages: message.messages } })
    await expectStatus(401, 'POST', '/v1/messages/count_tokens', { headers: json, body: {} })
  })

  it('interactions, images (sync, async, multipart) and their task', async () => {
    const key = { ...json, ...bearer(TEST_KEY) }
    await expectStatus(200, 'POST', '/v1beta/interactions', { headers: key, body: { model: 'gemini-omni-1.2-flash', input: 'hi' } })
    await expectStatus(400, 'POST', '/v1beta/interactions', { headers: key, body: { input: 'hi' } })
    await expectStatus(200, 'POST', '/v1/images/generations', { headers: key, body: { model: 'gpt-image-2', prompt: 'a square' } })
    await expectStatus(400, 'POST', '/v1/images/generations', { headers: key, body: { model: 'gpt-image-2' } })
    const accepted = await expectStatus(202, 'POST', '/v1/images/generations', { headers: { ...key, prefer: 'respond-async' }, body: { model: 'gpt-image-2', prompt: 'a square' } })
    const { status_url: statusUrl } = (await accepted.json()) as { status_url: string }
    await expectStatus(200, 'GET', statusUrl, { headers: bearer(TEST_KEY) })
    await expectStatus(404, 'GET', '/v1/images/tasks?task_id=task_nope', { headers: bearer(TEST_KEY) })
    await expectStatus(400, 'GET', '/v1/images/tasks', { headers: bearer(TEST_KEY) })
    const form = new FormData()
    form.append('model', 'gpt-image-2')
    form.append('prompt', 'make it blue')
    form.append('image[]', new Blob([new Uint8Array(makePng(16, 16))], { type: 'image/png' }), 'a.png')
    const edit = await fetch(`${gw.url}/v1/images/edits`, { method: 'POST', headers: bearer(TEST_KEY), body: form })
    await assertConforms('POST', '/v1/images/edits', edit)
    seen.add(`POST /v1/images/edits ${edit.status}`)
    expect(edit.status).toBe(200)
    await expectStatus(400, 'POST', '/v1/images/edits', { headers: key, body: { model: 'gpt-image-2', prompt: 'x' } })
  })

  it('video on both paths, its task, its content, and the native error envelope', async () => {
    const key = { ...json, ...bearer(TEST_KEY) }
    const body = { model: SEEDANCE, prompt: 'a kite', duration: 5, resolution: '720p' }
    const created = await expectStatus(202, 'POST', '/v1/video/generate', { headers: { ...key, 'idempotency-key': 'conf-1' }, body })
    await expectStatus(200, 'POST', '/v1/video/generate', { headers: { ...key, 'idempotency-key': 'conf-1' }, body })
    await expectStatus(422, 'POST', '/v1/video/generate', { headers: { ...key, 'idempotency-key': 'conf-1' }, body: { ...body, duration: 6 } })
    await expectStatus(400, 'POST', '/v1/video/generate', { headers: key, body: { model: SEEDANCE } })
    const { task_id: id } = (await created.json()) as { task_id: string }
    await expectStatus(404, 'GET', `/v1/video/tasks/${id}/content`, { headers: bearer(TEST_KEY) })
    const deadline = Date.now() + 5_000
    let task: { result?: { videos: Array<{ content_url?: string }> } } = {}
    while (task.result?.videos[0]?.content_url === undefined && Date.now() < deadline) {
      task = (await (await expectStatus(200, 'GET', `/v1/video/tasks/${id}`, { headers: bearer(TEST_KEY) })).json()) as typeof task
      await new Promise((r) => setTimeout(r, 20))
    }
    await expectStatus(200, 'GET', `/v1/video/tasks/${id}/content`, { headers: bearer(TEST_KEY) })
    await expectStatus(206, 'GET', `/v1/video/tasks/${id}/content`, { headers: { ...bearer(TEST_KEY), range: 'bytes=0-3' } })
    await expectStatus(416, 'GET', `/v1/video/tasks/${id}/content`, { headers: { ...bearer(TEST_KEY), range: 'bytes=999999-' } })
    await expectStatus(404, 'GET', '/v1/video/tasks/task_nope', { headers: bearer(TEST_KEY) })

    const native = await expectStatus(200, 'POST', NATIVE, { headers: key, body: { model: WAN, input: { prompt: 'a kite' }, parameters: { duration: 5 } } })
    const { output } = (await native.json()) as { output: { task_id: string } }
    await expectStatus(200, 'GET', `/api/v1/tasks/${output.task_id}`, { headers: bearer(TEST_KEY) })
    await expectStatus(400, 'POST', NATIVE, { headers: key, body: { model: WAN } })
    await expectStatus(401, 'POST', NATIVE, { headers: json, body: {} })
    await expectStatus(401, 'GET', '/api/v1/tasks/x', {})
    await expectStatus(404, 'POST', NATIVE, { headers: key, body: { model: 'no-such-model', input: { prompt: 'x' } } })
  })
})

describe('the admin API and the app answer as documented', () => {
  it('every admin operation, signed in and not', async () => {
    const admin = { ...json, ...bearer(gw.adminToken) }
    await expectStatus(401, 'GET', '/admin/v1/groups')
    await expectStatus(200, 'GET', '/admin/v1/session', { headers: admin })
    const opened = await expectStatus(200, 'POST', '/admin/v1/session', { headers: admin })
    const session = { cookie: opened.headers.get('set-cookie')!.split(';')[0], 'x-gatehouse-session': ((await opened.json()) as { sessionToken: string }).sessionToken }
    await expectStatus(204, 'DELETE', '/admin/v1/session', { headers: session })
    await expectStatus(200, 'GET', '/admin/v1/groups', { headers: admin })
    await expectStatus(201, 'POST', '/admin/v1/groups', { headers: admin, body: { id: 'extra', name: 'Extra', protocol: 'chat', models: ['test-gpt'], upstreams: ['oa'] } })
    await expectStatus(409, 'POST', '/admin/v1/groups', { headers: admin, body: { id: 'extra', name: 'Extra', protocol: 'chat', models: ['test-gpt'], upstreams: ['oa'] } })
    await expectStatus(400, 'POST', '/admin/v1/groups', { headers: admin, body: { id: 'bad' } })
    await expectStatus(200, 'PATCH', '/admin/v1/groups/extra', { headers: admin, body: { name: 'Extra 2' } })
    const appKey = await call('POST', '/admin/v1/groups/extra/app-key', { headers: admin })
    expect(appKey.status).toBe(201)
    await expectStatus(200, 'POST', '/admin/v1/groups/extra/app-key', { headers: admin })
    await expectStatus(404, 'PATCH', '/admin/v1/groups/nope', { headers: admin, body: { name: 'x' } })
    await expectStatus(200, 'GET', '/admin/v1/upstreams', { headers: admin })
    await expectStatus(201, 'POST', '/admin/v1/upstreams', { headers: admin, body: { id: 'spare', vendor: 'openai', baseUrl: openai.url, apiKey: 'k-spare' } })
    await expectStatus(200, 'PATCH', '/admin/v1/upstreams/spare', { headers: admin, body: { priority: 2 } })
    // Test connection: a model list, a refused key (both 200), no such stored account, a body that is neither
    await expectStatus(200, 'POST', '/admin/v1/upstreams/test', { headers: admin, body: { id: 'spare' } })
    await expectStatus(200, 'POST', '/admin/v1/upstreams/test', { headers: admin, body: { vendor: 'gateway', baseUrl: hosted.url, apiKey: 'k-wrong-0123456789' } })
    await expectStatus(404, 'POST', '/admin/v1/upstreams/test', { headers: admin, body: { id: 'nope' } })
    await expectStatus(400, 'POST', '/admin/v1/upstreams/test', { headers: admin, body: { id: 'spare', apiKey: 'k' } })
    await expectStatus(204, 'DELETE', '/admin/v1/upstreams/spare', { headers: admin })
    await expectStatus(200, 'GET', '/admin/v1/keys', { headers: admin })
    const created = await expectStatus(201, 'POST', '/admin/v1/keys', { headers: admin, body: { group: 'extra', name: 'temp' } })
    const keyId = ((await created.json()) as { id: string }).id
    await expectStatus(200, 'PATCH', `/admin/v1/keys/${keyId}`, { headers: admin, body: { name: 'renamed' } })
    await expectStatus(204, 'DELETE', `/admin/v1/keys/${keyId}`, { headers: admin })
    await expectStatus(200, 'GET', '/admin/v1/account', { headers: admin })
    await expectStatus(200, 'PATCH', '/admin/v1/account', { headers: admin, body: { concurrency: 5 } })
    await expectStatus(200, 'GET', '/admin/v1/requests', { headers: admin })
    await expectStatus(400, 'GET', '/admin/v1/requests?limit=0', { headers: admin })
    await expectStatus(200, 'GET', '/admin/v1/usage/summary?by=group&housekeeping=false', { headers: admin })
    await expectStatus(400, 'GET', '/admin/v1/usage/summary?since=2026-03-02&until=2026-03-01', { headers: admin })
    const tasks = (await (await expectStatus(200, 'GET', '/admin/v1/tasks', { headers: admin })).json()) as Array<{ id: string; status: string }>
    const finished = tasks.find((t) => t.status === 'succeeded')!
    await expectStatus(204, 'DELETE', `/admin/v1/tasks/${finished.id}`, { headers: admin })
    await expectStatus(404, 'DELETE', `/admin/v1/tasks/${finished.id}`, { headers: admin })
    await expectStatus(200, 'GET', '/admin/v1/settings', { headers: admin })
    await expectStatus(200, 'PUT', '/admin/v1/settings', { headers: admin, body: { port: 8787, language: 'en' } })
    await expectStatus(404, 'GET', '/admin/v1/state/chat', { headers: admin })
    await expectStatus(204, 'PUT', '/admin/v1/state/chat', { headers: admin, body: { value: { conversations: [] } } })
    await expectStatus(200, 'GET', '/admin/v1/state/chat', { headers: admin })
    // Kept bodies and replays.
    await expectStatus(200, 'PUT', '/admin/v1/settings', { headers: admin, body: { port: 8787, language: 'en', bodies: { keep: true, keepMedia: false, count: 10 } } })
    const keptCall = await expectStatus(200, 'POST', '/v1/chat/completions', { headers: { ...json, ...bearer(TEST_KEY) }, body: { model: 'test-gpt', messages: [{ role: 'user', content: 'keep me' }] } })
    const keptId = keptCall.headers.get('x-request-id')!
    await keptCall.text()
    await expectStatus(200, 'GET', `/admin/v1/requests/${keptId}/body`, { headers: admin })
    await expectStatus(200, 'POST', `/admin/v1/requests/${keptId}/replay`, { headers: admin, body: { account: 'oa' } })
    await expectStatus(400, 'POST', `/admin/v1/requests/${keptId}/replay`, { headers: admin, body: { account: 'an' } })
    await expectStatus(204, 'DELETE', `/admin/v1/requests/${keptId}/body`, { headers: admin })
    await expectStatus(404, 'GET', `/admin/v1/requests/${keptId}/body`, { headers: admin })
    await expectStatus(404, 'DELETE', `/admin/v1/requests/${keptId}/body`, { headers: admin })
    await expectStatus(404, 'POST', `/admin/v1/requests/${keptId}/replay`, { headers: admin, body: {} })
    await expectStatus(200, 'PUT', '/admin/v1/settings', { headers: admin, body: { port: 8787, language: 'en', bodies: { keep: false, keepMedia: false, count: 200 } } })
    const request = (await gw.services.store.ledger.recent(null, 1))[0].id
    const uploaded = await expectStatus(201, 'POST', `/admin/v1/media?request=${request}`, { headers: { ...bearer(gw.adminToken), 'content-type': 'image/png' }, body: makePng(8, 8) })
    const mediaId = ((await uploaded.json()) as { id: string }).id
    await expectStatus(200, 'GET', `/admin/v1/media?request=${request}`, { headers: admin })
    await expectStatus(400, 'GET', '/admin/v1/media', { headers: admin })
    await expectStatus(200, 'GET', `/admin/v1/media/${mediaId}`, { headers: admin })
    await expectStatus(206, 'GET', `/admin/v1/media/${mediaId}`, { headers: { ...admin, range: 'bytes=0-3' } })
    await expectStatus(404, 'GET', '/admin/v1/media/nope', { headers: admin })
    await expectStatus(200, 'GET', `/admin/v1/media-copies?request=${request}`, { headers: admin })
    await expectStatus(400, 'GET', '/admin/v1/media-copies', { headers: admin })
    await expectStatus(404, 'POST', `/admin/v1/media-copies/retry?request=${request}`, { headers: admin })
    await expectStatus(400, 'POST', '/admin/v1/linked-image', { headers: admin, body: { url: 'file:///etc/passwd' } })
    const settings = (await (await expectStatus(200, 'GET', '/admin/v1/model-settings', { headers: admin })).json()) as Array<{ model: string }>
    const someModel = encodeURIComponent(settings[0].model)
    await expectStatus(200, 'PATCH', `/admin/v1/model-settings/${someModel}`, { headers: admin, body: { fallbacks: [] } })
    await expectStatus(400, 'PATCH', `/admin/v1/model-settings/${someModel}`, { headers: admin, body: { fallbacks: [{ model: settings[0].model, on: ['unavailable'] }] } })
    await expectStatus(404, 'PATCH', '/admin/v1/model-settings/no-such-model', { headers: admin, body: { fallbacks: [] } })
    await expectStatus(204, 'DELETE', '/admin/v1/groups/extra', { headers: admin })
    await expectStatus(404, 'DELETE', '/admin/v1/groups/extra', { headers: admin })
  })

  it('Connect tools: overview, dry run, connect, refusals, undo and disconnect', async () => {
    // The tools' homes of this test, never the machine's own.
    const homes = mkdtempSync(join(tmpdir(), 'gatehouse-conformance-tools-'))
    Object.assign(process.env, { CLAUDE_CONFIG_DIR: join(homes, 'claude'), CODEX_HOME: join(homes, 'codex'), HOME: homes })
    const admin = { ...json, ...bearer(gw.adminToken) }
    await expectStatus(200, 'GET', '/admin/v1/connect', { headers: admin })
    await expectStatus(200, 'POST', '/admin/v1/connect/claude-code', { headers: admin, body: { group: 'msgs', dryRun: true } })
    await expectStatus(201, 'POST', '/admin/v1/connect/claude-code', { headers: admin, body: { group: 'msgs' } })
    await expectStatus(409, 'POST', '/admin/v1/connect/claude-code', { headers: admin, body: {} })
    await expectStatus(400, 'POST', '/admin/v1/connect/codex', { headers: admin, body: { group: 'msgs' } })
    await expectStatus(400, 'POST', '/admin/v1/connect/gemini-cli', { headers: admin, body: {} })
    await expectStatus(404, 'POST', '/admin/v1/connect/vim', { headers: admin, body: {} })
    await expectStatus(200, 'POST', '/admin/v1/connect/claude-code/undo', { headers: admin, body: { dryRun: true } })
    await expectStatus(200, 'POST', '/admin/v1/connect/claude-code/disconnect', { headers: admin, body: {} })
    await expectStatus(409, 'POST', '/admin/v1/connect/claude-code/undo', { headers: admin, body: {} })
    rmSync(homes, { recursive: true, force: true })
  })

  it('the app, its files and the one-time sign-in address, including their HTML error pages', async () => {
    const app = await call('GET', '/')
    expect([200, 503]).toContain(app.status)
    await expectStatus(404, 'GET', '/assets/no-such-file.js')
    const login = new URL(await gw.loginUrl())
    await expectStatus(303, 'GET', login.pathname + login.search)
    await expectStatus(401, 'GET', '/admin/login?code=made-up')
  })
})

it('every documented operation was called', () => {
  const called = new Set([...seen].map((s) => s.split(' ').slice(0, 2).join(' ')))
  const missing = ROUTES.map((r) => `${r.method} ${r.docPath ?? String(r.path)}`).filter((op) => !called.has(op))
  expect(missing).toEqual([])
})
