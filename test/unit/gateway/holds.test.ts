import { describe, expect, it } from 'vitest'
import type { CatalogModel } from '../../../shared/types.js'
import { largestFittingCap, usdText } from '../../../electron/gateway/billing/holds.js'
import { createStore } from '../../../electron/gateway/store/index.js'
import { tempDataDir } from '../../helpers/gateway.js'

// 2 USD per 1M input tokens, 8 per 1M output: 2000 and 8000 nano-USD a token.
const model = { id: 'm', family: 'gpt', vendor: 'openai', pricing: { unit: 'token', input: 2, output: 8 } } as unknown as CatalogModel
const quote = (inputTokens: number, cap: number, n?: number) => ({
  minNano: inputTokens * 2000,
  maxNano: inputTokens * 2000 + cap * 8000 * (n ?? 1),
  basis: { input_tokens: inputTokens, max_output_tokens: cap, output_cap: 'max_tokens', ...(n === undefined ? {} : { n }) },
})

describe('largestFittingCap: the largest output cap whose worst case fits what is left', () => {
  it('exactly at the boundary: the cap whose worst case equals what is left fits, one nano less does not', () => {
    // 10 input tokens (20,000) + 100 output tokens (800,000) = 820,000
    expect(largestFittingCap(model, quote(10, 4096), 820_000)).toBe(100)
    expect(largestFittingCap(model, quote(10, 4096), 819_999)).toBe(99)
  })
  it('never above the cap the request asked for', () => {
    expect(largestFittingCap(model, quote(10, 50), 1e12)).toBe(50)
  })
  it('each of n answers takes the cap; the prompt is billed once', () => {
    // 20,000 + 4 × 25 × 8000 = 820,000
    expect(largestFittingCap(model, quote(10, 4096, 4), 820_000)).toBe(25)
  })
  it('0 when the prompt alone does not fit', () => {
    expect(largestFittingCap(model, quote(10, 4096), 19_999)).toBe(0)
    expect(largestFittingCap(model, quote(10, 4096), -5)).toBe(0)
  })
  it('undefined for a model not priced by tokens, or a quote that counted no tokens', () => {
    const images = { ...model, pricing: { unit: 'image', price: 0.04 } } as unknown as CatalogModel
    expect(largestFittingCap(images, quote(10, 4096), 1e9)).toBeUndefined()
    expect(largestFittingCap(model, { minNano: 1, maxNano: 1, basis: { characters: 3 } }, 1e9)).toBeUndefined()
  })
})

describe('usdText: amounts as the 402 writes them', () => {
  it('nano-dollar digits, trailing zeros dropped, never negative', () => {
    expect(usdText(4_006_000)).toBe('0.004006')
    expect(usdText(1)).toBe('0.000000001')
    expect(usdText(40_000_000)).toBe('0.04')
    expect(usdText(3_000_000_000)).toBe('3')
    expect(usdText(0)).toBe('0')
    expect(usdText(-900_000)).toBe('0')
  })
})

describe('the ledger says when the store lags a charge past its hold', () => {
  const row = (id: string, cost: number, held?: number) => ({
    id, key_id: null, group_id: null, model: 'm', endpoint: 'chat.completions', status: 200, error_code: null, upstream_id: null,
    input_tokens: 1, output_tokens: 1, usage: null, cost_nano: cost, latency_ms: 1, created_at: 0, ...(held === undefined ? {} : { held }),
  })

  it('a queued row that costs more than it held (or held nothing) until it is committed; one within its hold never', async () => {
    const dir = tempDataDir()
    const store = createStore(dir.dir, () => {})
    try {
      store.ledger.enqueue(row('req_within', 500, 800))
      expect(store.ledger.chargesPastHolds()).toBe(false)
      store.ledger.enqueue(row('req_over', 900, 800))
      expect(store.ledger.chargesPastHolds()).toBe(true)
      await store.ledger.flush()
      expect(store.ledger.chargesPastHolds()).toBe(false)
      store.ledger.enqueue(row('req_unheld', 1))
      expect(store.ledger.chargesPastHolds()).toBe(true)
      // Until the commit that takes it has ended.
      const committing = store.ledger.flush()
      expect(store.ledger.chargesPastHolds()).toBe(true)
      await committing
      expect(store.ledger.chargesPastHolds()).toBe(false)
    } finally {
      await store.close()
      dir.remove()
    }
  })
})

describe('one process\'s funds check keeps its rows between writes, and reads them again after any', () => {
  it('sees a change stored since its last read at once: a ledger charge, an admin edit', async () => {
    const dir = tempDataDir()
    const store = createStore(dir.dir, () => {})
    const hold = (id: string, amountNano: number) => ({ id, keyId: 'k_none', amountNano, upstreamIds: [] })
    try {
      await store.sql.run('UPDATE account SET budget_nano = 1000, balance_nano = 1000 WHERE id = 1')
      expect(await store.holds.take(hold('r1', 600))).toEqual({ kind: 'held' })
      // Held in memory: the second check counts it without a write between (the rows it read still stand).
      expect(await store.holds.take(hold('r2', 600))).toEqual({ kind: 'insufficient', limit: 'balance', availableNano: 400 })
      expect(await store.holds.release('r1')).toBe(1)
      expect(await store.holds.take(hold('r3', 600))).toEqual({ kind: 'held' })
      await store.holds.release('r3')
      // A charge committed by the ledger lowers the balance: the next check reads it.
      store.ledger.enqueue({
        id: 'req_charged', key_id: null, group_id: null, model: 'm', endpoint: 'chat.completions', status: 200, error_code: null,
        upstream_id: null, input_tokens: 1, output_tokens: 1, usage: null, cost_nano: 500, latency_ms: 1, created_at: 0,
      })
      await store.ledger.flush()
      expect(await store.holds.take(hold('r4', 600))).toEqual({ kind: 'insufficient', limit: 'balance', availableNano: 500 })
      // So does an edit of the budget.
      await store.sql.run('UPDATE account SET balance_nano = 700 WHERE id = 1')
      expect(await store.holds.take(hold('r5', 600))).toEqual({ kind: 'held' })
      await store.holds.release('r5')
      // And a write that was rolled back: the rows read inside it are not kept.
      await expect(store.sql.transaction(async (tx) => {
        await tx.run('UPDATE account SET balance_nano = 10000 WHERE id = 1')
        await tx.get('SELECT balance_nano FROM account WHERE id = 1')
        throw new Error('undone')
      })).rejects.toThrow('undone')
      expect(await store.holds.take(hold('r6', 800))).toEqual({ kind: 'insufficient', limit: 'balance', availableNano: 700 })
    } finally {
      await store.close()
      dir.remove()
    }
  })
})
