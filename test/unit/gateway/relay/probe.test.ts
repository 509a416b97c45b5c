// The background prober's timer against the breaker's clock (relay/probe.ts): a timer that fires a hair before the
// cool-down ends, while the clock passes its end between two readings, is armed again, never dropped (which left
// the account open with no probe, skipped for good).
import { Readable } from 'node:stream'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { UpstreamAccount } from '../../../../electron/gateway/contract/accounts.js'
import { Breakers } from '../../../../electron/gateway/relay/breaker.js'
import { Prober } from '../../../../electron/gateway/relay/probe.js'
import type { Http } from '../../../../electron/gateway/upstreams/http.js'

const COOL_DOWN_MS = 600
const ACCOUNT: UpstreamAccount = { id: 'a', vendor: 'openai', baseUrl: 'https://api.openai.com/v1', apiKey: 'sk-probe-unit-0001', priority: 0 }

beforeEach(() => void vi.useFakeTimers())
afterEach(() => void vi.useRealTimers())

describe('background prober', () => {
  it('a timer that fires as the cool-down ends is armed again, and the probe then runs and closes the breaker', async () => {
    /** the breaker's clock: the next scripted readings first, then `now` */
    let now = 0
    const readings: number[] = []
    const breakers = new Breakers({ failures: 1, coolDownMs: COOL_DOWN_MS, probeTimeoutMs: 1_000 }, () => readings.shift() ?? now)
    const sent: string[] = []
    const http = {
      send: async (spec: { url: string }) => {
        sent.push(spec.url)
        return { statusCode: 200, headers: {}, body: Readable.from([]) }
      },
    } as unknown as Http
    const prober = new Prober(breakers, http, (id) => (id === ACCOUNT.id ? ACCOUNT : undefined))

    breakers.failure('a', 'status 503')
    expect([breakers.state('a'), prober.pending]).toEqual(['open', 1])

    // The timer fires: the first reading is a hair before the end of the cool-down, every later one past it.
    readings.push(COOL_DOWN_MS - 0.001)
    now = COOL_DOWN_MS
    await vi.advanceTimersByTimeAsync(COOL_DOWN_MS)
    expect(sent).toEqual([])
    expect([breakers.state('a'), prober.pending]).toEqual(['half-open', 1])

    await vi.advanceTimersByTimeAsync(1)
    await vi.waitFor(() => expect(breakers.state('a')).toBe('closed'), { timeout: 1_000 })
    expect(sent).toEqual(['https://api.openai.com/v1/models'])
    expect(breakers.transitions('a').map((t) => [t.from, t.to, t.why])).toEqual([
      ['closed', 'open', '1 failures in a row: status 503'],
      ['open', 'half-open', 'background probe'],
      ['half-open', 'closed', 'probe answered (status 200)'],
    ])
    expect(prober.pending).toBe(0)
    await prober.stop()
  })
})
