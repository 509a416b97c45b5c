import { describe, expect, it } from 'vitest'
import type { RequestLogEntry } from '../../../../../shared/admin'
import { balanceAfter, dayBound, DEFAULT_COLUMNS, EMPTY_FILTERS, logQuery, pageTotals, parseAmount, toggleColumn } from '../../../../../renderer/panels/usage/log-query'

const row = (patch: Partial<RequestLogEntry>): RequestLogEntry => ({
  id: 'r', createdAt: 0, keyId: null, group: null, model: null, endpoint: 'chat.completions', status: 200, errorCode: null,
  upstream: null, inputTokens: null, outputTokens: null, cost: 0, latencyMs: 10, attempts: null, usageSource: null, breakdown: null, ...patch,
})

describe('usage log query', () => {
  it('sends only the filters that are set', () => {
    expect(logQuery(EMPTY_FILTERS, null)).toEqual({
      group: undefined, key: undefined, model: undefined, endpoint: undefined, status: undefined, since: undefined, until: undefined, limit: 50, before: undefined,
    })
  })

  it('maps every filter, whole local days, and the cursor', () => {
    const q = logQuery({ group: 'g1', key: 'k1', model: ' gpt-5.2 ', endpoint: 'chat.completions', status: 'error', since: '2030-03-01', until: '2030-03-02' }, '1700:req_1', 20)
    expect(q).toEqual({
      group: 'g1', key: 'k1', model: 'gpt-5.2', endpoint: 'chat.completions', status: 'error',
      since: new Date(2030, 2, 1).getTime(), until: new Date(2030, 2, 2, 23, 59, 59, 999).getTime(), limit: 20, before: '1700:req_1',
    })
  })

  it('ignores a date that is not one', () => {
    expect(dayBound('yesterday', false)).toBe(undefined)
    expect(logQuery({ ...EMPTY_FILTERS, since: 'x' }, null).since).toBe(undefined)
  })

  it('totals the page', () => {
    expect(pageTotals([
      row({ inputTokens: 10, outputTokens: 5, cost: 0.001 }),
      row({ status: 429, cost: 0 }),
      row({ inputTokens: 3, outputTokens: null, cost: 0.5 }),
    ])).toEqual({ count: 3, errors: 1, inputTokens: 13, outputTokens: 5, cost: 0.501 })
    expect(pageTotals([])).toEqual({ count: 0, errors: 0, inputTokens: 0, outputTokens: 0, cost: 0 })
  })

  it('adds funds or sets the balance', () => {
    expect(balanceAfter(10.1, 'add', 0.2)).toBe(10.3)
    expect(balanceAfter(10, 'set', 25)).toBe(25)
    expect(balanceAfter(-1, 'add', 1)).toBe(0)
    expect(parseAmount('12.5')).toBe(12.5)
    expect(parseAmount('')).toBe(undefined)
    expect(parseAmount('ten')).toBe(undefined)
  })
})

describe('usage log housekeeping and columns', () => {
  it("asks to leave out the app's housekeeping calls only when they are hidden", () => {
    expect(logQuery(EMPTY_FILTERS, null, 50, false).housekeeping).toBe('false')
    expect(logQuery(EMPTY_FILTERS, null, 50, true).housekeeping).toBe(undefined)
  })

  it('toggles columns in table order and never hides the last one', () => {
    expect(toggleColumn(DEFAULT_COLUMNS, 'group')).toEqual(['time', 'group', 'key', 'model', 'status', 'tokens', 'cost', 'latency'])
    expect(toggleColumn(DEFAULT_COLUMNS, 'tokens')).toEqual(['time', 'key', 'model', 'status', 'cost', 'latency'])
    expect(toggleColumn(['cost'], 'cost')).toEqual(['cost'])
    expect(DEFAULT_COLUMNS).toEqual(expect.arrayContaining(['cost', 'latency']))
  })
})
