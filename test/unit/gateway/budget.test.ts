import { describe, expect, it } from 'vitest'
import { accountBudget, budgetFigures, fundsVerdict, upstreamCapReached, type Budget } from '../../../electron/gateway/money/budget.js'

const none: Budget = { budgetNano: null, spentNano: 0, reservedNano: 0 }
const budget = (budgetNano: number | null, spentNano: number, reservedNano = 0): Budget => ({ budgetNano, spentNano, reservedNano })

describe('fundsVerdict: an amount reserved (a request\'s worst case, a video\'s largest cost)', () => {
  it('with no budget any amount is allowed, however much was spent or is held', () => {
    expect(fundsVerdict(budget(null, 5e12, 9e12), none, 1e15)).toEqual({ allowed: true })
    expect(fundsVerdict(none, none, 1e15)).toEqual({ allowed: true })
  })
  it('needs the whole amount left: exactly enough passes, one nano short is refused', () => {
    expect(fundsVerdict(budget(1000, 200, 300), none, 500)).toEqual({ allowed: true })
    expect(fundsVerdict(budget(1000, 200, 301), none, 500)).toEqual({ allowed: false, limit: 'balance', availableNano: 499 })
  })
  it('a budget spent to zero refuses any cost; one overspent says how far below zero it is', () => {
    expect(fundsVerdict(budget(1000, 1000), none, 1)).toEqual({ allowed: false, limit: 'balance', availableNano: 0 })
    expect(fundsVerdict(budget(1000, 1500), none, 1)).toEqual({ allowed: false, limit: 'balance', availableNano: -500 })
  })
  it('a request that costs nothing fits a budget with nothing left', () => {
    expect(fundsVerdict(budget(1000, 1000), none, 0)).toEqual({ allowed: true })
  })
  it('a key quota less its own reservations must cover it', () => {
    expect(fundsVerdict(none, budget(1000, 0, 600), 500)).toEqual({ allowed: false, limit: 'key', availableNano: 400 })
    expect(fundsVerdict(none, budget(1000, 0, 500), 500)).toEqual({ allowed: true })
  })
  it('the account is checked before the key', () => {
    expect(fundsVerdict(budget(10, 10), budget(100, 100), 1)).toMatchObject({ limit: 'balance' })
  })
})

describe('the account as stored (balance = budget less spent)', () => {
  it('with a budget: spent is budget less balance; the figures in USD', () => {
    const account = { budgetNano: 50e9, balanceNano: 30e9, reservedNano: 1e9 }
    expect(accountBudget(account)).toEqual({ budgetNano: 50e9, spentNano: 20e9, reservedNano: 1e9 })
    expect(budgetFigures(account)).toEqual({ budget: 50, spent: 20, remaining: 30, balance: 30, available: 29 })
  })
  it('without a budget: balance counts down from 0, remaining is null and balance shows 0', () => {
    const account = { budgetNano: null, balanceNano: -2.5e9, reservedNano: 0 }
    expect(accountBudget(account)).toEqual({ budgetNano: null, spentNano: 2.5e9, reservedNano: 0 })
    expect(budgetFigures(account)).toEqual({ budget: null, spent: 2.5, remaining: null, balance: 0, available: null })
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
