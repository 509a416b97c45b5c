import { describe, expect, it } from 'vitest'
import { formatAmount, needsConfirmation, parseConfirmAbove, quoteBody, quoteFigures } from '../../../../renderer/api/quote'

describe('formatAmount', () => {
  it('shows two decimals, and two significant digits below a cent', () => {
    expect(formatAmount(0.2)).toBe('$0.20')
    expect(formatAmount(12.345)).toBe('$12.35')
    expect(formatAmount(0.01)).toBe('$0.01')
    expect(formatAmount(0.0032)).toBe('$0.0032')
    expect(formatAmount(0.005)).toBe('$0.005')
    expect(formatAmount(0.00008)).toBe('$0.00008')
    expect(formatAmount(0.000012345)).toBe('$0.000012')
    expect(formatAmount(0)).toBe('$0.00')
  })
})

describe('quoteFigures', () => {
  it('one price when min equals max; else the expected cost and the most it can cost', () => {
    expect(quoteFigures({ min: 0.2, expected: 0.2, max: 0.2 })).toEqual({ exact: '$0.20' })
    expect(quoteFigures({ min: 0.00011, expected: 0.0101, max: 1.28 })).toEqual({ expected: '$0.01', max: '$1.28' })
    expect(quoteFigures({ min: 0.000016, expected: 0.0003, max: 0.0328 })).toEqual({ expected: '$0.0003', max: '$0.03' })
    // an expected figure that reads as the max is not shown twice
    expect(quoteFigures({ min: 0.01, expected: 0.12, max: 0.12 })).toEqual({ max: '$0.12' })
    // figures that read the same are one price
    expect(quoteFigures({ min: 0.201, expected: 0.203, max: 0.204 })).toEqual({ exact: '$0.20' })
  })
})

describe('needsConfirmation', () => {
  it('asks only when an amount is set and the expected cost is above it (not the worst case)', () => {
    expect(needsConfirmation({ expected: 0.6 }, 0.5)).toBe(true)
    expect(needsConfirmation({ expected: 0.5 }, 0.5)).toBe(false)
    expect(needsConfirmation({ expected: 100 }, null)).toBe(false)
    expect(needsConfirmation(undefined, 0.5)).toBe(false)
    expect(needsConfirmation({ expected: 0.01 }, 0)).toBe(true)
    // a short message that could cost $1.28 at most but is expected at $0.0007
    expect(needsConfirmation({ expected: 0.0007 }, 0.5)).toBe(false)
  })
})

describe('parseConfirmAbove', () => {
  it('reads dollars; empty never asks; anything else is invalid', () => {
    expect(parseConfirmAbove(' 0.50 ')).toBe(0.5)
    expect(parseConfirmAbove('2')).toBe(2)
    expect(parseConfirmAbove('')).toBe(null)
    expect(parseConfirmAbove('-1')).toBeUndefined()
    expect(parseConfirmAbove('1e3')).toBeUndefined()
    expect(parseConfirmAbove('$1')).toBeUndefined()
  })
})

describe('quoteBody', () => {
  it('names the endpoint and carries the request as it would be sent', () => {
    expect(quoteBody('/v1/images/generations', { model: 'm', prompt: 'p', n: 2 })).toEqual({ endpoint: '/v1/images/generations', request: { model: 'm', prompt: 'p', n: 2 } })
  })
})
