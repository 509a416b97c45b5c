import { createRequire } from 'node:module'
import { Worker } from 'node:worker_threads'

/** How often the worker moves committed pages from the WAL into the store file. */
export const CHECKPOINT_INTERVAL_MS = 1000

/** The WAL's size, in frames (pages, 4 KiB each), past which the worker has it start over: 16 MiB. */
export const WAL_LIMIT_FRAMES = 4_096

/**
 * How long the worker waits for the serving connection to finish the write it is in before a restart: past it, the
 * restart waits for the next round.
 */
export const WRITER_WAIT_MS = 1_000

/**
 * How long a restart waits for readers still on the WAL (another connection's open read, say): past it, the restart
 * gives up until the next round, and the serving connection's writes go on meanwhile.
 */
export const RESTART_BUSY_MS = 250

/**
 * How long a write transaction of the serving connection waits for a restart (at most WRITER_WAIT_MS, then
 * RESTART_BUSY_MS and the copy): past it, it begins anyway, as it would without the gate.
 */
export const RESTART_WAIT_MS = 5_000

// The flags shared with the worker (an Int32Array over a SharedArrayBuffer).
/** 1 while the worker wants or runs a restart */
const RESTARTING = 0
/** 1 while the serving connection is inside a write transaction */
const WRITING = 1

// CommonJS, evaluated as the worker's own script: a bundle of the gateway then needs no second file beside it.
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads')
const Database = require(workerData.driver)
const db = new Database(workerData.path)
db.pragma('busy_timeout = 5000')
const flags = new Int32Array(workerData.flags)
// A restart holds writers off until it is done (and it waits for readers): the serving connection learns of it first
// (RESTARTING) and begins no write meanwhile, and the restart starts only once no write of it is open (WRITING).
const restart = () => {
  Atomics.store(flags, ${RESTARTING}, 1)
  try {
    const until = Date.now() + workerData.writerWaitMs
    while (Atomics.load(flags, ${WRITING}) !== 0) {
      const left = until - Date.now()
      if (left <= 0) return
      Atomics.wait(flags, ${WRITING}, 1, left)
    }
    db.pragma('busy_timeout = ' + workerData.restartBusyMs)
    db.pragma('wal_checkpoint(RESTART)')
  } finally {
    db.pragma('busy_timeout = 5000')
    Atomics.store(flags, ${RESTARTING}, 0)
    Atomics.notify(flags, ${RESTARTING})
  }
}
const checkpoint = () => {
  try {
    const [passive] = db.pragma('wal_checkpoint(PASSIVE)')
    // Under steady writes a passive checkpoint never ends caught up with the writer, so the WAL never starts over and
    // grows as long as the load lasts. Past the limit, one that holds writers off copies the few frames left (the
    // passive one just copied the rest) and empties the file.
    if (passive.log > workerData.walLimitFrames) restart()
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

/**
 * The serving connection's side of a WAL restart (the worker's, above): a write transaction enters only while no
 * restart is wanted or under way, so the event loop never sits in SQLite's busy wait for one (as long as its copy
 * and sync take, and its wait for readers still on the WAL).
 */
export interface WriteGate {
  /** whether a restart is wanted or under way: a write transaction begun now would wait for it, holding the thread */
  closed(): boolean
  /** resolves once no restart is wanted or under way, or after RESTART_WAIT_MS */
  opened(): Promise<void>
  /** the serving connection enters a write transaction; false (and not entered) while `closed()`, unless `anyway` */
  enter(anyway?: boolean): boolean
  /** … and leaves it (committed or rolled back) */
  leave(): void
}

function writeGate(flags: Int32Array): WriteGate {
  const leave = (): void => {
    Atomics.store(flags, WRITING, 0)
    Atomics.notify(flags, WRITING)
  }
  return {
    closed: () => Atomics.load(flags, RESTARTING) !== 0,
    async opened() {
      const wait = Atomics.waitAsync(flags, RESTARTING, 1, RESTART_WAIT_MS)
      if (wait.async) await wait.value
    },
    enter(anyway = false) {
      // Entered first, then looked: the worker raises its flag first, then looks, so one of the two always sees the other.
      Atomics.store(flags, WRITING, 1)
      if (anyway || Atomics.load(flags, RESTARTING) === 0) return true
      leave()
      return false
    },
    leave,
  }
}

/** How long closing the store waits for the worker's connection to close (a checkpoint under way finishes first). */
const STOP_WAIT_MS = 5000

export interface Checkpointer {
  /** what the serving connection's write transactions pass through (sqlite-sql.ts) */
  readonly gate: WriteGate
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
 * RESTART hold the writer off while it copies the few frames left, so the WAL starts over, and the serving
 * connection's write transactions wait for it without holding the event loop (`gate`). Its errors go to `log`;
 * should the worker stop, the serving connection checkpoints for itself again. `opts`: the tests' interval, limit and
 * wait for readers.
 */
export function startCheckpointer(path: string, enableInline: () => void, log: (line: string) => void, opts: { intervalMs?: number; walLimitFrames?: number; restartBusyMs?: number } = {}): Checkpointer {
  const driver = createRequire(import.meta.url).resolve('better-sqlite3')
  const closed = new SharedArrayBuffer(4)
  const flags = new Int32Array(new SharedArrayBuffer(8))
  // execArgv: the process's own preloads (`--import`) stay out of the thread (one watching stdin would see the
  // thread's empty stdin end at once).
  const worker = new Worker(WORKER_SOURCE, { eval: true, execArgv: [], workerData: { path, driver, closed, flags: flags.buffer, writerWaitMs: WRITER_WAIT_MS, restartBusyMs: opts.restartBusyMs ?? RESTART_BUSY_MS, intervalMs: opts.intervalMs ?? CHECKPOINT_INTERVAL_MS, walLimitFrames: opts.walLimitFrames ?? WAL_LIMIT_FRAMES } })
  // The worker keeps no event loop of the gateway's alive: a process may exit while it waits.
  worker.unref()
  let stopping = false
  let exited = false
  worker.on('message', (message: string) => log(`[gatehouse] WAL checkpoint failed: ${message}`))
  worker.on('error', (err) => log(`[gatehouse] WAL checkpointer stopped: ${err.message}`))
  worker.on('exit', () => {
    exited = true
    // A restart it left flagged is not under way: writes need not wait for it.
    Atomics.store(flags, RESTARTING, 0)
    Atomics.notify(flags, RESTARTING)
    if (!stopping) enableInline()
  })
  return {
    gate: writeGate(flags),
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
