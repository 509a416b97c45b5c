/**
 * Stores kept bodies (capture.ts) off the request path. A request only queues its row; rows are inserted in one
 * transaction per BATCH_MS (or as soon as BATCH_ROWS wait), one batch at a time. The oldest bodies beyond the
 * newest N, or past the total, are forgotten in a batch's transaction once PRUNE_ROWS bodies or PRUNE_BYTES were
 * stored since the last time, at the latest PRUNE_MS after a body was stored, and always on `flush`: once a flush
 * resolves both bounds hold exactly; in between the store holds at most PRUNE_ROWS - 1 bodies and PRUNE_BYTES more.
 */
import type { RequestBodyRow } from '../store/request-bodies.js'
import type { Store } from '../store/index.js'

export type BodyRow = Omit<RequestBodyRow, 'replay_of'>

/** Rows wait at most this long to be stored. */
export const BATCH_MS = 10
const BATCH_ROWS = 64
export const PRUNE_ROWS = 32
export const PRUNE_BYTES = 4 * 1024 * 1024
export const PRUNE_MS = 1000

export interface Bounds {
  /** the newest N kept */
  count: number
  /** bytes in all */
  totalBytes: number
}

export interface BodyWriter {
  /** Queues a row (never waits on the store). */
  queue(row: BodyRow): void
  /** Resolves once every row queued before it is stored and the bounds hold exactly. */
  flush(): Promise<void>
}

export function createBodyWriter(store: Pick<Store, 'requestBodies'>, bounds: () => Bounds, log: (line: string) => void): BodyWriter {
  let queued: BodyRow[] = []
  let queuedBytes = 0
  // Stored since the last prune.
  let unprunedRows = 0
  let unprunedBytes = 0
  let batchTimer: NodeJS.Timeout | undefined
  let pruneTimer: NodeJS.Timeout | undefined
  // Batches run one at a time: `tail` is the last one's end (never rejects).
  let tail: Promise<void> = Promise.resolve()

  const write = async (forcePrune: boolean): Promise<void> => {
    const rows = queued
    queued = []
    queuedBytes = 0
    if (rows.length === 0 && unprunedRows === 0) return
    const stored = unprunedRows + rows.length
    const storedBytes = unprunedBytes + rows.reduce((sum, r) => sum + r.bytes, 0)
    const prune = forcePrune || stored >= PRUNE_ROWS || storedBytes >= PRUNE_BYTES
    const { count, totalBytes } = bounds()
    try {
      await store.requestBodies.put(rows, prune ? { keep: count, totalBytes } : undefined)
    } catch (err) {
      log(`[gatehouse] keeping the bodies of ${rows.length} request(s) failed: ${(err as Error).message}`)
      return
    }
    unprunedRows = prune ? 0 : stored
    unprunedBytes = prune ? 0 : storedBytes
    if (prune) {
      if (pruneTimer) clearTimeout(pruneTimer)
      pruneTimer = undefined
    } else if (unprunedRows > 0) {
      pruneTimer ??= setTimeout(() => {
        pruneTimer = undefined
        void run(true)
      }, PRUNE_MS).unref()
    }
  }

  const run = (forcePrune: boolean): Promise<void> => {
    if (batchTimer) clearTimeout(batchTimer)
    batchTimer = undefined
    const next = tail.then(() => write(forcePrune))
    tail = next.catch(() => {})
    return next
  }

  return {
    queue(row) {
      queued.push(row)
      queuedBytes += row.bytes
      // Rows past the newest N or the total would be forgotten by the next prune: the oldest waiting go at once,
      // so what waits stays within the bounds.
      const { count, totalBytes } = bounds()
      while (queued.length > 1 && (queued.length > count || queuedBytes > totalBytes)) queuedBytes -= queued.shift()!.bytes
      if (queued.length >= BATCH_ROWS) void run(false)
      else batchTimer ??= setTimeout(() => void run(false), BATCH_MS).unref()
    },
    flush: () => run(true),
  }
}
