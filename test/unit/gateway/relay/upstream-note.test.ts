import { describe, expect, it } from 'vitest'
import { errorBody, GatewayError } from '../../../../electron/gateway/errors.js'
import { exhausted, reasonOfVendorError, type UpstreamFailure } from '../../../../electron/gateway/relay/upstream-failure.js'
import { vendorError } from '../../../../electron/gateway/upstreams/vendor-error.js'

const same = (text: string): string => text
const refusedKey = (): UpstreamFailure => {
  const error = vendorError(401, 'invalid_api_key', 'Incorrect API key provided: sk-ab***yz.')
  error.upstream = { reason: reasonOfVendorError(error.status, error.code), status: 401, message: error.message }
  return { kind: 'status', status: 401, error }
}

describe('the chat-type error body names why the vendor failed (error.upstream)', () => {
  it('a refused key: 502 upstream_error, reason key_refused, the vendor status and its own words', () => {
    const err = exhausted(refusedKey())
    expect(errorBody(err, 'chat', 'en', same)).toEqual({ error: {
      message: 'The model is temporarily unavailable after trying every account (account credentials refused, HTTP 401).',
      type: 'upstream_error', param: null, code: 'upstream_error',
      upstream: { reason: 'key_refused', status: 401, message: 'Incorrect API key provided: sk-ab***yz.' },
    } })
  })

  it('in Chinese the reason is worded in Chinese; only the code HTTP 401 stays', () => {
    expect(exhausted(refusedKey()).localized('zh')).toBe('已尝试所有账户，模型暂时不可用（服务商拒绝了账户凭据，HTTP 401）。')
    expect(exhausted({ kind: 'transport', reason: 'connect' }).localized('zh')).toBe('已尝试所有账户，模型暂时不可用（连接被拒绝）。')
    expect(exhausted({ kind: 'malformed' }).localized('zh')).toBe('已尝试所有账户，模型暂时不可用（无法解析的回答）。')
    expect(exhausted(undefined).localized('zh')).toBe('已尝试所有账户，模型暂时不可用（没有账户回答）。')
  })

  it.each([
    ['unreachable', { kind: 'transport', reason: 'connect' } as UpstreamFailure, 502, 'unreachable'],
    ['reset', { kind: 'transport', reason: 'reset' } as UpstreamFailure, 502, 'unreachable'],
    ['timed out', { kind: 'transport', reason: 'timeout' } as UpstreamFailure, 504, 'timeout'],
    ['empty', { kind: 'empty' } as UpstreamFailure, 502, 'bad_answer'],
    ['no account', undefined, 502, 'no_account'],
  ])('%s: status %i, reason %s, no vendor words', (_, failure, status, reason) => {
    const err = exhausted(failure)
    expect([err.status, err.upstream]).toEqual([status, { reason, status: null, message: null }])
  })

  it('rate limited: 503 with the vendor status 429', () => {
    const error = vendorError(429, 'rate_limit_exceeded', 'Rate limit reached for requests')
    const err = exhausted({ kind: 'status', status: 429, error })
    expect([err.status, err.code, err.upstream]).toEqual([503, 'upstream_unavailable', { reason: 'rate_limited', status: 429, message: 'Rate limit reached for requests' }])
  })

  it.each([
    [400, 'moderation_blocked', 'moderation'], [400, 'OutputVideoSensitiveContentDetected', 'moderation'], [400, 'DataInspectionFailed', 'moderation'],
    [400, '1301', 'moderation'], [400, 'invalid_value', 'vendor_refused'], [403, 'x', 'key_refused'], [529, 'overloaded_error', 'overloaded'], [500, 'x', 'vendor_error'],
  ])('a vendor answer %i %s is %s', (status, code, reason) => {
    expect(reasonOfVendorError(status, code)).toBe(reason)
  })

  it('the vendor words pass the redaction; other protocols keep their shapes', () => {
    const err = exhausted(refusedKey())
    const body = errorBody(err, 'chat', 'en', (t) => t.replaceAll('sk-ab***yz', '[redacted]')) as { error: { upstream: { message: string } } }
    expect(body.error.upstream.message).toBe('Incorrect API key provided: [redacted].')
    expect(errorBody(err, 'messages', 'en', same)).toEqual({ type: 'error', error: { type: 'api_error', message: err.message } })
    expect(Object.keys(errorBody(new GatewayError('invalid_request', { text: 'x' }), 'chat', 'en', same) as object)).toEqual(['error'])
    expect((errorBody(new GatewayError('invalid_request', { text: 'x' }), 'chat', 'en', same) as { error: object }).error).not.toHaveProperty('upstream')
  })
})
