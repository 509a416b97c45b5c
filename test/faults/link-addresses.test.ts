// Links to addresses the link guard refuses, through the real gateway: a reference image in an image request, a
// vendor's image result links and a vendor's video result link. Hosts are IP literals in unusual spellings, or
// names a fake resolver points at such addresses (no DNS, no network: every refused link is refused before any
// connection; the names resolving to 127.0.0.1 reach the fakes, showing the same paths fetch what is allowed).
import http from 'node:http'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import type { GatewayConfig } from '../../electron/gateway/config/load-config.js'
import { pollVideoTask } from '../../electron/gateway/tasks/video-poller.js'
import { DEFAULT_VIDEO_POLL } from '../../electron/gateway/tasks/video-runtime.js'
import { makePng } from '../fakes/images/image-bytes.js'
import { listenLocal } from '../fakes/listen-local.js'
import { FAKE_MP4, type FakeVideoServer } from '../fakes/video/task-script.js'
import { startFakeXai } from '../fakes/video/xai.js'
import { fakeResolver } from '../helpers/fake-resolver.js'
import { startTestGateway, TEST_KEY, type TestGateway } from '../helpers/gateway.js'
import { until } from '../helpers/until.js'

const PNG = makePng(16, 16)
const GROK = 'grok-imagine-video'

const resolveLinkHost = fakeResolver({
  'six-to-four.test': ['2002:7f00:1::'],
  'nat64.test': ['64:ff9b::7f00:1'],
  'site-local.test': ['fec0::1'],
  'nat64-metadata.test': ['64:ff9b::a9fe:a9fe'],
  'teredo-metadata.test': ['2001:0:808:808::5601:5601'],
  'loopback.test': ['127.0.0.1'],
})

/** An OpenAI-compatible image vendor on 127.0.0.1: answers image calls with `answer`, hosts /files/ok.png, redirects /redirect. */
async function startImageVendor() {
  const state = { answer: {} as unknown, redirectTo: '', downloads: 0 }
  const server = http.createServer((req, res) => {
    if (req.url === '/files/ok.png') {
      state.downloads++
      return void res.writeHead(200, { 'content-type': 'image/png', 'content-length': PNG.length }).end(PNG)
    }
    if (req.url === '/redirect') return void res.writeHead(302, { location: state.redirectTo }).end()
    req.resume()
    req.on('end', () => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(state.answer)))
  })
  const { origin, close } = await listenLocal(server)
  return { origin, port: new URL(origin).port, state, close }
}

let vendor: Awaited<ReturnType<typeof startImageVendor>>
let xai: FakeVideoServer
/** the default: links may not reach private addresses */
let strict: TestGateway
/** `network.allowPrivateAddresses`: loopback and the LAN allowed, link-local and metadata still refused */
let lan: TestGateway
const logs: string[] = []

function config(allowPrivateAddresses: boolean): GatewayConfig {
  return {
    account: { balance: 100, concurrency: 10 },
    models: [{ id: 'test-image', family: 'gpt-image', vendor: 'openai', pricing: { unit: 'image', price: 0.04 } }],
    upstreams: [
      { id: 'img', vendor: 'openai', baseUrl: `${vendor.origin}/v1`, apiKey: 'upstream-secret-img' },
      { id: 'xai', vendor: 'xai', baseUrl: `${xai.url}/v1`, apiKey: 'xai-test-key' },
    ],
    groups: [{ id: 'main', protocol: 'chat', models: ['test-image', GROK], upstreams: ['img', 'xai'] }],
    keys: [{ key: TEST_KEY, group: 'main' }],
    network: { allowPrivateAddresses },
  }
}

beforeAll(async () => {
  vendor = await startImageVendor()
  xai = await startFakeXai()
  // The poller is off: the tests poll video tasks one step at a time.
  const options = { resolveLinkHost, log: (line: string) => void logs.push(line), videoPoll: { enabled: false } }
  strict = await startTestGateway(config(false), undefined, options)
  lan = await startTestGateway(config(true), undefined, options)
})
afterAll(async () => {
  await Promise.all([strict?.stop(), lan?.stop()])
  await Promise.all([vendor?.close(), xai?.close()])
})
beforeEach(() => {
  xai.reset()
})

const refusal = (address: string) => `points to a private or reserved address (${address}), which the gateway does not fetch`
const errorOf = async (res: Response) => [res.status, ((await res.json()) as { error: unknown }).error]
const refusedReference = (url: string, detail: string) => [400, { code: 'invalid_request', param: 'image[0]', type: 'invalid_request_error', message: `The image at ${url} ${detail}.` }]
const editWith = (gw: TestGateway, url: string) => gw.post('/v1/images/edits', { model: 'test-image', prompt: 'x', image: url })

describe('a reference image link', () => {
  it.each([
    ['http://[2002:7f00:1::]:{port}/files/ok.png', '2002:7f00:1::'],
    ['http://[64:ff9b::7f00:1]:{port}/files/ok.png', '64:ff9b::7f00:1'],
    ['http://[fec0::1]:{port}/files/ok.png', 'fec0::1'],
    ['http://[::127.0.0.1]:{port}/files/ok.png', '::7f00:1'],
    ['http://[::ffff:0:7f00:1]:{port}/files/ok.png', '::ffff:0:7f00:1'],
    ['http://[2001:0:808:808::80ff:fffe]:{port}/files/ok.png', '2001:0:808:808::80ff:fffe'],
    ['http://100.64.0.1:{port}/files/ok.png', '100.64.0.1'],
    ['http://2130706433:{port}/files/ok.png', '127.0.0.1'],
    ['http://0177.0.0.1:{port}/files/ok.png', '127.0.0.1'],
    ['http://0x7f.1:{port}/files/ok.png', '127.0.0.1'],
    ['http://127.1:{port}/files/ok.png', '127.0.0.1'],
    ['http://six-to-four.test:{port}/files/ok.png', '2002:7f00:1::'],
    ['http://nat64.test:{port}/files/ok.png', '64:ff9b::7f00:1'],
    ['http://site-local.test:{port}/files/ok.png', 'fec0::1'],
    ['http://loopback.test:{port}/files/ok.png', '127.0.0.1'],
  ])('by default, %s is refused with 400 naming its address, and never fetched', async (template, address) => {
    const url = template.replace('{port}', vendor.port)
    const downloads = vendor.state.downloads
    expect(await errorOf(await editWith(strict, url))).toEqual(refusedReference(url, refusal(address)))
    expect(vendor.state.downloads).toBe(downloads)
  })

  it.each([
    ['http://[::ffff:169.254.169.254]/latest/meta-data/', '::ffff:a9fe:a9fe'],
    ['http://[64:ff9b::169.254.169.254]/latest/meta-data/', '64:ff9b::a9fe:a9fe'],
    ['http://[64:ff9b:1::a9fe:a9fe]/latest/meta-data/', '64:ff9b:1::a9fe:a9fe'],
    ['http://[2002:a9fe:a9fe::]/latest/meta-data/', '2002:a9fe:a9fe::'],
    ['http://[2001:0:a9fe:a9fe::f7f7:f7f7]/latest/meta-data/', '2001:0:a9fe:a9fe::f7f7:f7f7'],
    ['http://[2001:0:808:808::5601:5601]/latest/meta-data/', '2001:0:808:808::5601:5601'],
    ['http://[::169.254.169.254]/latest/meta-data/', '::a9fe:a9fe'],
    ['http://[FD00:EC2::254]/latest/meta-data/', 'fd00:ec2::254'],
    ['http://0251.0376.0251.0376/latest/meta-data/', '169.254.169.254'],
    ['http://100.100.100.200/latest/meta-data/', '100.100.100.200'],
    ['http://nat64-metadata.test/latest/meta-data/', '64:ff9b::a9fe:a9fe'],
    ['http://teredo-metadata.test/latest/meta-data/', '2001:0:808:808::5601:5601'],
  ])('with private addresses allowed, %s stays refused', async (url, address) => {
    expect(await errorOf(await editWith(lan, url))).toEqual(refusedReference(url, refusal(address)))
  })

  it('with private addresses allowed, a name resolving to 127.0.0.1 is fetched; its redirect to a NAT64 metadata address is refused at that hop', async () => {
    vendor.state.answer = { data: [{ b64_json: PNG.toString('base64') }] }
    const downloads = vendor.state.downloads
    expect((await editWith(lan, `http://loopback.test:${vendor.port}/files/ok.png`)).status).toBe(200)
    expect(vendor.state.downloads).toBe(downloads + 1)

    const url = `http://loopback.test:${vendor.port}/redirect`
    vendor.state.redirectTo = 'http://[64:ff9b::a9fe:a9fe]/latest/meta-data/iam'
    expect(await errorOf(await editWith(lan, url))).toEqual(refusedReference(url, `redirects to http://[64:ff9b::a9fe:a9fe], which ${refusal('64:ff9b::a9fe:a9fe')}`))
    vendor.state.redirectTo = 'http://teredo-metadata.test/latest/meta-data/iam'
    expect(await errorOf(await editWith(lan, url))).toEqual(refusedReference(url, `redirects to http://teredo-metadata.test, which ${refusal('2001:0:808:808::5601:5601')}`))
  })
})

describe('a vendor\'s image result links', () => {
  /** Generates images whose links are `links`, and waits for the gateway to try keeping each one. */
  async function generate(gw: TestGateway, links: string[]) {
    vendor.state.answer = { data: links.map((url) => ({ url })) }
    const res = await gw.post('/v1/images/generations', { model: 'test-image', prompt: 'x' })
    expect(res.status).toBe(200)
    expect(((await res.json()) as { data: Array<{ url: string }> }).data.map((d) => d.url)).toEqual(links)
    const requestId = res.headers.get('x-request-id')!
    const tried = await until(`both images of ${requestId} tried`, 5_000, async () => {
      const lines = logs.filter((line) => line.startsWith(`[gatehouse] ${requestId}: could not keep image`))
      const kept = await gw.services.store.media.byRequest(requestId)
      return lines.length + kept.length === links.length && { lines: lines.sort(), kept }
    })
    return { requestId, ...tried }
  }

  it('by default, links to 6to4, NAT64 and site-local forms of loopback are left as links, never fetched', async () => {
    const downloads = vendor.state.downloads
    const links = [`http://[2002:7f00:1::]:${vendor.port}/files/ok.png`, `http://nat64.test:${vendor.port}/files/ok.png`, `http://site-local.test:${vendor.port}/files/ok.png`]
    const { requestId, lines, kept } = await generate(strict, links)
    expect(kept).toEqual([])
    expect(lines).toEqual([
      `[gatehouse] ${requestId}: could not keep image 0 (attempt 1): ${refusal('2002:7f00:1::')}`,
      `[gatehouse] ${requestId}: could not keep image 1 (attempt 1): ${refusal('64:ff9b::7f00:1')}`,
      `[gatehouse] ${requestId}: could not keep image 2 (attempt 1): ${refusal('fec0::1')}`,
    ])
    expect(vendor.state.downloads).toBe(downloads)
  })

  it('with private addresses allowed, the NAT64 and Teredo forms of the metadata address are not fetched; loopback is kept', async () => {
    const links = [`http://nat64-metadata.test:${vendor.port}/files/ok.png`, `http://[2001:0:a9fe:a9fe::f7f7:f7f7]:${vendor.port}/files/ok.png`, `http://loopback.test:${vendor.port}/files/ok.png`]
    const { requestId, lines, kept } = await generate(lan, links)
    expect(lines).toEqual([
      `[gatehouse] ${requestId}: could not keep image 0 (attempt 1): ${refusal('64:ff9b::a9fe:a9fe')}`,
      `[gatehouse] ${requestId}: could not keep image 1 (attempt 1): ${refusal('2001:0:a9fe:a9fe::f7f7:f7f7')}`,
    ])
    expect(kept.map((m) => [m.source_url, m.mime_type])).toEqual([[links[2], 'image/png']])
  })
})

describe('a vendor\'s video result link', () => {
  const opts = { ...DEFAULT_VIDEO_POLL, enabled: false }
  // Each task is asked with a prompt of its own: the same request again would be the same task (the duplicate guard).
  let tasks = 0
  /** A Grok video task that succeeds at once with its link on `videoOrigin`: submitted, settled, then one try at keeping it. */
  async function finishedTask(gw: TestGateway, videoOrigin: string) {
    xai.script(['succeeded'])
    xai.switches.videoOrigin = videoOrigin
    const res = await gw.post('/v1/video/generate', { model: GROK, prompt: `fox ${++tasks}`, duration: 1 })
    expect(res.status).toBe(202)
    const id = ((await res.json()) as { task_id: string }).task_id
    const taskLogs: string[] = []
    expect(await pollVideoTask(gw.services, id, opts)).toBe('settled')
    const keeping = await pollVideoTask(gw.services, id, opts, new AbortController().signal, (line) => void taskLogs.push(line))
    const content = await fetch(`${gw.url}/v1/video/tasks/${id}/content`, { headers: { authorization: `Bearer ${TEST_KEY}` } })
    return { id, keeping, taskLogs, content }
  }
  const notKept = async (content: Response) => [content.status, (((await content.json()) as { error: { code: string } }).error.code)]

  it.each([
    ['http://[64:ff9b::7f00:1]:{port}', '64:ff9b::7f00:1'],
    ['http://six-to-four.test:{port}', '2002:7f00:1::'],
    ['http://site-local.test:{port}', 'fec0::1'],
  ])('by default, a link on %s is not fetched, and no copy is served', async (template, address) => {
    const { id, keeping, taskLogs, content } = await finishedTask(strict, template.replace('{port}', new URL(xai.url).port))
    expect(keeping).toBe('pending')
    expect(taskLogs).toEqual([`[gatehouse] video task ${id}: could not keep the video (attempt 1): ${refusal(address)}`])
    expect(await notKept(content)).toEqual([404, 'video_content_not_available'])
    expect(await strict.services.store.media.byRequest(id)).toEqual([])
  })

  it('with private addresses allowed, a link whose name resolves to the NAT64 metadata address is not fetched; one resolving to 127.0.0.1 is kept', async () => {
    const port = new URL(xai.url).port
    const refused = await finishedTask(lan, `http://nat64-metadata.test:${port}`)
    expect([refused.keeping, refused.taskLogs]).toEqual(['pending', [`[gatehouse] video task ${refused.id}: could not keep the video (attempt 1): ${refusal('64:ff9b::a9fe:a9fe')}`]])
    expect(await notKept(refused.content)).toEqual([404, 'video_content_not_available'])

    const allowed = await finishedTask(lan, `http://loopback.test:${port}`)
    expect([allowed.keeping, allowed.taskLogs]).toEqual(['saved', []])
    expect([allowed.content.status, Buffer.from(await allowed.content.arrayBuffer())]).toEqual([200, FAKE_MP4])
  })
})
