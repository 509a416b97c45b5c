import { describe, expect, it } from 'vitest'
import { NOT_TEXT, textOfFile } from '../../../electron/gateway/config/text-file.js'

describe('textOfFile: a file as its editor saved it', () => {
  const json = '{"name":"caf\u00e9 \u{1f600}"}'
  it.each([
    ['UTF-8', Buffer.from(json, 'utf8')],
    ['UTF-8 with a byte order mark', Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(json, 'utf8')])],
    ['UTF-16 LE with its mark', Buffer.from(`\ufeff${json}`, 'utf16le')],
    ['UTF-16 BE with its mark', Buffer.from(`\ufeff${json}`, 'utf16le').swap16()],
  ])('%s: the same text, without the mark', (_name, bytes) => {
    expect(textOfFile(bytes)).toBe(json)
  })

  it('an empty file is empty text', () => {
    expect(textOfFile(Buffer.alloc(0))).toBe('')
  })

  it.each([
    ['Latin-1', Buffer.from('caf\xe9', 'latin1')],
    ['UTF-16 without a mark', Buffer.from('{}', 'utf16le').subarray(0, 3)],
    ['a lone continuation byte', Buffer.from([0x7b, 0x80, 0x7d])],
  ])('%s: no text, never one read with replacement characters', (_name, bytes) => {
    expect(textOfFile(bytes)).toBeUndefined()
  })

  it('the refusal follows the file name', () => {
    expect(NOT_TEXT).toBe('is not text (UTF-8, or UTF-16 with a byte order mark)')
  })
})
