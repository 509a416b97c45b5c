/**
 * The fuzz suite's shared run settings and assertions.
 *
 * Locally every run uses a fresh random seed, so different runs explore different inputs. In CI (CI=true) the seed is
 * taken from the commit under test: a run is reproducible, and each commit still explores inputs of its own. The
 * seed is printed at the start of each file. A failure prints fast-check's `{ seed, path }`; replay exactly that
 * counterexample with
 *   FUZZ_SEED=<seed> FUZZ_PATH=<path> npx vitest run test/fuzz/<file>.test.ts -t "<test name>"
 * (the -t filter matters: the path belongs to one property). Each property makes a set number of runs, however busy
 * the machine (so the files run beside others with the same runs); FUZZ_RUNS (default 500) scales every property's
 * count and its test timeout, for longer local runs. By default the files take about 60 s one after another.
 */
import { execFileSync } from 'node:child_process'
import fc from 'fast-check'
import { expect } from 'vitest'
import type { RunningGateway } from '../../electron/gateway/gateway.js'

const DEFAULT_RUNS = 500
const RUNS = Number(process.env.FUZZ_RUNS ?? DEFAULT_RUNS)
/** The commit's own seed: the first 31 bits of HEAD's hash (a fixed one where git cannot say). */
function commitSeed(): number {
  try {
    return parseInt(execFileSync('git', ['rev-parse', 'HEAD'], { encoding: 'utf8' }).slice(0, 8), 16) % 2 ** 31
  } catch {
    return 20_261_124
  }
}

export const FUZZ_SEED = process.env.FUZZ_SEED !== undefined ? Number(process.env.FUZZ_SEED)
  : process.env.CI ? commitSeed() : Math.floor(Math.random() * 2 ** 31)
console.log(`[fuzz] seed ${FUZZ_SEED}${process.env.FUZZ_PATH ? ` path ${process.env.FUZZ_PATH}` : ''} (replay: FUZZ_SEED=${FUZZ_SEED})`)

/** A property's count of runs: `runs` at the default FUZZ_RUNS, scaled with it. */
const scaled = (runs: number) => Math.max(1, Math.round(runs * (RUNS / DEFAULT_RUNS)))

/** fast-check settings of one property: seeded, `runs` runs (at the default FUZZ_RUNS). */
export function fuzzParams<T>(runs = DEFAULT_RUNS): fc.Parameters<T> {
  return { seed: FUZZ_SEED, path: process.env.FUZZ_PATH, numRuns: scaled(runs) }
}

/**
 * The vitest timeout of a property of `runs` runs. A request the gateway never answers already fails its run after
 * 10 s (send); this bounds the whole property. A run takes a few ms alone (500 in 1-3 s) but far more on a busy
 * machine: 500 took over 60 s with three fuzz files side by side among a dozen other processes on two cores, so a
 * run is allowed 300 ms.
 */
export const testTimeout = (runs = DEFAULT_RUNS) => 30_000 + scaled(runs) * 300

export type Protocol = 'chat' | 'messages' | 'dashscope'

export interface Answer {
  status: number
  headers: Headers
  text: string
}

type Init = { method?: string; headers?: Record<string, string>; body?: Buffer | string }

async function sendNow(url: string, init: Init): Promise<Answer> {
  const body = Buffer.isBuffer(init.body) ? new Uint8Array(init.body) : init.body
  const res = await fetch(url, { ...init, body, signal: AbortSignal.timeout(10_000) })
  const text = Buffer.from(await res.arrayBuffer()).toString('utf8')
  return { status: res.status, headers: res.headers, text }
}

// Requests still running. Each run awaits its answer, so none is left once a property's runs are done; expectHealthy
// awaits any left all the same, so a request that never gets an answer fails the test.
const pending = new Set<Promise<unknown>>()

/** Sends one request and reads the whole answer (bounded: one the gateway never answers fails the property). */
export function send(url: string, init: Init): Promise<Answer> {
  const run = sendNow(url, init)
  const tracked = run.catch((err: Error) => {
    throw new Error(`${init.method ?? 'GET'} ${url} got no answer (${err.message}); body: ${String(init.body ?? '').slice(0, 1_000)}`)
  })
  pending.add(tracked)
  tracked.finally(() => pending.delete(tracked)).catch(() => {})
  return run
}

// A stack frame, a source path or a file URL in a body means an internal detail leaked.
const LEAK = /\n\s+at |\bat [\w.<>]+ \(|node:internal|\/work\/|\/home\/|file:\/\/|\.[cm]?[jt]s:\d+/

function expectEnvelope(body: unknown, protocol: Protocol, where: string): void {
  const b = body as Record<string, any>
  if (protocol === 'messages') {
    expect(b?.type, where).toBe('error')
    expect(typeof b.error?.type, where).toBe('string')
    expect(typeof b.error?.message, where).toBe('string')
  } else if (protocol === 'dashscope') {
    for (const field of ['request_id', 'code', 'message']) expect(typeof b?.[field], `${where}: ${field}`).toBe('string')
  } else {
    for (const field of ['message', 'type', 'code']) expect(typeof b?.error?.[field], `${where}: error.${field}`).toBe('string')
    const param = b.error.param
    expect(param === undefined || param === null || typeof param === 'string', `${where}: error.param`).toBe(true)
  }
}

/** What every answer must satisfy, whatever was sent: no 5xx, a request id, and errors in the protocol's envelope. */
export function expectSoundAnswer(answer: Answer, protocol: Protocol, label: string): void {
  const where = `${label} -> ${answer.status} ${answer.text.slice(0, 400)}`
  expect(answer.status, where).toBeLessThan(500)
  expect(answer.headers.get('x-request-id'), where).toBeTruthy()
  // The gateway runs in this process: a prototype key that reached an object merge would show here.
  expect(({} as Record<string, unknown>).polluted, where).toBeUndefined()
  if (answer.status >= 400) {
    expect(answer.text, where).not.toMatch(LEAK)
    let body: unknown
    expect(() => (body = JSON.parse(answer.text)), where).not.toThrow()
    expectEnvelope(body, protocol, where)
  }
  // A stream that failed after it started ends with an error frame in the same envelope.
  for (const frame of answer.text.matchAll(/^event: error\ndata: (.*)$/gm)) {
    expect(frame[1], where).not.toMatch(LEAK)
    expectEnvelope(JSON.parse(frame[1]), protocol, where)
  }
}

/**
 * Every concurrency slot is free (requests are sent one at a time, so after an answer none is held), waiting up to
 * `waitMs` for a slot still being given back.
 */
export async function expectSlotsFree(gw: RunningGateway, label = '', waitMs = 2_000): Promise<void> {
  // A slot is released as the response finishes, which can trail the client's last byte by a tick.
  for (let i = 0; i < waitMs / 20 && gw.services.limiter.inFlight() !== 0; i++) await new Promise((r) => setTimeout(r, 20))
  expect(gw.services.limiter.inFlight(), `slots held after ${label}`).toBe(0)
}

/** After a batch: the gateway still answers and every concurrency slot was given back. */
export async function expectHealthy(gw: RunningGateway, key: string): Promise<void> {
  await Promise.all([...pending])
  const models = await send(`${gw.url}/v1/models`, { headers: { authorization: `Bearer ${key}` } })
  expect(models.status, models.text).toBe(200)
  await expectSlotsFree(gw, 'the batch')
}
