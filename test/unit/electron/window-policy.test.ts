import { describe, expect, it } from 'vitest'
import { ALLOWED_PERMISSIONS, isExternalHttpUrl, isSameOrigin, withFallbackCsp } from '../../../electron/window-policy.js'

const ORIGIN = 'http://127.0.0.1:8787'

describe('isSameOrigin', () => {
  it.each([
    ['http://127.0.0.1:8787/', true],
    ['http://127.0.0.1:8787/admin/login?code=x', true],
    ['http://127.0.0.1:8788/', false],
    ['http://localhost:8787/', false],
    ['https://127.0.0.1:8787/', false],
    ['file:///etc/passwd', false],
    ['not a url', false],
  ])('%s → %s', (url, expected) => expect(isSameOrigin(url, ORIGIN)).toBe(expected))
})

describe('isExternalHttpUrl', () => {
  it.each([
    ['https://platform.openai.com/docs', true],
    ['http://example.com', true],
    ['file:///etc/passwd', false],
    ['javascript:alert(1)', false],
    ['smb://host/share', false],
    ['', false],
  ])('%s → %s', (url, expected) => expect(isExternalHttpUrl(url)).toBe(expected))
})

describe('withFallbackCsp', () => {
  it('adds the policy when the response has none', () => {
    expect(withFallbackCsp({ 'Content-Type': ['text/html'] }, "default-src 'self'")).toEqual({
      'Content-Type': ['text/html'],
      'Content-Security-Policy': ["default-src 'self'"],
    })
    expect(withFallbackCsp(undefined, 'x')).toEqual({ 'Content-Security-Policy': ['x'] })
  })
  it("keeps the gateway's own policy, whatever the header's case", () => {
    const headers = { 'content-security-policy': ["default-src 'none'"] }
    expect(withFallbackCsp(headers, "default-src 'self'")).toBe(headers)
  })
})

describe('ALLOWED_PERMISSIONS', () => {
  it('holds only sanitized clipboard writes', () => {
    expect([...ALLOWED_PERMISSIONS]).toEqual(['clipboard-sanitized-write'])
  })
})
