// Kept bodies are stored in batches off the request path, and the oldest pruned now and then (client/capture-writer.ts).
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { BATCH_MS, createBodyWriter, PRUNE_MS, PRUNE_ROWS, type BodyRow, type Bounds } from '../../../../electron/gateway/client/capture-writer.js'

type Put = { ids: string[]; prune: { keep: number; totalBytes: number } | undefined }

function writer(bounds: Bounds = { count: 200, totalBytes: 64 * 1024 * 1024 }, fail = false) {
  const puts: Put[] = []
  const logs: string[] = []
  const store = {
    requestBodies: {
      put: async (rows: readonly BodyRow[], prune: Put['prune']) => {
        if (fail) throw new Error('disk full')
        puts.push({ ids: rows.map((r) => r.request_id), prune })
      },
    },
  }
  const w = createBodyWriter(store as never, () => bounds, (l) => logs.push(l))
  return { w, puts, logs }
}

const row = (id: string, bytes = 100): BodyRow => ({ request_id: id, created_at: 1, bytes, request: '{}', answer: '{}' })

beforeEach(() => void vi.useFakeTimers())
afterEach(() => void vi.useRealTimers())

describe('the body writer', () => {
  it('stores nothing on the request path: rows wait for one batch of their own', async () => {
    const { w, puts } = writer()
    for (const id of ['a', 'b', 'c']) w.queue(row(id))
    expect(puts).toEqual([])
    await vi.advanceTimersByTimeAsync(BATCH_MS)
    expect(puts).toEqual([{ ids: ['a', 'b', 'c'], prune: undefined }])
  })

  it('prunes once PRUNE_ROWS were stored since the last time, in the batch that reaches it', async () => {
    const { w, puts } = writer({ count: 7, totalBytes: 1_000_000 })
    // Seven at a time: never more waiting than the newest N.
    for (let i = 0; i < PRUNE_ROWS; i++) {
      w.queue(row(`r${i}`))
      if (i % 7 === 6) await vi.advanceTimersByTimeAsync(BATCH_MS)
    }
    await vi.advanceTimersByTimeAsync(BATCH_MS)
    const pruned = puts.filter((p) => p.prune !== undefined)
    expect(pruned).toEqual([{ ids: [`r${PRUNE_ROWS - 4}`, `r${PRUNE_ROWS - 3}`, `r${PRUNE_ROWS - 2}`, `r${PRUNE_ROWS - 1}`], prune: { keep: 7, totalBytes: 1_000_000 } }])
    expect(puts.flatMap((p) => p.ids)).toHaveLength(PRUNE_ROWS)
  })

  it('prunes PRUNE_MS after a body was stored when no more come', async () => {
    const { w, puts } = writer({ count: 3, totalBytes: 1_000_000 })
    w.queue(row('a'))
    await vi.advanceTimersByTimeAsync(BATCH_MS)
    expect(puts).toEqual([{ ids: ['a'], prune: undefined }])
    await vi.advanceTimersByTimeAsync(PRUNE_MS)
    expect(puts).toEqual([{ ids: ['a'], prune: undefined }, { ids: [], prune: { keep: 3, totalBytes: 1_000_000 } }])
    // Nothing stored since: no more prunes.
    await vi.advanceTimersByTimeAsync(PRUNE_MS * 3)
    expect(puts).toHaveLength(2)
  })

  it('stores what waits and prunes on flush, so the bounds hold exactly once it resolves', async () => {
    const { w, puts } = writer({ count: 2, totalBytes: 1_000_000 })
    w.queue(row('a'))
    w.queue(row('b'))
    await w.flush()
    expect(puts).toEqual([{ ids: ['a', 'b'], prune: { keep: 2, totalBytes: 1_000_000 } }])
    // Nothing stored since the last prune and nothing waiting: a flush writes nothing.
    await w.flush()
    expect(puts).toHaveLength(1)
  })

  it('keeps waiting only what the bounds would keep: the newest N, within the total', async () => {
    const counted = writer({ count: 3, totalBytes: 1_000_000 })
    for (const id of ['a', 'b', 'c', 'd', 'e']) counted.w.queue(row(id))
    await counted.w.flush()
    expect(counted.puts).toEqual([{ ids: ['c', 'd', 'e'], prune: { keep: 3, totalBytes: 1_000_000 } }])
    const sized = writer({ count: 100, totalBytes: 250 })
    for (const id of ['a', 'b', 'c', 'd']) sized.w.queue(row(id, 100))
    await sized.w.flush()
    expect(sized.puts).toEqual([{ ids: ['c', 'd'], prune: { keep: 100, totalBytes: 250 } }])
  })

  it('logs a batch the store refused, and a flush still resolves', async () => {
    const { w, logs } = writer(undefined, true)
    w.queue(row('a'))
    await expect(w.flush()).resolves.toBeUndefined()
    expect(logs).toEqual(['[gatehouse] keeping the bodies of 1 request(s) failed: disk full'])
  })
})
