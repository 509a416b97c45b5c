// One key capped at one request in flight sends 32 bodies of 50 MB at once. Its bodies in flight are bounded before
// they are read (its byte budget: one 60 MB body), so the excess get the exact 429 with Retry-After, the gateway
// process grows by less than 600 MB, and another key is answered within a second all along. The gateway runs as
// its own process (its memory is measured alone), the flood from a worker thread (the timing thread stays free).
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { Worker } from 'node:worker_threads'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { readProcMemory, resetPeak } from '../../bench/proc-memory.js'
import { startFakeOpenAI, type FakeOpenAI } from '../fakes/openai.js'
import { chatConfig, tempDataDir, TEST_KEY } from '../helpers/gateway.js'
import { runGateway, type GatewayProcess } from '../helpers/spawn-gateway.js'

const OTHER_KEY = 'sk-flood-other-0123456789'
const COUNT = 32
const SIZE = 50_000_000
/** Every request of the flood is answered within this, or counts as failed. */
const FLOOD_DEADLINE_MS = 60_000
const MAX_GROWTH_BYTES = 600 * 1024 * 1024
const OTHER_WITHIN_MS = 1_000

const REFUSED = {
  error: {
    message: 'The request bodies in flight for this API key would exceed its budget of 60000000 bytes; retry after the current ones finish.',
    type: 'rate_limit_error',
    param: null,
    code: 'apikey_body_limit',
  },
}

interface Answer { status: number; headers: Record<string, string | string[] | undefined>; body: string }

let fake: FakeOpenAI
let dir: ReturnType<typeof tempDataDir>
let gateway: GatewayProcess
let url: string

beforeAll(async () => {
  fake = await startFakeOpenAI()
})
afterAll(async () => fake.close())

// A fresh gateway for each flood: its growth is measured from an idle process, not from what the last flood left.
beforeEach(async () => {
  dir = tempDataDir()
  const config = chatConfig([{ id: 'a', baseUrl: fake.url }])
  config.keys![0].concurrency = 1
  config.keys!.push({ key: OTHER_KEY, group: 'main' })
  const configPath = join(dir.dir, 'config.json')
  writeFileSync(configPath, JSON.stringify(config))
  gateway = runGateway(['--config', configPath, '--port', '0', '--data-dir', join(dir.dir, 'data')])
  let timer: NodeJS.Timeout | undefined
  const late = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`the gateway did not start: ${gateway.stderr()}`)), 30_000)))
  url = await Promise.race([gateway.url, late]).finally(() => clearTimeout(timer))
}, 40_000)
afterEach(async () => {
  gateway.child.kill('SIGTERM')
  // One that does not stop within 15 s is killed: the suite never waits on it longer.
  const timer = setTimeout(() => gateway.child.kill('SIGKILL'), 15_000)
  await gateway.exited.finally(() => clearTimeout(timer))
  dir.remove()
}, 20_000)

/** `count` bodies of `size` bytes at once from a worker thread: `head` + filler text + `tail`. */
function flood(path: string, key: string, opts: { chunked: boolean; head: string; tail: string }): Promise<Answer[]> {
  const worker = new Worker(new URL('../helpers/body-flood-worker.mjs', import.meta.url), {
    workerData: { url, path, key, count: COUNT, size: SIZE, deadlineMs: FLOOD_DEADLINE_MS, ...opts },
  })
  return new Promise<Answer[]>((resolve, reject) => {
    worker.once('message', resolve)
    worker.once('error', reject)
    worker.once('exit', (code) => reject(new Error(`the flood worker exited (${code}) before answering`)))
  }).finally(() => void worker.terminate())
}

/** A small quote from another key, timed; a deadline of 10 s bounds it. */
async function timedOtherQuote(): Promise<{ status: number; ms: number }> {
  const abort = new AbortController()
  const timer = setTimeout(() => abort.abort(), 10_000)
  const started = performance.now()
  try {
    const res = await fetch(`${url}/v1/quote`, {
      method: 'POST',
      headers: { authorization: `Bearer ${OTHER_KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify({ endpoint: '/v1/chat/completions', request: { model: 'test-gpt', messages: [{ role: 'user', content: 'hi' }] } }),
      signal: abort.signal,
    })
    await res.arrayBuffer()
    return { status: res.status, ms: performance.now() - started }
  } finally {
    clearTimeout(timer)
  }
}

/**
 * Runs `work` while another key's small request goes out every 100 ms (at most 600 of them), and measures the
 * gateway's resident memory: its growth is the peak during `work` over the resident set before it.
 */
async function whileProbing<T>(work: () => Promise<T>): Promise<{ result: T; otherMs: number[]; otherStatuses: number[]; growthBytes: number }> {
  const pid = gateway.child.pid!
  expect(resetPeak(pid)).toBe(true)
  const before = readProcMemory(pid)!
  let done = false
  const otherMs: number[] = []
  const otherStatuses: number[] = []
  const probing = (async () => {
    for (let i = 0; i < 600 && !done; i++) {
      const { status, ms } = await timedOtherQuote()
      otherStatuses.push(status)
      otherMs.push(ms)
      await new Promise((r) => setTimeout(r, 100))
    }
  })()
  try {
    const result = await work()
    return { result, otherMs, otherStatuses, growthBytes: (readProcMemory(pid)!.vmHwmKb - before.vmRssKb) * 1024 }
  } finally {
    done = true
    await probing
  }
}

function expectRefused(answer: Answer): void {
  expect(answer.status).toBe(429)
  expect(answer.headers['retry-after']).toBe('1')
  expect(answer.headers['retry-after-ms']).toBe('1000')
  expect(JSON.parse(answer.body)).toEqual(REFUSED)
}

const CHAT_HEAD = '{"model":"test-gpt","messages":[{"role":"user","content":"'

describe('32 × 50 MB from one key capped at one request in flight', () => {
  it('POST /v1/quote, each with its Content-Length: one is priced, 31 are refused by their declared length (429 apikey_body_limit); the gateway grows < 600 MB; another key waits < 1 s', async () => {
    const { result, otherMs, otherStatuses, growthBytes } = await whileProbing(() =>
      flood('/v1/quote', TEST_KEY, { chunked: false, head: `{"endpoint":"/v1/chat/completions","request":${CHAT_HEAD}`, tail: '"}]}}' }))
    const priced = result.filter((a) => a.status === 200)
    // Each declared 50 MB: the first one taken fills the key's 60 MB, every other is refused before it is read.
    expect(priced).toHaveLength(1)
    expect(JSON.parse(priced[0].body)).toMatchObject({ object: 'quote', currency: 'USD', basis: { model: 'test-gpt' } })
    const refused = result.filter((a) => a.status !== 200)
    expect(refused).toHaveLength(COUNT - 1)
    for (const answer of refused) expectRefused(answer)
    expect(growthBytes).toBeLessThan(MAX_GROWTH_BYTES)
    expect(otherStatuses.length).toBeGreaterThan(0)
    expect(new Set(otherStatuses)).toEqual(new Set([200]))
    expect(Math.max(...otherMs)).toBeLessThan(OTHER_WITHIN_MS)
  }, 90_000)

  it('POST /v1/chat/completions, chunked (no length): each is taken at the 60 MB it may be, so one is served and 31 are refused; the same bounds hold', async () => {
    const before = fake.calls.length
    const { result, otherMs, otherStatuses, growthBytes } = await whileProbing(() => flood('/v1/chat/completions', TEST_KEY, { chunked: true, head: CHAT_HEAD, tail: '"}]}' }))
    const served = result.filter((a) => a.status === 200)
    expect(served).toHaveLength(1)
    expect(JSON.parse(served[0].body)).toMatchObject({ object: 'chat.completion', model: 'test-gpt' })
    const refused = result.filter((a) => a.status !== 200)
    expect(refused).toHaveLength(COUNT - 1)
    for (const answer of refused) expectRefused(answer)
    // Only the body served reached the upstream.
    expect(fake.calls.length - before).toBe(1)
    expect(growthBytes).toBeLessThan(MAX_GROWTH_BYTES)
    expect(new Set(otherStatuses)).toEqual(new Set([200]))
    expect(Math.max(...otherMs)).toBeLessThan(OTHER_WITHIN_MS)
  }, 90_000)
})
