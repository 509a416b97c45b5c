import { describe, expect, it } from 'vitest'
import { formatCount, formatMs, formatNumber, formatUsd } from '../../../renderer/format'

describe('formatUsd', () => {
  it('writes two decimals', () => {
    expect(formatUsd(0)).toBe('$0.00')
    expect(formatUsd(1.5)).toBe('$1.50')
    expect(formatUsd(12.345)).toBe('$12.35')
    expect(formatUsd(0.01)).toBe('$0.01')
    expect(formatUsd(-3)).toBe('-$3.00')
  })

  it('keeps two significant digits below a cent, so a small cost never reads $0.00', () => {
    expect(formatUsd(0.0042)).toBe('$0.0042')
    expect(formatUsd(0.00423)).toBe('$0.0042')
    expect(formatUsd(0.00008)).toBe('$0.00008')
    expect(formatUsd(0.005)).toBe('$0.005')
    expect(formatUsd(0.000000001)).toBe('$0.000000001')
    expect(formatUsd(-0.0042)).toBe('-$0.0042')
  })
})

describe('formatCount', () => {
  const requests = { en: { one: '{n} request', other: '{n} requests' }, zh: { other: '{n} 个请求' } }
  it('picks the plural form of the language', () => {
    expect(formatCount('en', 1, requests.en)).toBe('1 request')
    expect(formatCount('en', 0, requests.en)).toBe('0 requests')
    expect(formatCount('en', 1234, requests.en)).toBe('1,234 requests')
    expect(formatCount('zh', 1, requests.zh)).toBe('1 个请求')
    expect(formatCount('zh', 2, requests.zh)).toBe('2 个请求')
  })

  it('falls back to `other` for a form the phrase lacks', () => {
    expect(formatCount('en', 1, { other: '{n} items' })).toBe('1 items')
    expect(formatNumber('zh', 12345)).toBe('12,345')
  })
})

describe('formatMs', () => {
  it('writes one decimal below 10 ms and whole milliseconds from there', () => {
    expect([0, 0.44, 9.96, 10, 1234.5].map(formatMs)).toEqual(['0 ms', '0.4 ms', '10 ms', '10 ms', '1,235 ms'])
  })
})
