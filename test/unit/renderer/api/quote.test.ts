import { describe, expect, it } from 'vitest'
import { formatAmount, formatQuote, needsConfirmation, parseConfirmAbove, quoteBody } from '../../../../renderer/api/quote'

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

describe('formatQuote', () => {
  it('one price when min equals max, else an approximate range', () => {
    expect(formatQuote({ min: 0.2, max: 0.2 })).toBe('$0.20')
    expect(formatQuote({ min: 0.01, max: 0.12 })).toBe('≈ $0.01–$0.12')
    expect(formatQuote({ min: 0.000016, max: 0.0328 })).toBe('≈ $0.000016–$0.03')
    // figures that read the same are one price
    expect(formatQuote({ min: 0.201, max: 0.204 })).toBe('$0.20')
  })
})

describe('needsConfirmation', () => {
  it('asks only when an amount is set and the quoted maximum is above it', () => {
    expect(needsConfirmation({ max: 0.6 }, 0.5)).toBe(true)
    expect(needsConfirmation({ max: 0.5 }, 0.5)).toBe(false)
    expect(needsConfirmation({ max: 100 }, null)).toBe(false)
    expect(needsConfirmation(undefined, 0.5)).toBe(false)
    expect(needsConfirmation({ max: 0.01 }, 0)).toBe(true)
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
