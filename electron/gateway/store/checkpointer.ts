import { createRequire } from 'node:module'
import { Worker } from 'node:worker_threads'

/** How often the worker moves committed pages from the WAL into the store file. */
export const CHECKPOINT_INTERVAL_MS = 1000

/** The WAL's size, in frames (pages, 4 KiB each), past which the worker has it start over: 16 MiB. */
export const WAL_LIMIT_FRAMES = 4_096

// CommonJS, evaluated as the worker's own script: a bundle of the gateway then needs no second file beside it.
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads')
const Database = require(workerData.driver)
const db = new Database(workerData.path)
db.pragma('busy_timeout = 5000')
const checkpoint = () => {
  try {
    const [passive] = db.pragma('wal_checkpoint(PASSIVE)')
    // Under steady writes a passive checkpoint never ends caught up with the writer, so the WAL never starts over and
    // grows as long as the load lasts. Past the limit, one that holds writers off copies the few frames left (the
    // passive one just copied the rest) and empties the file.
    if (passive.log > workerData.walLimitFrames) db.pragma('wal_checkpoint(RESTART)')
  } catch (err) {
    parentPort.postMessage(err.message)
  }
}
const timer = setInterval(checkpoint, workerData.intervalMs)
parentPort.on('message', () => {
  clearInterval(timer)
  db.close()
  // Tells the waiting store its connection is gone.
  const closed = new Int32Array(workerData.closed)
  Atomics.store(closed, 0, 1)
  Atomics.notify(closed, 0)
  parentPort.close()
})
`

/** How long closing the store waits for the worker's connection to close (a checkpoint under way finishes first). */
const STOP_WAIT_MS = 5000

export interface Checkpointer {
  /**
   * Stops the worker and returns once its connection is closed (after a checkpoint under way, if any): the store
   * file and its WAL are then the caller's alone, to close, copy or remove.
   */
  stop(): void
}

/**
 * Checkpoints the store's WAL from a worker thread with a connection of its own, while the connection that serves
 * requests has automatic checkpoints turned off. A checkpoint copies pages back into the store file and syncs it to
 * disk: on the request path it held the event loop for the whole sync, every thousand pages. Commits stay where
 * they were (appended to the WAL, as durable as before); only the copy moves. PASSIVE never waits for readers or
 * writers, so the worker never blocks the requests' connection either; only once the WAL is past its limit does a
 * RESTART hold the writer off while it copies the few frames left, so the WAL starts over. Its errors go to `log`;
 * should the worker stop, the serving connection checkpoints for itself again. `opts`: the tests' interval and limit.
 */
export function startCheckpointer(path: string, enableInline: () => void, log: (line: string) => void, opts: { intervalMs?: number; walLimitFrames?: number } = {}): Checkpointer {
  const driver = createRequire(import.meta.url).resolve('better-sqlite3')
  const closed = new SharedArrayBuffer(4)
  // execArgv: the process's own preloads (`--import`) stay out of the thread (one watching stdin would see the
  // thread's empty stdin end at once).
  const worker = new Worker(WORKER_SOURCE, { eval: true, execArgv: [], workerData: { path, driver, closed, intervalMs: opts.intervalMs ?? CHECKPOINT_INTERVAL_MS, walLimitFrames: opts.walLimitFrames ?? WAL_LIMIT_FRAMES } })
  // The worker keeps no event loop of the gateway's alive: a process may exit while it waits.
  worker.unref()
  let stopping = false
  let exited = false
  worker.on('message', (message: string) => log(`[gatehouse] WAL checkpoint failed: ${message}`))
  worker.on('error', (err) => log(`[gatehouse] WAL checkpointer stopped: ${err.message}`))
  worker.on('exit', () => {
    exited = true
    if (!stopping) enableInline()
  })
  return {
    stop() {
      if (stopping) return
      stopping = true
      if (exited) return
      worker.postMessage('stop')
      // A short, bounded block at shutdown, so that nothing touches the store's files after close returns.
      Atomics.wait(new Int32Array(closed), 0, 0, STOP_WAIT_MS)
    },
  }
}
