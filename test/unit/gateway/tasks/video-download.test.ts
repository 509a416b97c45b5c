import http from 'node:http'
import { existsSync, readdirSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { createHttp, DEFAULT_TIMEOUTS, type Http } from '../../../../electron/gateway/upstreams/http.js'
import { dataDirMedia } from '../../../../electron/gateway/media/media-files.js'
import type { Services } from '../../../../electron/gateway/services.js'
import { createStore, type Store } from '../../../../electron/gateway/store/index.js'
import type { VideoTaskRow } from '../../../../electron/gateway/store/tasks.js'
import { saveTaskVideos } from '../../../../electron/gateway/tasks/video-download.js'
import { videoPollOptions } from '../../../../electron/gateway/tasks/video-runtime.js'
import { listenLocal } from '../../../fakes/listen-local.js'
import { FAKE_MP4 } from '../../../fakes/video/task-script.js'
import { collectGarbage } from '../../../helpers/collect-garbage.js'
import { tempDataDir } from '../../../helpers/gateway.js'

const SVG = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>')
const FILES: Record<string, { type: string; bytes: Buffer }> = {
  '/svg-as-mp4': { type: 'video/mp4', bytes: SVG },
  '/mp4-as-octets': { type: 'application/octet-stream', bytes: FAKE_MP4 },
}

let origin: string
let closeServer: () => Promise<void>
beforeAll(async () => {
  const server = http.createServer((req, res) => {
    // The first bytes of a video, then nothing: the socket stays open until the client leaves.
    if (req.url === '/stalls') return void res.writeHead(200, { 'content-type': 'video/mp4' }).write(FAKE_MP4.subarray(0, 16))
    const file = FILES[req.url ?? '']
    if (!file) return void res.writeHead(404).end()
    res.writeHead(200, { 'content-type': file.type }).end(file.bytes)
  })
  ;({ origin, close: closeServer } = await listenLocal(server))
})
afterAll(() => closeServer())

let data: ReturnType<typeof tempDataDir>
let store: Store
let https: Http[]
beforeEach(() => {
  data = tempDataDir()
  store = createStore(data.dir)
  https = []
})
afterEach(async () => {
  await Promise.all(https.map((h) => h.close(100)))
  await store.close()
  data.remove()
})

function services(allowPrivateAddresses: boolean): Services {
  const http = createHttp(DEFAULT_TIMEOUTS, { allowPrivateAddresses })
  https.push(http)
  return { store, http, dataDir: data.dir, media: dataDirMedia(data.dir) } as Services
}

const task = (url: string) => ({ id: 'task_abc', result: JSON.stringify({ videos: [url] }) }) as VideoTaskRow
const save = (s: Services, url: string) => saveTaskVideos(s, task(url), videoPollOptions({}), new AbortController().signal).then(() => 'saved', (e: Error) => e.message)
/** Every file under the data dir's media folder, temporary ones included. */
const videoFiles = () => (existsSync(join(data.dir, 'media')) ? readdirSync(join(data.dir, 'media'), { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).map((e) => e.name) : [])

describe('saveTaskVideos', () => {
  it('keeps a video by its bytes (0600), whatever type the vendor declared', async () => {
    expect(await save(services(true), `${origin}/mp4-as-octets`)).toBe('saved')
    expect((await store.media.byRequest('task_abc')).map((m) => [m.path, m.mime_type])).toEqual([[join('media', 'videos', 'task_abc-0.mp4'), 'video/mp4']])
    expect(statSync(join(data.dir, 'media', 'videos', 'task_abc-0.mp4')).mode & 0o777).toBe(0o600)
  })

  it('refuses an SVG declared as video/mp4, leaving no file behind', async () => {
    expect(await save(services(true), `${origin}/svg-as-mp4`)).toBe('is not an MP4, WebM or QuickTime video')
    expect([(await store.media.byRequest('task_abc')), videoFiles()]).toEqual([[], []])
  })

  it('gives up a download that stalls at its deadline, even when garbage is collected meanwhile', async () => {
    const saving = saveTaskVideos(services(true), task(`${origin}/stalls`), { ...videoPollOptions({}), downloadTimeoutMs: 300 }, new AbortController().signal)
      .then(() => 'saved', (e: Error) => `${e.name}: ${e.message}`)
    await collectGarbage()
    // Without a deadline of its own the download would wait for the link agent's 300 s: 5 s tells the two apart.
    let timer: NodeJS.Timeout | undefined
    const waited = new Promise<string>((resolve) => (timer = setTimeout(() => resolve('still downloading after 5 s'), 5_000)))
    expect(await Promise.race([saving, waited])).toBe('TimeoutError: no answer within 300 ms')
    clearTimeout(timer)
    expect([(await store.media.byRequest('task_abc')), videoFiles()]).toEqual([[], []])
  })

  it('by default, refuses a link on a loopback address without fetching it', async () => {
    const address = new URL(origin).hostname
    expect(await save(services(false), `${origin}/mp4-as-octets`)).toBe(`points to a private or reserved address (${address}), which the gateway does not fetch`)
    expect(videoFiles()).toEqual([])
  })
})
