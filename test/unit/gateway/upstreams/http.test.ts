import { createServer } from 'node:http'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { AnswerTooLarge, createHttp, DEFAULT_TIMEOUTS, MAX_ANSWER_BYTES, MAX_ERROR_BYTES, readAnswer, readErrorText, transportFailure, withDeadline } from '../../../../electron/gateway/upstreams/http.js'
import { listenLocal } from '../../../fakes/listen-local.js'
import { collectGarbage } from '../../../helpers/collect-garbage.js'

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

describe('withDeadline', () => {
  /** What ended `signal` (its reason's name and message), or 'still open' after `ms`. */
  const outcome = (signal: AbortSignal, ms: number) => new Promise<string>((resolve) => {
    const timer = setTimeout(() => resolve('still open'), ms)
    signal.addEventListener('abort', () => {
      clearTimeout(timer)
      resolve(`${(signal.reason as Error).name}: ${(signal.reason as Error).message}`)
    }, { once: true })
  })

  it('aborts with a TimeoutError at its deadline, even when garbage is collected meanwhile (AbortSignal.timeout() inside any() was lost)', async () => {
    const { signal } = withDeadline(new AbortController().signal, 100)
    const ended = outcome(signal, 2_000)
    await collectGarbage()
    expect(await ended).toBe('TimeoutError: no answer within 100 ms')
    expect(transportFailure(signal.reason)).toBe('timeout')
  })

  it("passes on the caller's abort at once, with its reason", async () => {
    const caller = new AbortController()
    const { signal } = withDeadline(caller.signal, 60_000)
    caller.abort(new DOMException('the client left', 'AbortError'))
    expect([signal.aborted, (signal.reason as Error).name, (signal.reason as Error).message]).toEqual([true, 'AbortError', 'the client left'])
  })

  it('never fires once cleared', async () => {
    const { signal, clear } = withDeadline(new AbortController().signal, 20)
    clear()
    expect(await outcome(signal, 200)).toBe('still open')
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

describe('readAnswer (upstream answers read whole, bounded)', () => {
  let origin: string
  let close: () => Promise<void>
  const http = createHttp(DEFAULT_TIMEOUTS)
  const served: string[] = []
  beforeAll(async () => {
    const server = createServer((req, res) => {
      served.push(req.url ?? '')
      if (req.url === '/declared') return void res.writeHead(200, { 'content-length': 5000 }).end(Buffer.alloc(5000, 0x61))
      // Chunked, no length: 10 pieces of 500 bytes.
      res.writeHead(200)
      for (let i = 0; i < 10; i++) res.write(Buffer.alloc(500, 0x62))
      res.end()
    })
    ;({ origin, close } = await listenLocal(server))
  })
  afterAll(async () => {
    await http.close(1_000)
    await close()
  })
  const get = (path: string) => http.send({ method: 'GET', url: `${origin}${path}`, headers: {} }, AbortSignal.timeout(5_000))

  it('an answer within the limit is read whole', async () => {
    expect((await readAnswer(await get('/chunked'), 5000)).length).toBe(5000)
  })
  it('a declared length over the limit is refused before reading', async () => {
    await expect(readAnswer(await get('/declared'), 4999)).rejects.toThrow(new AnswerTooLarge(4999))
  })
  it('a chunked answer is cut as soon as it passes the limit', async () => {
    await expect(readAnswer(await get('/chunked'), 1200)).rejects.toThrow('the upstream answer is larger than 1200 bytes')
  })
  it('error texts are cut at MAX_ERROR_BYTES and never throw', async () => {
    expect(MAX_ERROR_BYTES).toBeLessThan(MAX_ANSWER_BYTES)
    expect(await readErrorText(await get('/chunked'))).toBe('b'.repeat(5000))
  })
})
