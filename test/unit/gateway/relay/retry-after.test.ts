import { describe, expect, it } from 'vitest'
import { MAX_RETRY_DELAY_MS, parseDuration, parseRetryAfter, retryDelayOf } from '../../../../electron/gateway/relay/retry-after.js'

const NOW = Date.parse('2026-03-01T12:00:00Z')
const geminiBody = (retryDelay: unknown) => JSON.stringify({
  error: {
    code: 429, status: 'RESOURCE_EXHAUSTED', message: 'Quota exceeded',
    details: [
      { '@type': 'type.googleapis.com/google.rpc.QuotaFailure', violations: [{ quotaId: 'GenerateRequestsPerMinute' }] },
      { '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay },
    ],
  },
})

describe('retry delays an error answer asks for', () => {
  it.each([
    ['Retry-After in seconds', { 'retry-after': '2' }, 2000],
    ['Retry-After in decimal seconds', { 'retry-after': '1.5' }, 1500],
    ['Retry-After as an HTTP date (IMF-fixdate)', { 'retry-after': 'Sun, 01 Mar 2026 12:00:07 GMT' }, 7000],
    ['Retry-After as an RFC 850 date', { 'retry-after': 'Sunday, 01-Mar-26 12:00:03 GMT' }, 3000],
    ['Retry-After as a date already past', { 'retry-after': 'Sun, 01 Mar 2026 11:59:00 GMT' }, 0],
    ['Retry-After-Ms, which wins over Retry-After', { 'retry-after-ms': '350', 'retry-after': '9' }, 350],
    ['Retry-After-Ms in decimals', { 'retry-after-ms': '12.5' }, 12.5],
    ['a header repeated: the first', { 'retry-after': ['4', '8'] }, 4000],
    ['a delay past a day, cut to a day', { 'retry-after': '999999999' }, MAX_RETRY_DELAY_MS],
  ])('%s', (_, headers, ms) => {
    expect(retryDelayOf(headers, '', NOW)).toBe(ms)
  })

  it.each([
    ['no header', {}],
    ['a negative number', { 'retry-after': '-3' }],
    ['garbage', { 'retry-after': 'soon' }],
    ['a bad Retry-After-Ms falls back to nothing else', { 'retry-after-ms': 'x' }],
    ["OpenAI's x-ratelimit-reset-requests (a quota window, not a retry delay)", { 'x-ratelimit-reset-requests': '1s', 'x-ratelimit-reset-tokens': '6m0s' }],
    ["Anthropic's ratelimit reset time", { 'anthropic-ratelimit-requests-reset': '2026-03-01T12:00:30Z' }],
  ])('none from %s', (_, headers) => {
    expect(retryDelayOf(headers, '', NOW)).toBeUndefined()
  })

  it("reads Gemini's RetryInfo from the body", () => {
    expect(retryDelayOf({}, geminiBody('34.4s'), NOW)).toBe(34_400)
    expect(retryDelayOf({}, geminiBody('23s'), NOW)).toBe(23_000)
    // some streams wrap the error in an array
    expect(retryDelayOf({}, `[${geminiBody('5s')}]`, NOW)).toBe(5000)
  })

  it('a header wins over the body', () => {
    expect(retryDelayOf({ 'retry-after': '1' }, geminiBody('34.4s'), NOW)).toBe(1000)
  })

  it.each([
    ['an unparsable body', '{"error": retryDelay'],
    ['a RetryInfo without a duration', geminiBody(12)],
    ['a retryDelay outside a RetryInfo', JSON.stringify({ error: { details: [{ '@type': 'type.googleapis.com/google.rpc.Help', retryDelay: '3s' }] } })],
    ['no details', JSON.stringify({ error: { message: 'retryDelay' } })],
  ])('no delay from %s', (_, text) => {
    expect(retryDelayOf({}, text, NOW)).toBeUndefined()
  })

  it('parses the two forms on their own', () => {
    expect(parseRetryAfter('0', NOW)).toBe(0)
    expect(parseRetryAfter('Sun Mar  1 12:00:10 2026', NOW)).toBe(parseRetryAfter('Sun, 01 Mar 2026 12:00:10 GMT', NOW))
    expect(parseDuration('0.5s')).toBe(500)
    expect(parseDuration('5m')).toBeUndefined()
  })
})
