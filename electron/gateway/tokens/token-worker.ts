/**
 * The token counter's own thread (tokens.ts starts it on the first count and lets it go when idle): it loads
 * o200k_base's ranks (o200k.ts: ~5 MB, ~40 ms of work) and counts each text in bounded pieces (token-slices.ts), so
 * neither the ranks' memory between counts nor the work of a huge text ever sits on the gateway's event loop. The
 * pieces it counted are remembered (piece-memo.ts): a conversation sent again with one more turn costs that turn.
 * Jobs: `{ id, text, stopAbove? }` → `{ id, count }`; `{ cancel: id }` stops a job between two slices.
 */
import { parentPort } from 'node:worker_threads'
import { loadO200kCounter } from './o200k.js'
import { PieceMemo } from './piece-memo.js'
import { countInSlices } from './token-slices.js'

/** `stopAbove`: counting ends once the count passes it (the answer is then only known to be larger). */
export type TokenJob = { id: number; text: string; stopAbove?: number } | { cancel: number }
export type TokenAnswer = { id: number; count: number } | { id: number; error: string }

/**
 * Pieces remembered (piece-memo.ts): 8,192 of at most 256 characters cover a conversation of ~1.5 MB, what a long agent
 * session sends with each request; ~1 MB of keys and counts, let go with the thread.
 */
const PIECES_REMEMBERED = 8_192

const counter = loadO200kCounter()
const memo = new PieceMemo((piece) => counter.count(piece), PIECES_REMEMBERED)
const countPiece = (piece: string) => memo.countPiece(piece)

const port = parentPort!
const cancelled = new Set<number>()
/** Aborts a job's slices once it is cancelled (countInSlices checks between slices). */
const signalOf = (id: number) => ({ get aborted() { return cancelled.has(id) } })

port.on('message', (job: TokenJob) => {
  if ('cancel' in job) return void cancelled.add(job.cancel)
  countInSlices([job.text], countPiece, { signal: signalOf(job.id), stopAbove: job.stopAbove }).then(
    (count) => port.postMessage({ id: job.id, count } satisfies TokenAnswer),
    (err: Error) => port.postMessage({ id: job.id, error: err.message } satisfies TokenAnswer),
  ).finally(() => cancelled.delete(job.id))
})
