import { describe, expect, it } from 'vitest'
import { IpcError } from '../../../../electron/ipc/result.js'
import { MAX_TEXT, parseHttpUrl, parseNone, parseText } from '../../../../electron/ipc/validate.js'

const code = (fn: () => unknown) => {
  try {
    fn()
  } catch (err) {
    return err instanceof IpcError ? err.code : 'not an IpcError'
  }
  return 'no error'
}

describe('parseNone', () => {
  it('takes nothing', () => {
    expect(code(() => parseNone(undefined))).toBe('no error')
    expect(code(() => parseNone(null))).toBe('no error')
    expect(code(() => parseNone({ x: 1 }))).toBe('IPC_INVALID_PAYLOAD')
  })
})

describe('parseText', () => {
  it('takes a string up to the limit, and only the text field', () => {
    expect(parseText({ text: 'hi', extra: true })).toEqual({ text: 'hi' })
    expect(parseText({ text: 'x'.repeat(MAX_TEXT) }).text).toHaveLength(MAX_TEXT)
  })
  it.each([[{ text: 'x'.repeat(MAX_TEXT + 1) }], [{ text: 5 }], ['plain string'], [null], [[{ text: 'a' }]]])('refuses %#', (payload) => {
    expect(code(() => parseText(payload))).toBe('IPC_INVALID_PAYLOAD')
  })
})

describe('parseHttpUrl', () => {
  it('takes http and https URLs, normalised', () => {
    expect(parseHttpUrl({ url: 'https://example.com' })).toEqual({ url: 'https://example.com/' })
    expect(parseHttpUrl({ url: 'http://127.0.0.1:8787/docs' })).toEqual({ url: 'http://127.0.0.1:8787/docs' })
  })
  it.each([
    [{ url: 'file:///etc/passwd' }],
    [{ url: 'javascript:alert(1)' }],
    [{ url: 'ms-settings:' }],
    [{ url: '/relative/path' }],
    [{ url: `https://example.com/${'a'.repeat(9000)}` }],
    [{ url: 42 }],
    [undefined],
  ])('refuses %#', (payload) => {
    expect(code(() => parseHttpUrl(payload))).toBe('IPC_INVALID_PAYLOAD')
  })
})
