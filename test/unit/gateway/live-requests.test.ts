import { EventEmitter } from 'node:events'
import { afterEach, describe, expect, it } from 'vitest'
import { ClientAbort } from '../../../electron/gateway/client/client-abort.js'
import type { RequestContext } from '../../../electron/gateway/context.js'
import { gatewayError } from '../../../electron/gateway/errors.js'
import { END_GRACE_MS, LiveRequests } from '../../../electron/gateway/access/live-requests.js'

/** A response as LiveRequests sees it: ended or not, closed when destroyed or ended. */
class FakeResponse extends EventEmitter {
  writableEnded = false
  destroyed = false
  end(): void {
    this.writableEnded = true
    this.emit('close')
  }
  destroy(): void {
    this.destroyed = true
    this.emit('close')
  }
}

const contexts: RequestContext[] = []
const request = (): RequestContext & { res: FakeResponse } => {
  const ctx = { res: new FakeResponse(), abort: new ClientAbort(), outcome: { costNano: 0 } } as unknown as RequestContext & { res: FakeResponse }
  contexts.push(ctx)
  return ctx
}
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))
const revoked = () => gatewayError('api_key_revoked', 'api_key_revoked_during')
const expired = () => gatewayError('api_key_expired', 'api_key_expired_during')

afterEach(() => {
  // Nothing left open between tests (a timer of a tracked owner goes with its last request).
  for (const ctx of contexts.splice(0)) if (!ctx.res.writableEnded) (ctx.res as unknown as FakeResponse).end()
})

describe('live requests', () => {
  it("end() aborts each of the owner's requests with the error, which the ledger row takes; other owners are untouched", () => {
    const live = new LiveRequests()
    const [a1, a2, b] = [request(), request(), request()]
    live.track('a', a1)
    live.track('a', a2)
    live.track('b', b)
    const error = revoked()
    live.end('a', error)
    for (const ctx of [a1, a2]) {
      expect([ctx.abort.aborted, ctx.abort.endedBy, ctx.outcome.status, ctx.outcome.errorCode]).toEqual([true, error, 401, 'api_key_revoked'])
    }
    expect([b.abort.aborted, live.count('a'), live.count('b')]).toEqual([false, 0, 1])
  })

  it('a request leaves when its response closes; an answered one is never ended', () => {
    const live = new LiveRequests()
    const [done, running] = [request(), request()]
    live.track('a', done)
    live.track('a', running)
    done.res.end()
    expect(live.count('a')).toBe(1)
    live.end('a', revoked())
    expect([done.abort.aborted, running.abort.aborted]).toEqual([false, true])
    expect([...live.owners()]).toEqual([])
  })

  it('cuts a response its handler has not finished END_GRACE_MS after the end', async () => {
    const live = new LiveRequests()
    const [stuck, answers] = [request(), request()]
    live.track('a', stuck)
    live.track('a', answers)
    live.end('a', revoked())
    answers.res.end()
    await sleep(END_GRACE_MS - 100)
    expect(stuck.res.destroyed).toBe(false)
    await sleep(200)
    expect([stuck.res.destroyed, answers.res.destroyed]).toEqual([true, false])
  })

  it('ends the requests at the deadline, asking it again then (it may have moved)', async () => {
    const live = new LiveRequests()
    let endsAt = Date.now() + 100
    const ctx = request()
    live.track('a', ctx, { endsAt: () => endsAt, error: expired })
    await sleep(50)
    endsAt += 150 // used meanwhile: the deadline moved
    await sleep(100)
    expect(ctx.abort.aborted).toBe(false)
    await sleep(150)
    expect([ctx.abort.aborted, ctx.outcome.errorCode]).toEqual([true, 'api_key_expired'])
  })

  it('recheck() arms a deadline that moved earlier; a passed one ends the requests at once', () => {
    const live = new LiveRequests()
    let endsAt: number | null = null
    const ctx = request()
    live.track('a', ctx, { endsAt: () => endsAt, error: expired })
    live.recheck('a')
    expect(ctx.abort.aborted).toBe(false)
    endsAt = Date.now() - 1
    live.recheck('a')
    expect([ctx.abort.aborted, ctx.outcome.errorCode, live.count('a')]).toEqual([true, 'api_key_expired', 0])
  })

  it('a deadline beyond what setTimeout can wait (24.8 days) is approached in steps: no timer fires meanwhile', async () => {
    const live = new LiveRequests()
    const ctx = request()
    let asked = 0
    live.track('a', ctx, { endsAt: () => (asked++, Date.now() + 30 * 86_400_000), error: expired })
    await sleep(50)
    // Node would fire a longer timer after 1 ms: the deadline would be asked again every millisecond.
    expect([ctx.abort.aborted, asked]).toEqual([false, 1])
  })
})
