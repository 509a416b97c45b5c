import { describe, expect, it } from 'vitest'
import {
  createSessionTokens, isAdminPath, isSessionEnded, SESSION_TOKEN_KEY, tokenFromFragment, withMediaToken, withSessionHeader, type TokenStorage,
} from '../../../../renderer/api/admin-session'
import { ApiError } from '../../../../renderer/api/http'

const mapStorage = (): TokenStorage & { map: Map<string, string> } => {
  const map = new Map<string, string>()
  return { map, getItem: (k) => map.get(k) ?? null, setItem: (k, v) => void map.set(k, v), removeItem: (k) => void map.delete(k) }
}

describe('tokenFromFragment', () => {
  it.each([
    ['#session=abc-DEF_123', 'abc-DEF_123', ''],
    ['session=abc', 'abc', ''],
    ['#session=abc&tab=video', 'abc', '#tab=video'],
    ['#tab=video&session=abc', 'abc', '#tab=video'],
    ['#session=', undefined, ''],
  ])('%s → token %s, keeps %s', (hash, token, rest) => {
    expect(tokenFromFragment(hash)).toEqual({ ...(token ? { token } : {}), rest })
  })

  it('leaves a fragment without a session as it is', () => {
    expect(tokenFromFragment('')).toEqual({ rest: '' })
    expect(tokenFromFragment('#tab=video')).toEqual({ rest: '#tab=video' })
  })
})

describe('withSessionHeader', () => {
  it('adds the header to admin paths, keeping the other headers', () => {
    const init = withSessionHeader('/admin/v1/keys', { method: 'POST', headers: { 'content-type': 'application/json' } }, 'tok')
    expect(init.method).toBe('POST')
    const headers = new Headers(init.headers)
    expect(headers.get('x-gatehouse-session')).toBe('tok')
    expect(headers.get('content-type')).toBe('application/json')
  })

  it('never sends the token anywhere else, and sends nothing without one', () => {
    const init = { headers: { a: 'b' } }
    for (const url of ['/v1/chat/completions', 'https://vendor.example/admin/v1/media/x', '//evil.example/admin/v1/keys', '/admin/v10', '/api/v1/models/pricing']) {
      expect(withSessionHeader(url, init, 'tok')).toBe(init)
    }
    expect(withSessionHeader('/admin/v1/keys', init, undefined)).toBe(init)
    expect(isAdminPath('/admin/v1/keys')).toBe(true)
  })
})

describe('withMediaToken', () => {
  it('puts the media token in the query of kept-media URLs only', () => {
    expect(withMediaToken('/admin/v1/media/req-1-0', 'm t')).toBe('/admin/v1/media/req-1-0?media_token=m%20t')
    expect(withMediaToken('/admin/v1/media/x?a=1', 'm')).toBe('/admin/v1/media/x?a=1&media_token=m')
    expect(withMediaToken('/admin/v1/keys', 'm')).toBe('/admin/v1/keys')
    expect(withMediaToken('https://vendor.example/a.png', 'm')).toBe('https://vendor.example/a.png')
    expect(withMediaToken('blob:http://127.0.0.1/1', 'm')).toBe('blob:http://127.0.0.1/1')
    expect(withMediaToken('/admin/v1/media/x', null)).toBe('/admin/v1/media/x')
  })
})

describe('isSessionEnded', () => {
  it('is true for a 401 only', () => {
    expect(isSessionEnded(new ApiError(401, 'admin_unauthorized', 'x'))).toBe(true)
    expect(isSessionEnded(new ApiError(403, 'origin_not_allowed', 'x'))).toBe(false)
    expect(isSessionEnded(new Error('network'))).toBe(false)
  })
})

describe('createSessionTokens', () => {
  it('keeps the session token in the storage given, and the media token in memory', () => {
    const storage = mapStorage()
    const tokens = createSessionTokens(storage)
    expect(tokens.token()).toBeUndefined()
    tokens.save('tok')
    tokens.setMediaToken('media')
    expect(storage.map.get(SESSION_TOKEN_KEY)).toBe('tok')
    expect(createSessionTokens(storage).token()).toBe('tok') // a reload reads it back
    expect(tokens.mediaToken()).toBe('media')
    tokens.clear()
    expect(storage.map.size).toBe(0)
    expect([tokens.token(), tokens.mediaToken()]).toEqual([undefined, null])
  })

  it('keeps it in memory without storage', () => {
    const tokens = createSessionTokens(undefined)
    tokens.save('tok')
    expect(tokens.token()).toBe('tok')
    tokens.clear()
    expect(tokens.token()).toBeUndefined()
  })
})
