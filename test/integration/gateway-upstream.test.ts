// An upstream of vendor `gateway` (another gateway of this interface) carries every endpoint of it, not only chat:
// images (JSON, multipart, SSE, async tasks), video (both submission paths, polled on the upstream gateway) and
// interactions; paths and bodies go unchanged with the account's own key, and billing follows what it reports.
import { describe, expect, it } from 'vitest'
import { FAKE_GATEWAY_PNG, FAKE_GATEWAY_SECONDS, startFakeGateway } from '../fakes/gateway.js'
import { makePng } from '../fakes/images/image-bytes.js'
import { FAKE_MP4 } from '../fakes/video/task-script.js'
import { TEST_KEY, withGateway } from '../helpers/gateway.js'
import { readSse } from '../helpers/sse.js'

const IMAGE = 'gpt-image-2'
const SEEDANCE = 'doubao-seedance-2-0-260128'
const WAN = 'wan2.7-t2v'
const OMNI = 'gemini-omni-1.2-flash'
const NATIVE = '/api/v1/services/aigc/video-generation/video-synthesis'
const UPSTREAM_KEY = 'sk-upstream-gateway-key-0123456789'

const { gw, fakes: { upstream } } = withGateway({
  fakes: { upstream: () => startFakeGateway({ apiKey: UPSTREAM_KEY }) },
  config: ({ upstream }) => ({
    account: { balance: 50 },
    upstreams: [{ id: 'hosted', vendor: 'gateway', baseUrl: upstream.url, apiKey: UPSTREAM_KEY }],
    groups: [{ id: 'main', protocol: 'chat', models: [IMAGE, SEEDANCE, WAN, OMNI], upstreams: ['hosted'] }],
    keys: [{ key: TEST_KEY, group: 'main' }],
  }),
  options: { videoPoll: { intervalMs: 15, maxIntervalMs: 40, timeoutMs: 1_000 } },
  resetFakes: true,
})

const lastCall = () => upstream.calls[upstream.calls.length - 1]
const latestLedger = async () => (await gw.services.store.ledger.recent(null, 1))[0]

async function until<T>(read: () => Promise<T>, done: (value: T) => boolean): Promise<T> {
  const deadline = Date.now() + 5_000
  for (;;) {
    const value = await read()
    if (done(value)) return value
    if (Date.now() > deadline) throw new Error(`still not done: ${JSON.stringify(value)}`)
    await new Promise((r) => setTimeout(r, 20))
  }
}
const getJson = async (path: string) => (await (await gw.get(path)).json()) as Record<string, any>

it('GET /v1/models lists every model the gateway account serves', async () => {
  const list = (await getJson('/v1/models')) as { data: Array<{ id: string }> }
  expect(list.data.map((m) => m.id).sort()).toEqual([IMAGE, SEEDANCE, WAN, OMNI].sort())
})

describe('images through a gateway account', () => {
  it('generations: the JSON body goes unchanged to the same path with the account key; billed by the tokens reported', async () => {
    const raw = JSON.stringify({ model: IMAGE, prompt: 'a red square', n: 2, size: '1024x1024', user: 'kept-as-sent' })
    const res = await gw.post('/v1/images/generations', raw)
    expect(res.status).toBe(200)
    const body = (await res.json()) as { data: Array<{ b64_json: string; mime_type: string }>; usage: object }
    expect(body.data).toEqual([1, 2].map(() => ({ b64_json: FAKE_GATEWAY_PNG.toString('base64'), mime_type: 'image/png' })))
    expect(body.usage).toEqual({ input_tokens: 12, output_tokens: 200, total_tokens: 212 })
    expect([lastCall().method, lastCall().path, lastCall().headers.authorization, lastCall().raw.toString()]).toEqual(['POST', '/v1/images/generations', `Bearer ${UPSTREAM_KEY}`, raw])
    // gpt-image-2: $5 per 1M input tokens, $30 per 1M output tokens
    expect((await latestLedger())).toMatchObject({ endpoint: 'images.generations', status: 200, upstream_id: 'hosted', input_tokens: 12, output_tokens: 200, cost_nano: 12 * 5_000 + 200 * 30_000 })
  })

  it('generations with stream: true: the upstream gateway\'s images SSE is read, and the client gets its own', async () => {
    const res = await gw.post('/v1/images/generations', { model: IMAGE, prompt: 'a red square', stream: true })
    expect(res.status).toBe(200)
    const events = (await readSse(res)).map((e) => e.data)
    expect(events.at(-1)).toBe('[DONE]')
    expect(JSON.parse(events.at(-2)!).data).toEqual([{ b64_json: FAKE_GATEWAY_PNG.toString('base64'), mime_type: 'image/png' }])
    expect(JSON.parse(lastCall().raw.toString()).stream).toBe(true)
  })

  it('edits as multipart: the body, files and boundary go byte for byte', async () => {
    const boundary = 'client-boundary-1234'
    const png = makePng(16, 16)
    const raw = Buffer.concat([
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="model"\r\n\r\n${IMAGE}\r\n`),
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="prompt"\r\n\r\nmake it blue\r\n`),
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="image[]"; filename="a.png"\r\nContent-Type: image/png\r\n\r\n`), png,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ])
    const res = await fetch(`${gw.url}/v1/images/edits`, { method: 'POST', headers: { authorization: `Bearer ${TEST_KEY}`, 'content-type': `multipart/form-data; boundary=${boundary}` }, body: raw })
    expect(res.status).toBe(200)
    expect(((await res.json()) as { data: unknown[] }).data).toHaveLength(1)
    expect(lastCall().path).toBe('/v1/images/edits')
    expect(lastCall().headers['content-type']).toBe(`multipart/form-data; boundary=${boundary}`)
    expect(lastCall().raw.equals(raw)).toBe(true)
  })

  it('edits as JSON with a data URL reference: forwarded unchanged', async () => {
    const raw = JSON.stringify({ model: IMAGE, prompt: 'make it blue', image: [`data:image/png;base64,${makePng(16, 16).toString('base64')}`] })
    const res = await gw.post('/v1/images/edits', raw)
    expect(res.status).toBe(200)
    expect([lastCall().path, lastCall().raw.toString()]).toEqual(['/v1/images/edits', raw])
  })

  it('Prefer: respond-async: 202 with a task of this gateway, polled on GET /v1/images/tasks until it holds the images', async () => {
    const res = await gw.post('/v1/images/generations', { model: IMAGE, prompt: 'a red square' }, { prefer: 'respond-async' })
    expect(res.status).toBe(202)
    const { task_id: id, status_url: statusUrl } = (await res.json()) as { task_id: string; status_url: string }
    expect(statusUrl).toBe(`/v1/images/tasks?task_id=${id}`)
    const task = await until(() => getJson(statusUrl), (t) => t.status === 'succeeded')
    expect(task.result.data).toEqual([{ b64_json: FAKE_GATEWAY_PNG.toString('base64'), mime_type: 'image/png' }])
    expect(lastCall().path).toBe('/v1/images/generations')
  })

  it('an upstream refusal is relayed with its status and message, unbilled', async () => {
    upstream.failNext({ status: 400, code: 'invalid_request', message: 'Upstream says the prompt is not allowed' })
    // Committed balances only: the earlier tests' charges may still wait in the ledger's group commit.
    const balance = async () => (await gw.services.store.ledger.flush(), (await gw.services.store.account.get()).balance_nano)
    const before = await balance()
    const res = await gw.post('/v1/images/generations', { model: IMAGE, prompt: 'a red square' })
    const body = (await res.json()) as { error: { message: string } }
    expect([res.status, body.error.message]).toEqual([400, 'Upstream says the prompt is not allowed'])
    expect(await balance()).toBe(before)
  })
})

describe('video through a gateway account', () => {
  it('POST /v1/video/generate: the body unchanged, the task polled on the upstream gateway, billed by its reported seconds', async () => {
    const raw = JSON.stringify({ model: SEEDANCE, prompt: 'a kite', duration: 5, resolution: '720p', camera_fixed: true })
    const res = await gw.post('/v1/video/generate', raw)
    expect(res.status).toBe(202)
    const { task_id: id } = (await res.json()) as { task_id: string }
    expect([lastCall().path, lastCall().headers.authorization, lastCall().raw.toString()]).toEqual(['/v1/video/generate', `Bearer ${UPSTREAM_KEY}`, raw])
    // its own Idempotency-Key: the upstream's duplicate guard never hands it a task made for another of our keys
    expect(lastCall().headers['idempotency-key']).toBe(res.headers.get('x-request-id'))
    const upstreamId = [...upstream.tasks.keys()][0]
    const task = await until(() => getJson(`/v1/video/tasks/${id}`), (t) => t.status === 'succeeded' && t.result?.videos?.[0]?.content_url !== undefined)
    expect(task.usage.seconds).toBe(FAKE_GATEWAY_SECONDS)
    expect(task.usage.cost).toBeCloseTo(FAKE_GATEWAY_SECONDS * 0.1399, 9)
    expect(upstream.calls.filter((c) => c.method === 'GET').every((c) => c.path === `/v1/video/tasks/${upstreamId}` && c.headers.authorization === `Bearer ${UPSTREAM_KEY}`)).toBe(true)
    const video = await gw.get(task.result.videos[0].content_url)
    expect(Buffer.from(await video.arrayBuffer()).equals(FAKE_MP4)).toBe(true)
  })

  it('the DashScope-native path: the native body to the native path, polled on /api/v1/tasks/{id} of the upstream gateway', async () => {
    const raw = JSON.stringify({ model: WAN, input: { prompt: 'a kite' }, parameters: { resolution: '720P', duration: 5 } })
    const res = await gw.post(NATIVE, raw)
    expect(res.status).toBe(200)
    const { output } = (await res.json()) as { output: { task_id: string; task_status: string } }
    expect(output.task_status).toBe('PENDING')
    expect([lastCall().path, lastCall().raw.toString()]).toEqual([NATIVE, raw])
    const upstreamId = [...upstream.tasks.keys()][0]
    const done = await until(() => getJson(`/api/v1/tasks/${output.task_id}`), (t) => t.output.task_status === 'SUCCEEDED')
    expect(done.usage).toEqual({ video_duration: FAKE_GATEWAY_SECONDS, duration: FAKE_GATEWAY_SECONDS, video_count: 1 })
    expect(upstream.calls.filter((c) => c.method === 'GET').every((c) => c.path === `/api/v1/tasks/${upstreamId}`)).toBe(true)
    expect((await gw.services.store.tasks.video.get(output.task_id))!.cost_nano).toBe(FAKE_GATEWAY_SECONDS * 100_000_000)
  })

  it('a refusal on the native path is answered in DashScope\'s shape, and nothing stays reserved', async () => {
    upstream.failNext({ status: 400, code: 'InvalidParameter', message: 'Upstream refuses this duration' })
    const res = await gw.post(NATIVE, { model: WAN, input: { prompt: 'a kite' }, parameters: { duration: 5 } })
    const body = (await res.json()) as { request_id: string; code: string; message: string }
    expect([res.status, body.message]).toEqual([400, 'Upstream refuses this duration'])
    expect(body.request_id).toBe(res.headers.get('x-request-id'))
    expect((await gw.services.store.account.get()).reserved_nano).toBe(0)
  })
})

describe('interactions through a gateway account', () => {
  it('the body unchanged to /v1beta/interactions with the account key; billed by the usage reported', async () => {
    const raw = JSON.stringify({ model: OMNI, input: 'Say hi' })
    const res = await gw.post('/v1beta/interactions', raw)
    expect(res.status).toBe(200)
    expect(((await res.json()) as { outputs: Array<{ text: string }> }).outputs[0].text).toBe('Hello from the fake gateway.')
    expect([lastCall().path, lastCall().headers.authorization, lastCall().raw.toString()]).toEqual(['/v1beta/interactions', `Bearer ${UPSTREAM_KEY}`, raw])
    expect((await latestLedger())).toMatchObject({ endpoint: 'interactions', status: 200, upstream_id: 'hosted', input_tokens: 10, output_tokens: 3 })
  })

  it('streamed: the events are relayed and the final usage billed', async () => {
    const events = (await readSse(await gw.post('/v1beta/interactions', { model: OMNI, input: 'Say hi', stream: true }))).map((e) => e.data)
    expect(events.at(-1)).toBe('[DONE]')
    expect(JSON.parse(events.at(-2)!).event_type).toBe('interaction.completed')
    expect((await latestLedger())).toMatchObject({ endpoint: 'interactions', status: 200, input_tokens: 10, output_tokens: 3 })
  })
})
