import { createServer } from 'node:http'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createHttp, DEFAULT_TIMEOUTS, transportFailure } from '../../../electron/gateway/http.js'
import { listenLocal } from '../../fakes/listen-local.js'

describe('transportFailure', () => {
  it.each([
    [new DOMException('The operation was aborted due to timeout', 'TimeoutError'), 'timeout'],
    [new DOMException('This operation was aborted', 'AbortError'), 'aborted'],
    [Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }), 'connect'],
    [Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' }), 'reset'],
  ])('%s → %s', (err, expected) => {
    expect(transportFailure(err)).toBe(expected)
  })
})

describe('download (links)', () => {
  const SVG = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>')
  const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex')
  let origin: string
  let close: () => Promise<void>
  const http = createHttp(DEFAULT_TIMEOUTS, { allowPrivateAddresses: true })
  beforeAll(async () => {
    const server = createServer((req, res) => {
      const loop = /^\/loop\/(\d+)$/.exec(req.url ?? '')
      if (loop) return void res.writeHead(302, { location: `/loop/${Number(loop[1]) + 1}` }).end()
      if (req.url === '/hop') return void res.writeHead(301, { location: '/png' }).end()
      res.writeHead(200, { 'content-type': 'image/png' }).end(req.url === '/png' ? PNG : SVG)
    })
    ;({ origin, close } = await listenLocal(server))
  })
  afterAll(async () => {
    await http.close(100)
    await close()
  })
  const outcome = (url: string) => http.download(url, 1_000, AbortSignal.timeout(5_000)).then((r) => r.mimeType, (e: Error) => `${e.constructor.name}: ${e.message}`)

  it.each([
    ['/png', 'image/png'],
    ['/hop', 'image/png'],
    ['/svg', 'DownloadError: is not a PNG, JPEG, WebP or GIF image'],
    ['/loop/0', 'DownloadError: redirects more than 3 times'],
  ])('%s → %s', async (path, expected) => {
    expect(await outcome(`${origin}${path}`)).toBe(expected)
  })

  it('only http(s)', async () => {
    expect(await outcome('file:///etc/passwd')).toBe('DownloadError: is not an http(s) link')
  })
})
