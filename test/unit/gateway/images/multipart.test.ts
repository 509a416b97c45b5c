import { describe, expect, it } from 'vitest'
import type { RequestContext } from '../../../../electron/gateway/context.js'
import { MAX_MULTIPART_FIELDS, readMultipart } from '../../../../electron/gateway/images/multipart.js'

const BOUNDARY = 'unit-boundary'

/** A context holding a multipart body already read, as the server hands it to the handler. */
function contextWith(parts: string[]): RequestContext {
  const body = Buffer.from(`${parts.map((p) => `--${BOUNDARY}\r\n${p}\r\n`).join('')}--${BOUNDARY}--\r\n`)
  return { req: { headers: { 'content-type': `multipart/form-data; boundary=${BOUNDARY}` } }, body } as unknown as RequestContext
}
const field = (name: string, value: string) => `Content-Disposition: form-data; name="${name}"\r\n\r\n${value}`
const file = (name: string, bytes: string) => `Content-Disposition: form-data; name="${name}"; filename="f.png"\r\nContent-Type: image/png\r\n\r\n${bytes}`

describe('readMultipart', () => {
  it('a data-URL reference of 31,457,280 bytes fits in a text field (Seedream, spec §4.2)', async () => {
    const dataUrl = `data:image/png;base64,${'A'.repeat(31_457_280 - 22)}`
    const { fields } = await readMultipart(contextWith([field('image', dataUrl)]))
    expect((fields.image as string).length).toBe(31_457_280)
  })

  it('repeats and image[] become lists in order; files keep their bytes', async () => {
    const repeats = Array.from({ length: MAX_MULTIPART_FIELDS - 1 }, (_, i) => field(i % 2 ? 'tag[]' : 'tag', `t${i}`))
    const { fields, files } = await readMultipart(contextWith([...repeats, file('image[]', 'PNGDATA')]))
    expect(fields.tag).toEqual(Array.from({ length: MAX_MULTIPART_FIELDS - 1 }, (_, i) => `t${i}`))
    expect(files).toHaveLength(1)
    expect(files[0]).toMatchObject({ field: 'image[]', filename: 'f.png', mimeType: 'image/png', size: 7 })
    expect(Buffer.concat(files[0].chunks).toString()).toBe('PNGDATA')
  })

  it('a field name over 256 bytes: 400', async () => {
    await expect(readMultipart(contextWith([field('n'.repeat(257), 'x')]))).rejects.toMatchObject({
      status: 400, code: 'invalid_request', message: 'A multipart/form-data field name is longer than 256 bytes.',
    })
  })

  it('a form cut short inside a file: 400, and the error stays with the request (nothing is thrown elsewhere)', async () => {
    const cut = Buffer.from(`--${BOUNDARY}\r\n${file('image', 'PNGDATA and more')}`)
    const ctx = { req: { headers: { 'content-type': `multipart/form-data; boundary=${BOUNDARY}` } }, body: cut } as unknown as RequestContext
    const uncaught: unknown[] = []
    const listener = (err: unknown) => uncaught.push(err)
    process.on('uncaughtException', listener)
    try {
      await expect(readMultipart(ctx)).rejects.toMatchObject({
        status: 400, code: 'invalid_request', message: 'The multipart/form-data body cannot be read: Unexpected end of form',
      })
      await new Promise((resolve) => setImmediate(resolve))
      expect(uncaught).toEqual([])
    } finally {
      process.off('uncaughtException', listener)
    }
  })
})
