import { describe, expect, it } from 'vitest'
import { firstTokenMsOf, StreamDeadline, streamDeadlines, StreamWatch } from '../../../../electron/gateway/relay/stream-watch.js'
import { DEFAULT_TIMEOUTS } from '../../../../electron/gateway/upstreams/http.js'
import type { CatalogModel } from '../../../../shared/types.js'

/** A body the watch may destroy: when (performance.now()) and with what. */
function body() {
  const seen: { at?: number; err?: StreamDeadline } = {}
  let resolve: () => void
  const destroyed = new Promise<void>((r) => (resolve = r))
  return { seen, destroyed, destroy: (err: Error) => { seen.at = performance.now(); seen.err = err as StreamDeadline; resolve() } }
}
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))
const model = (extra: Record<string, unknown> = {}) => ({ id: 'm', family: 'gpt', type: 'chat', vendor: 'openai', created: 0, pricing: { unit: 'token', input: 1, output: 1 }, ...extra }) as CatalogModel

describe('StreamWatch', () => {
  it.concurrent('destroys the body at the first-token deadline when no content came, never sooner', async () => {
    const b = body()
    const start = performance.now()
    new StreamWatch(b, 80, 1_000)
    await b.destroyed
    expect(b.seen.at! - start).toBeGreaterThanOrEqual(79)
    expect([b.seen.err?.name, b.seen.err?.which, b.seen.err?.message]).toEqual(['StreamDeadline', 'first_token', 'no content within 80 ms of the response headers'])
  })

  it.concurrent('once content flows, chunks keep it alive past both limits; a silence of idleMs ends it', async () => {
    const b = body()
    const watch = new StreamWatch(b, 60, 60)
    await sleep(30)
    watch.flowing()
    // Read before each chunk: the watch's own time of the last chunk is then never earlier (read after, a busy
    // machine could let milliseconds pass between the two).
    let last = 0
    for (let i = 0; i < 8; i++) {
      await sleep(25)
      last = performance.now()
      watch.chunk()
    }
    expect(b.seen.err).toBeUndefined()
    await b.destroyed
    expect(b.seen.at! - last).toBeGreaterThanOrEqual(60)
    expect([b.seen.err?.which, b.seen.err?.message]).toEqual(['idle', 'no data for 60 ms'])
  })

  it.concurrent("a wait for a slow client is not the upstream's silence", async () => {
    const b = body()
    const watch = new StreamWatch(b, 1_000, 40)
    watch.flowing()
    watch.waiting(true)
    await sleep(150)
    expect(b.seen.err).toBeUndefined()
    const resumed = performance.now()
    watch.waiting(false)
    await b.destroyed
    expect(b.seen.at! - resumed).toBeGreaterThanOrEqual(40)
    expect(b.seen.err?.which).toBe('idle')
  })

  it.concurrent('never fires once stopped', async () => {
    const b = body()
    const watch = new StreamWatch(b, 30, 30)
    watch.stop()
    await sleep(100)
    expect(b.seen).toEqual({})
  })
})

describe("a stream's deadlines", () => {
  it("a model row's firstTokenMs, else the gateway's", () => {
    expect([firstTokenMsOf(model({ firstTokenMs: 10_000 }), DEFAULT_TIMEOUTS), firstTokenMsOf(model(), DEFAULT_TIMEOUTS), firstTokenMsOf(model({ firstTokenMs: 'soon' }), DEFAULT_TIMEOUTS)])
      .toEqual([10_000, 120_000, 120_000])
  })

  it("the call's headers within streamFirstByteMs; undici's body timer only past both of the watch's limits", () => {
    expect(streamDeadlines(120_000, DEFAULT_TIMEOUTS)).toEqual({ headersMs: 30_000, bodyMs: 121_000 })
    expect(streamDeadlines(5_000, { ...DEFAULT_TIMEOUTS, idleMs: 45_000 })).toEqual({ headersMs: 30_000, bodyMs: 46_000 })
  })
})
