// DashScope's native video path at the domain root (Wan models): native body, native answers, native task polling,
// native error shape — on the same reservation, poller and settlement as /v1/video/generate.
import { describe, expect, it } from 'vitest'
import { startFakeDashScope } from '../fakes/video/dashscope.js'
import { startFakeArk } from '../fakes/video/ark.js'
import { TEST_KEY, withGateway } from '../helpers/gateway.js'

const WAN = 'wan2.7-t2v'
const WAN_I2V = 'wan2.7-i2v'
const HAPPYHORSE = 'happyhorse-1.0-i2v'
const SEEDANCE = 'doubao-seedance-2-0-260128'
const NATIVE = '/api/v1/services/aigc/video-generation/video-synthesis'
const MESSAGES_KEY = 'sk-messages-0123456789abcdef'

const { gw, fakes: { dashscope, ark } } = withGateway({
  fakes: { dashscope: startFakeDashScope, ark: startFakeArk },
  config: ({ dashscope, ark }) => ({
    account: { balance: 3, concurrency: 5 },
    upstreams: [
      { id: 'ds', vendor: 'dashscope', baseUrl: dashscope.url, apiKey: 'sk-dashscope-test' },
      { id: 'ark', vendor: 'ark', baseUrl: `${ark.url}/api/v3`, apiKey: 'ark-test-key' },
    ],
    groups: [
      { id: 'video', protocol: 'chat', models: [WAN, WAN_I2V, HAPPYHORSE, SEEDANCE], upstreams: ['ds', 'ark'] },
      { id: 'claude', protocol: 'messages', models: [WAN], upstreams: ['ds'] },
    ],
    keys: [{ key: TEST_KEY, group: 'video' }, { key: MESSAGES_KEY, group: 'claude' }],
    // The fakes' video links are on 127.0.0.1.
    network: { allowPrivateAddresses: true },
  }),
  options: { videoPoll: { intervalMs: 15, maxIntervalMs: 40, timeoutMs: 300 } },
  resetFakes: true,
})

const headers = (key = TEST_KEY) => ({ authorization: `Bearer ${key}`, 'content-type': 'application/json', 'x-dashscope-async': 'enable' })
const post = (body: unknown, key?: string) => fetch(`${gw.url}${NATIVE}`, { method: 'POST', headers: headers(key), body: JSON.stringify(body) })
const getJson = async (path: string) => (await (await fetch(`${gw.url}${path}`, { headers: headers() })).json()) as Record<string, any>
const reservedNano = async () => (await gw.services.store.account.get()).reserved_nano

async function untilNative(id: string, status: string): Promise<Record<string, any>> {
  const deadline = Date.now() + 5_000
  for (;;) {
    const answer = await getJson(`/api/v1/tasks/${id}`)
    if (answer.output.task_status === status) return answer
    if (Date.now() > deadline) throw new Error(`never ${status}: ${JSON.stringify(answer)}`)
    await new Promise((r) => setTimeout(r, 15))
  }
}

describe('POST /api/v1/services/aigc/video-generation/video-synthesis', () => {
  it('takes the native body, answers natively, and polls natively to SUCCEEDED, billed by seconds', async () => {
    const before = (await gw.services.store.account.get())
    const res = await post({ model: WAN, input: { prompt: 'a kite', negative_prompt: 'rain' }, parameters: { resolution: '720P', duration: 5, prompt_extend: true } })
    expect(res.status).toBe(200)
    const created = (await res.json()) as { request_id: string; output: { task_id: string; task_status: string } }
    expect(created).toEqual({ request_id: res.headers.get('x-request-id'), output: { task_id: expect.stringMatching(/^task_/), task_status: 'PENDING' } })
    expect(dashscope.calls[0].body).toEqual({
      model: WAN, input: { negative_prompt: 'rain', prompt: 'a kite' }, parameters: { prompt_extend: true, resolution: '720P', duration: 5 },
    })
    expect((await reservedNano()) - before.reserved_nano).toBe(500_000_000) // 5 s × $0.10 at 720p
    const done = await untilNative(created.output.task_id, 'SUCCEEDED')
    expect(done).toMatchObject({
      request_id: expect.stringMatching(/^req_/),
      output: { task_id: created.output.task_id, task_status: 'SUCCEEDED', video_url: expect.stringContaining('/files/'), submit_time: expect.any(String), end_time: expect.any(String) },
      usage: { video_duration: 5, duration: 5, video_count: 1 },
    })
    expect((await gw.services.store.account.get())).toMatchObject({ balance_nano: before.balance_nano - 500_000_000, reserved_nano: before.reserved_nano })
    // The same task through the gateway's own polling endpoint.
    expect(await getJson(`/v1/video/tasks/${created.output.task_id}`)).toMatchObject({ status: 'succeeded', usage: { seconds: 5, cost: 0.5 } })
  })

  it('shows PENDING and RUNNING on the way, FAILED with the vendor\'s code, unbilled', async () => {
    dashscope.script(['queued', 'running', 'failed'])
    const before = (await gw.services.store.account.get())
    const created = (await (await post({ model: WAN, input: { prompt: 'doomed' }, parameters: { duration: 10, resolution: '1080P' } })).json()) as { output: { task_id: string } }
    expect((await getJson(`/api/v1/tasks/${created.output.task_id}`)).output.task_status).toMatch(/^(PENDING|RUNNING)$/)
    const failed = await untilNative(created.output.task_id, 'FAILED')
    expect(failed.output).toMatchObject({ code: 'DataInspectionFailed', message: 'Output data may contain inappropriate content.' })
    expect(failed.usage).toBeUndefined()
    expect((await gw.services.store.account.get())).toMatchObject({ balance_nano: before.balance_nano, reserved_nano: before.reserved_nano })
  })

  it('prices an older `size` by its short side and forwards it as sent; maps HappyHorse media', async () => {
    const before = (await reservedNano())
    dashscope.script(['queued']) // stays queued: the reservation is visible
    const res = await post({ model: WAN, input: { prompt: 'sized' }, parameters: { size: '1920*1080', duration: 10 } })
    expect(res.status).toBe(200)
    expect((await reservedNano()) - before).toBe(1_500_000_000) // 10 s × $0.15 at 1080p
    // Creates only: the background poller may have polled the first task in between.
    const creates = () => dashscope.calls.filter((c) => c.method === 'POST')
    expect(creates()[0].body.parameters).toEqual({ size: '1920*1080', duration: 10 })
    const horse = await post({ model: HAPPYHORSE, input: { prompt: 'gallop', media: [{ type: 'first_frame', url: 'https://img.example/h.png' }] }, parameters: { duration: 3, resolution: '720P' } })
    expect(horse.status).toBe(200)
    expect(creates()[1].body.input).toEqual({ prompt: 'gallop', media: [{ type: 'first_frame', url: 'https://img.example/h.png' }] })
  })

  it('an identical resubmission answers the same task', async () => {
    dashscope.script(['queued'])
    const body = { model: WAN_I2V, input: { prompt: 'twice', img_url: 'https://img.example/a.png' }, parameters: { duration: 5, resolution: '720P' } }
    const a = (await (await post(body)).json()) as { output: { task_id: string } }
    const again = await post(body)
    expect(again.headers.get('idempotent-replayed')).toBe('true')
    expect(((await again.json()) as { output: { task_id: string } }).output.task_id).toBe(a.output.task_id)
    expect(dashscope.calls.filter((c) => c.method === 'POST')).toHaveLength(1)
  })
})

describe('native errors and unknown tasks', () => {
  it('errors are DashScope-shaped {request_id, code, message}', async () => {
    const missing = await post({ model: WAN, parameters: {} })
    expect(missing.status).toBe(400)
    expect(await missing.json()).toEqual({ request_id: missing.headers.get('x-request-id'), code: 'invalid_request', message: 'missing input field' })
    const wrongModel = await post({ model: SEEDANCE, input: { prompt: 'x' } })
    expect([wrongModel.status, ((await wrongModel.json()) as { code: string }).code]).toEqual([400, 'unsupported_model_endpoint'])
    const noKey = await fetch(`${gw.url}${NATIVE}`, { method: 'POST', body: '{}' })
    expect([noKey.status, ((await noKey.json()) as { code: string }).code]).toEqual([401, 'missing_api_key'])
    const otherGroup = await post({ model: WAN, input: { prompt: 'x' } }, MESSAGES_KEY)
    expect([otherGroup.status, ((await otherGroup.json()) as { code: string }).code]).toEqual([404, 'route_not_found'])
    expect(dashscope.calls.filter((c) => c.method === 'POST')).toHaveLength(0)
  })

  it('402 insufficient_quota in the native shape when the balance cannot cover the reservation', async () => {
    // 15 s × $0.24 = $3.60 > the $2.50 left after the $0.50 billed above, whatever else is held
    const res = await post({ model: HAPPYHORSE, input: { prompt: 'too dear', media: [{ type: 'first_frame', url: 'https://img.example/h.png' }] }, parameters: { duration: 15, resolution: '1080P' } })
    expect(res.status).toBe(402)
    expect(await res.json()).toEqual({ request_id: res.headers.get('x-request-id'), code: 'insufficient_quota', message: expect.stringContaining('3.6000 USD') })
    expect(dashscope.calls.filter((c) => c.method === 'POST')).toHaveLength(0)
  })

  it('a task that does not exist, or is another key\'s, is UNKNOWN with HTTP 200', async () => {
    const res = await fetch(`${gw.url}/api/v1/tasks/task_nope`, { headers: headers() })
    expect(res.status).toBe(200)
    expect(await res.json()).toEqual({ request_id: res.headers.get('x-request-id'), output: { task_id: 'task_nope', task_status: 'UNKNOWN' } })
  })

  it('Wan models also take the one /v1/video/generate contract, sent to DashScope asynchronously', async () => {
    // The account's small balance is shared: let earlier tests' reservations settle first.
    for (let i = 0; i < 200 && (await reservedNano()) !== 0; i++) await new Promise((r) => setTimeout(r, 20))
    const res = await fetch(`${gw.url}/v1/video/generate`, { method: 'POST', headers: headers(), body: JSON.stringify({ model: WAN, prompt: 'a fox in snow', duration: 5 }) })
    expect(res.status).toBe(202)
    const accepted = (await res.json()) as { task_id: string; status_url: string }
    expect(accepted.status_url).toContain(accepted.task_id)
    const create = dashscope.calls.find((c) => c.method === 'POST')!
    expect(create.headers['x-dashscope-async']).toBe('enable')
    expect(create.body).toMatchObject({ model: WAN, input: { prompt: 'a fox in snow' } })
  })
})
