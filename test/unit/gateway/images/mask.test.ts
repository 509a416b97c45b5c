import sharp from 'sharp'
import { describe, expect, it } from 'vitest'
import { GatewayError } from '../../../../electron/gateway/errors.js'
import { MAX_INPUT_PIXELS } from '../../../../electron/gateway/images/image-limits.js'
import { fitMask } from '../../../../electron/gateway/images/mask.js'
import { makePng } from '../../../fakes/images/image-bytes.js'

const asReference = (bytes: Buffer) => ({ chunks: [bytes], size: bytes.length, mimeType: 'image/png', filename: 'a.png' })

/** A real PNG whose IHDR then claims another size (the CRC is left as is: nothing reads that far). */
function lyingPng(width: number, height: number): Buffer {
  const png = Buffer.from(makePng(4, 4))
  png.writeUInt32BE(width, 16)
  png.writeUInt32BE(height, 20)
  return png
}

const failure = (promise: Promise<unknown>) => promise.then(() => undefined, (err: unknown) => err)

describe('fitMask', () => {
  it('scales a mask larger than its reference down to the reference size, with alpha', async () => {
    const { png, width, height } = await fitMask(makePng(400, 200, { alpha: true }), asReference(makePng(40, 20)), new AbortController().signal)
    const meta = await sharp(png).metadata()
    expect([width, height, meta.width, meta.height, meta.hasAlpha]).toEqual([40, 20, 40, 20, true])
  })

  it('refuses a reference whose header claims more than the pixel limit, before decoding anything', async () => {
    const err = await failure(fitMask(makePng(8, 8, { alpha: true }), asReference(lyingPng(100_000, 100_000)), new AbortController().signal))
    expect(err).toBeInstanceOf(GatewayError)
    expect([(err as GatewayError).status, (err as GatewayError).code, (err as GatewayError).message, (err as GatewayError).param]).toEqual([
      400, 'invalid_request', `image[0] is 100000x100000 pixels; images of at most ${MAX_INPUT_PIXELS} pixels are accepted.`, 'image[0]',
    ])
  })

  it('refuses a mask whose header claims more than the pixel limit', async () => {
    const err = (await failure(fitMask(lyingPng(20_000, 20_000), asReference(makePng(8, 8)), new AbortController().signal))) as GatewayError
    expect([err.status, err.message]).toEqual([400, `mask is 20000x20000 pixels; images of at most ${MAX_INPUT_PIXELS} pixels are accepted.`])
  })

  it('a mask that does not decode is a 400 naming the mask', async () => {
    const broken = Buffer.concat([makePng(8, 8).subarray(0, 33), Buffer.from('not a zlib stream at all')])
    const err = (await failure(fitMask(broken, asReference(makePng(8, 8)), new AbortController().signal))) as GatewayError
    expect([err.status, err.code, err.message]).toEqual([400, 'invalid_request', 'mask: is not a readable image'])
  })

  it('does not start once the client has left', async () => {
    const gone = new AbortController()
    gone.abort()
    const err = (await failure(fitMask(makePng(8, 8), asReference(makePng(8, 8)), gone.signal))) as Error
    expect(err.name).toBe('AbortError')
  })
})
