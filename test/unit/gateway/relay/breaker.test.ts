import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { Breakers, type Admission, type BreakerState } from '../../../../electron/gateway/relay/breaker.js'

type Step = { kind: 'admit' } | { kind: 'ok' } | { kind: 'fail' } | { kind: 'release' } | { kind: 'wait'; ms: number }

const step: fc.Arbitrary<Step> = fc.oneof(
  fc.constant<Step>({ kind: 'admit' }),
  fc.constant<Step>({ kind: 'ok' }),
  fc.constant<Step>({ kind: 'fail' }),
  fc.constant<Step>({ kind: 'release' }),
  fc.integer({ min: 0, max: 300 }).map<Step>((ms) => ({ kind: 'wait', ms })),
)

/**
 * A model of the state machine written out plainly, run beside the breaker on one account: verdicts (ok, fail) come
 * only after an admission that let a call through, as the failover loop gives them.
 */
describe('circuit breaker (property tests)', () => {
  it('follows the state machine on any sequence of calls, verdicts and waits', () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: 6 }), fc.integer({ min: 1, max: 500 }), fc.array(step, { maxLength: 120 }), (failures, coolDownMs, steps) => {
      let t = 0
      const breakers = new Breakers({ failures, coolDownMs }, () => t)
      let state: BreakerState = 'closed'
      let streak = 0
      let openedAt = 0
      let trial = false
      /** a call let through and not judged yet, and whether it is the trial */
      let inFlight: Admission | undefined
      for (const s of steps) {
        if (s.kind === 'wait') t += s.ms
        else if (s.kind === 'admit') {
          if (inFlight !== undefined) continue
          const got = breakers.admit('a')
          const cooled = t - openedAt >= coolDownMs
          if (state === 'closed') expect(got).toBe('use')
          // never let through while open before the cool-down
          else if (state === 'open' && !cooled) expect(got).toBe('skip')
          // exactly one trial when half-open: the first asker; every other skips while it runs
          else if (trial) expect(got).toBe('skip')
          else {
            expect(got).toBe('trial')
            state = 'half-open'
            trial = true
          }
          if (got !== 'skip') inFlight = got
        } else if (s.kind === 'ok' && inFlight !== undefined) {
          breakers.success('a')
          // a success closes, whatever the state
          state = 'closed'
          streak = 0
          trial = false
          inFlight = undefined
        } else if (s.kind === 'fail' && inFlight !== undefined) {
          breakers.failure('a')
          if (state === 'closed') streak++
          // open only after `failures` in a row; a failed trial reopens at once
          if (state !== 'closed' || streak >= failures) {
            state = 'open'
            openedAt = t
            trial = false
          }
          inFlight = undefined
        } else if (s.kind === 'release' && inFlight !== undefined) {
          breakers.release('a')
          trial = false
          inFlight = undefined
        }
        const shown = state === 'open' && t - openedAt >= coolDownMs ? 'half-open' : state
        expect(breakers.state('a')).toBe(shown)
        if (state === 'closed') expect(breakers.openedAt('a')).toBeUndefined()
      }
    }), { numRuns: 500 })
  })

  it('never opens with fewer than `failures` failures in a row, whatever successes come between', () => {
    fc.assert(fc.property(fc.integer({ min: 2, max: 8 }), fc.array(fc.boolean(), { maxLength: 60 }), (failures, outcomes) => {
      const breakers = new Breakers({ failures, coolDownMs: 1000 }, () => 0)
      let streak = 0
      for (const ok of outcomes) {
        if (breakers.admit('a') === 'skip') {
          expect(streak).toBeGreaterThanOrEqual(failures)
          return
        }
        if (ok) breakers.success('a')
        else breakers.failure('a')
        streak = ok ? 0 : streak + 1
        expect(breakers.state('a')).toBe(streak >= failures ? 'open' : 'closed')
      }
    }))
  })

  it('keeps accounts apart', () => {
    const breakers = new Breakers({ failures: 1, coolDownMs: 1000 }, () => 0)
    breakers.failure('a')
    expect([breakers.state('a'), breakers.state('b'), breakers.admit('b')]).toEqual(['open', 'closed', 'use'])
  })

  it('a forced trial of an open account closes it on success, reopens it on failure', () => {
    let t = 0
    const breakers = new Breakers({ failures: 1, coolDownMs: 1000 }, () => t)
    breakers.failure('a')
    t = 10
    breakers.force('a')
    expect(breakers.admit('a')).toBe('skip')
    breakers.failure('a')
    expect([breakers.state('a'), breakers.openedAt('a')]).toEqual(['open', 10])
    breakers.force('a')
    breakers.success('a')
    expect(breakers.state('a')).toBe('closed')
  })
})
