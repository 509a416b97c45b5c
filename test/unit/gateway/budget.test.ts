import { describe, expect, it } from 'vitest'
import { accountBudget, budgetFigures, fundsVerdict, upstreamCapReached, type Budget } from '../../../electron/gateway/money/budget.js'

const none: Budget = { budgetNano: null, spentNano: 0, reservedNano: 0 }
const budget = (budgetNano: number | null, spentNano: number, reservedNano = 0): Budget => ({ budgetNano, spentNano, reservedNano })

describe('fundsVerdict: requests billed afterwards', () => {
  it('with no budget nothing is refused, however much was spent or is held', () => {
    expect(fundsVerdict(budget(null, 5e12, 9e12), none, null)).toEqual({ allowed: true })
  })
  it('a budget with a positive amount left allows the request', () => {
    expect(fundsVerdict(budget(1000, 999), none, null)).toEqual({ allowed: true })
  })
  it('a budget spent to zero refuses with insufficient_balance', () => {
    expect(fundsVerdict(budget(1000, 1000), none, null)).toEqual({ allowed: false, limit: 'balance', availableNano: 0, messageId: 'insufficient_balance' })
  })
  it('a budget overspent by the last request refuses and says how far below zero it is', () => {
    expect(fundsVerdict(budget(1000, 1500), none, null)).toEqual({ allowed: false, limit: 'balance', availableNano: -500, messageId: 'insufficient_balance' })
  })
  it('reservations count against the budget', () => {
    expect(fundsVerdict(budget(1000, 400, 600), none, null)).toMatchObject({ allowed: false, limit: 'balance', messageId: 'insufficient_balance' })
    expect(fundsVerdict(budget(1000, 400, 599), none, null)).toEqual({ allowed: true })
  })
  it('a budget of zero refuses', () => {
    expect(fundsVerdict(budget(0, 0), none, null)).toMatchObject({ allowed: false, messageId: 'insufficient_balance' })
  })
  it('a key quota used up refuses with insufficient_key_quota, with no account budget', () => {
    expect(fundsVerdict(none, budget(100, 100), null)).toEqual({ allowed: false, limit: 'key', availableNano: 0, messageId: 'insufficient_key_quota' })
  })
  it('the account is checked before the key', () => {
    expect(fundsVerdict(budget(10, 10), budget(100, 100), null)).toMatchObject({ limit: 'balance' })
  })
})

describe('fundsVerdict: a reservation (video)', () => {
  it('with no budget any amount is allowed', () => {
    expect(fundsVerdict(none, none, 1e15)).toEqual({ allowed: true })
  })
  it('needs the whole amount left: exactly enough passes, one nano short is refused', () => {
    expect(fundsVerdict(budget(1000, 200, 300), none, 500)).toEqual({ allowed: true })
    expect(fundsVerdict(budget(1000, 200, 301), none, 500)).toEqual({ allowed: false, limit: 'balance', availableNano: 499, messageId: 'video_reservation_insufficient' })
  })
  it('a key quota less its own reservations must cover it', () => {
    expect(fundsVerdict(none, budget(1000, 0, 600), 500)).toEqual({ allowed: false, limit: 'key', availableNano: 400, messageId: 'video_reservation_key_quota' })
  })
})

describe('the account as stored (balance = budget less spent)', () => {
  it('with a budget: spent is budget less balance; the figures in USD', () => {
    const account = { budgetNano: 50e9, balanceNano: 30e9, reservedNano: 1e9 }
    expect(accountBudget(account)).toEqual({ budgetNano: 50e9, spentNano: 20e9, reservedNano: 1e9 })
    expect(budgetFigures(account)).toEqual({ budget: 50, spent: 20, remaining: 30, balance: 30 })
  })
  it('without a budget: balance counts down from 0, remaining is null and balance shows 0', () => {
    const account = { budgetNano: null, balanceNano: -2.5e9, reservedNano: 0 }
    expect(accountBudget(account)).toEqual({ budgetNano: null, spentNano: 2.5e9, reservedNano: 0 })
    expect(budgetFigures(account)).toEqual({ budget: null, spent: 2.5, remaining: null, balance: 0 })
  })
})

describe('upstreamCapReached', () => {
  it('no cap is never reached; a cap is reached once spent is at or above it', () => {
    expect(upstreamCapReached({ budgetNano: null, spentNano: 1e15 })).toBe(false)
    expect(upstreamCapReached({})).toBe(false)
    expect(upstreamCapReached({ budgetNano: 100, spentNano: 99 })).toBe(false)
    expect(upstreamCapReached({ budgetNano: 100, spentNano: 100 })).toBe(true)
    expect(upstreamCapReached({ budgetNano: 0, spentNano: 0 })).toBe(true)
  })
})
