import { describe, expect, it } from 'vitest'
import { ALLOWED_PERMISSIONS, frameMayLoad, isExternalHttpUrl, isSameOrigin, navigationAction, windowOpenAction, withFallbackCsp } from '../../../electron/window-policy.js'

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

describe('navigationAction', () => {
  it.each([
    [`${ORIGIN}/`, 'allow'],
    [`${ORIGIN}/admin/login?code=x`, 'allow'],
    ['http://127.0.0.1:8788/', 'open-outside'],
    ['https://platform.openai.com/docs', 'open-outside'],
    ['file:///etc/passwd', 'deny'],
    ['javascript:alert(1)', 'deny'],
    ['devtools://devtools/bundled/inspector.html', 'deny'],
  ])('%s → %s', (url, expected) => expect(navigationAction(url, ORIGIN)).toBe(expected))

  it('lets nothing stay before the gateway runs', () => {
    expect(navigationAction(`${ORIGIN}/`, undefined)).toBe('open-outside')
    expect(navigationAction('file:///x', undefined)).toBe('deny')
  })
})

describe('windowOpenAction', () => {
  it.each([
    [`${ORIGIN}/`, 'deny'],
    ['https://example.com/a', 'open-outside'],
    ['about:blank', 'deny'],
    ['smb://host/share', 'deny'],
  ])('%s → %s', (url, expected) => expect(windowOpenAction(url, ORIGIN)).toBe(expected))
})

describe('frameMayLoad', () => {
  it.each([
    [`${ORIGIN}/admin/v1/media/x`, true],
    ['http://127.0.0.1:8788/', false],
    ['http://localhost:8787/', false],
    ['https://example.com/', false],
    ['about:blank', false],
    ['data:text/html,<p>x', false],
  ])('%s → %s', (url, expected) => expect(frameMayLoad(url, ORIGIN)).toBe(expected))

  it('refuses everything without a gateway', () => {
    expect(frameMayLoad(`${ORIGIN}/`, undefined)).toBe(false)
  })
})
