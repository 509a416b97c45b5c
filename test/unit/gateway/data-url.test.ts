import { describe, expect, it } from 'vitest'
import { dataUrlBytes, parseDataUrl } from '../../../electron/gateway/formats/data-url.js'

describe('dataUrlBytes', () => {
  it('decodes base64 and percent-encoded payloads, from text or a parsed URL alike', () => {
    expect(dataUrlBytes('data:text/plain;base64,aGVsbG8=')).toEqual({ bytes: Buffer.from('hello'), complete: true })
    expect(dataUrlBytes(parseDataUrl('data:text/plain,h%C3%A9llo%20you')!)).toEqual({ bytes: Buffer.from('héllo you'), complete: true })
  })

  it('decodes only a prefix when asked, and says it did', () => {
    const { bytes, complete } = dataUrlBytes(`data:application/octet-stream;base64,${Buffer.alloc(300, 7).toString('base64')}`, 30)!
    expect(complete).toBe(false)
    expect(bytes).toEqual(Buffer.alloc(30, 7))
  })

  it('is undefined for text that is not a data URL', () => {
    expect(dataUrlBytes('https://example.com/a.png')).toBeUndefined()
    expect(dataUrlBytes('data:no-comma')).toBeUndefined()
  })
})
