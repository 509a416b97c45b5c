/**
 * Local token counting (o200k_base), used when an upstream never reported usage (an interrupted stream),
 * for the billing checkpoints of streams under way and for quotes. A short text (INLINE_COUNT_CHARS) is counted on
 * the event loop, with tables built there in slices once the gateway listens (prepareCounting), else on the first
 * such count; a longer one in a worker thread (token-worker.ts, in bounded pieces: token-slices.ts documents the
 * error bound), started on the first long count. The thread is let go after TOKEN_WORKER_IDLE_MS without a long
 * count, the event loop's tables after that to twice that without a short one: the event loop never waits for the
 * tokenizer, and its tables are held only from a start or while counts are asked for.
 */
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { Worker } from 'node:worker_threads'
import { gatewayError } from '../errors.js'
import type { ClientLeaving } from '../contract/family.js'
import { loadO200kCounterInSlices, type O200kCounter } from './o200k.js'
import { textPieces } from './token-slices.js'
import type { TokenAnswer, TokenJob } from './token-worker.js'

/**
 * A counter thread with nothing to count ends after this long (its ~25 MB, thread and o200k ranks, go with it); the
 * event loop's tables (~10 MB) after this long to twice as long without a short count. Every held request counts its
 * prompt (billing/holds.ts), and the first one after its counter was let go waits ~0.1–0.2 s for the tables' build
 * or the thread's start: both are kept through a conversation's pauses, so that only a session's first message pays.
 */
export const TOKEN_WORKER_IDLE_MS = 5 * 60_000

/** Texts up to this many characters are counted on the event loop (at most ~35 µs), once it has the tables. */
export const INLINE_COUNT_CHARS = 1024

/**
 * The event loop's tables are built there, in slices of about this long, rather than by the thread and handed over: a
 * short text never starts a thread (its start, and a second copy of the tables while they were handed over), and the
 * counts that need one, long texts, are rare.
 */
const INLINE_LOAD_SLICE_MS = 4

// Bundled, the worker is token-worker.js beside the bundle (scripts/bundle.mjs); from the sources, tsx runs it.
const FROM_SOURCE = import.meta.url.endsWith('.ts')
const WORKER_URL = new URL(FROM_SOURCE ? './token-worker.ts' : './token-worker.js', import.meta.url)

// The process's own preloads (`--import` in its flags) are not the thread's business: one that watches stdin, say,
// would see the thread's empty stdin end at once.
const THREAD_OPTIONS = { execArgv: [] }

function startWorker(): Worker {
  if (!FROM_SOURCE) return new Worker(WORKER_URL, THREAD_OPTIONS)
  // tsx's ES module API (its CommonJS build cannot load the ES module half from a worker); found from this checkout.
  const tsx = pathToFileURL(join(dirname(createRequire(import.meta.url).resolve('tsx/package.json')), 'dist/esm/api/index.mjs')).href
  return new Worker(`import(${JSON.stringify(tsx)}).then((tsx) => tsx.tsImport(${JSON.stringify(WORKER_URL.href)}, ${JSON.stringify(import.meta.url)}))`, { ...THREAD_OPTIONS, eval: true })
}

interface Job {
  resolve(count: number): void
  reject(err: Error): void
}

let worker: Worker | undefined
let idleTimer: NodeJS.Timeout | undefined
let nextId = 0
const jobs = new Map<number, Job>()

function counter(): Worker {
  clearTimeout(idleTimer)
  if (worker) return worker
  const started = startWorker()
  started.on('message', (answer: TokenAnswer) => {
    const job = jobs.get(answer.id)
    if (!job) return
    jobs.delete(answer.id)
    if ('count' in answer) job.resolve(answer.count)
    else job.reject(new Error(`token counting failed: ${answer.error}`))
    settle()
  })
  // Only the current thread's end fails the jobs: an idle thread let go earlier had none.
  const fail = (why: string) => {
    if (worker !== started) return
    worker = undefined
    for (const job of jobs.values()) job.reject(new Error(`token counting failed: ${why}`))
    jobs.clear()
  }
  started.on('error', (err) => fail(err.message))
  started.on('exit', (code) => fail(`the counter thread exited (${code})`))
  worker = started
  return started
}

/** With nothing left to count, the thread no longer keeps the process alive, and ends once idle long enough. */
function settle(): void {
  if (jobs.size > 0 || !worker) return
  worker.unref()
  const idle = worker
  idleTimer = setTimeout(() => {
    if (worker === idle && jobs.size === 0) {
      worker = undefined
      void idle.terminate()
    }
  }, TOKEN_WORKER_IDLE_MS).unref()
}

/** Whether the tokenizer's tables are held: by the counter thread, or on the event loop. */
export const tokenCounterRunning = (): boolean => worker !== undefined || inline !== undefined

// The event loop's tables, built on the first short count or by prepareCounting (`loading` meanwhile, which the short
// counts asked for then wait for), and let go after an idle period with no short count: counts since the last look at
// the idle timer.
let inline: O200kCounter | undefined
let loading: Promise<O200kCounter> | undefined
let inlineCounts = 0

/** The event loop's counter: at once when it has one, else once its tables are built. */
function inlineCounter(): Promise<O200kCounter> {
  loading ??= loadO200kCounterInSlices(INLINE_LOAD_SLICE_MS).then(
    (counter) => {
      loading = undefined
      keepInline(counter)
      return counter
    },
    (err: Error) => {
      loading = undefined
      throw new Error(`token counting failed: ${err.message}`)
    },
  )
  return loading
}

function keepInline(counter: O200kCounter): void {
  inline = counter
  inlineCounts = 0
  const look = () => {
    if (inline !== counter) return
    if (inlineCounts === 0) return void (inline = undefined)
    inlineCounts = 0
    setTimeout(look, TOKEN_WORKER_IDLE_MS).unref()
  }
  setTimeout(look, TOKEN_WORKER_IDLE_MS).unref()
}

/**
 * Builds the event loop's tables now, in their slices, rather than on the first short count: a gateway just started
 * has them before its first message (the headless run and the app ask for this once listening: ~40–90 ms of work
 * the first message no longer waits for). They are kept, and let go, as tables a count built.
 */
export function prepareCounting(): Promise<void> {
  return inlineCounter().then(() => undefined)
}

/** Whether the counter thread is alive. */
export const tokenThreadRunning = (): boolean => worker !== undefined

/** Whether short texts are counted on the event loop now (its tables are built). */
export const countingInline = (): boolean => inline !== undefined

/** A short text counted on the event loop, in the thread's pieces (the same count). */
function countInline(counter: O200kCounter, text: string): number {
  inlineCounts++
  let total = 0
  for (const piece of textPieces(text)) total += counter.count(piece)
  return total
}

/**
 * Tokens of a text, counted off the event loop; with `client`, rejects with 499 `client_closed_request` as soon as
 * the client leaves (billing counts pass none: they must complete). A short text is counted at once, reading only the
 * client's flag: its signal is asked for only by a count that waits for the thread. With `stopAbove`, counting ends
 * as soon as the count passes it: a larger answer means only "more than `stopAbove`" (a limit check needs no more).
 */
export function countTextTokens(text: string, options: { client?: ClientLeaving; stopAbove?: number } = {}): Promise<number> {
  if (text === '') return Promise.resolve(0)
  const { client, stopAbove } = options
  if (client?.aborted) return Promise.reject(gatewayError('client_closed_request', 'client_closed_request'))
  if (text.length <= INLINE_COUNT_CHARS) {
    if (inline !== undefined) return Promise.resolve(countInline(inline, text))
    return inlineCounter().then((counter) => {
      if (client?.aborted) throw gatewayError('client_closed_request', 'client_closed_request')
      return countInline(counter, text)
    })
  }
  const signal = client?.signal
  const thread = counter()
  thread.ref()
  const id = ++nextId
  return new Promise<number>((resolve, reject) => {
    const onAbort = () => {
      jobs.delete(id)
      thread.postMessage({ cancel: id } satisfies TokenJob)
      reject(gatewayError('client_closed_request', 'client_closed_request'))
      settle()
    }
    signal?.addEventListener('abort', onAbort, { once: true })
    const done = () => signal?.removeEventListener('abort', onAbort)
    jobs.set(id, { resolve: (n) => (done(), resolve(n)), reject: (err) => (done(), reject(err)) })
    thread.postMessage({ id, text, ...(stopAbove !== undefined ? { stopAbove } : {}) } satisfies TokenJob)
  })
}

/** Text of a chat request's messages, as the model reads it. */
export function promptText(messages: unknown): string {
  if (!Array.isArray(messages)) return ''
  const parts: string[] = []
  for (const message of messages as Array<{ role?: string; content?: unknown }>) {
    parts.push(message.role ?? '')
    if (typeof message.content === 'string') parts.push(message.content)
    else if (Array.isArray(message.content)) {
      for (const part of message.content as Array<{ type?: string; text?: unknown }>) if (typeof part.text === 'string') parts.push(part.text)
    }
  }
  return parts.join('\n')
}
