import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { Breakers, TRANSITIONS_KEPT, type Admission, type BreakerState } from '../../../../electron/gateway/relay/breaker.js'

type Verdict = 'answered' | 'failed' | 'unknown'
type Step =
  | { kind: 'admit' } | { kind: 'ok' } | { kind: 'fail' } | { kind: 'release' } | { kind: 'wait'; ms: number }
  | { kind: 'probe' } | { kind: 'verdict'; verdict: Verdict }

// Weighted so that runs reach every state often: calls and failures open the breaker, waits pass its cool-down.
const step: fc.Arbitrary<Step> = fc.oneof(
  { arbitrary: fc.constant<Step>({ kind: 'admit' }), weight: 4 },
  { arbitrary: fc.constant<Step>({ kind: 'ok' }), weight: 1 },
  { arbitrary: fc.constant<Step>({ kind: 'fail' }), weight: 3 },
  { arbitrary: fc.constant<Step>({ kind: 'release' }), weight: 1 },
  { arbitrary: fc.integer({ min: 0, max: 300 }).map<Step>((ms) => ({ kind: 'wait', ms })), weight: 2 },
  { arbitrary: fc.constant<Step>({ kind: 'probe' }), weight: 2 },
  { arbitrary: fc.constantFrom<Verdict>('answered', 'failed', 'unknown').map<Step>((verdict) => ({ kind: 'verdict', verdict })), weight: 2 },
)

/**
 * A model of the state machine written out plainly, run beside the breaker on one account: verdicts (ok, fail) come
 * only after an admission that let a call through, as the failover loop gives them; the background prober (when the
 * account's vendor has one: `probed`) is told of each opening, begins probes and gives their verdicts, at any time,
 * as its timers and the vendor's answers would.
 */
describe('circuit breaker (property tests)', () => {
  it('follows the state machine on any sequence of calls, probes, verdicts and waits', () => {
    fc.assert(fc.property(fc.integer({ min: 1, max: 4 }), fc.integer({ min: 1, max: 400 }), fc.boolean(), fc.array(step, { minLength: 10, maxLength: 120, size: 'max' }), (failures, coolDownMs, probed, steps) => {
      let t = 0
      const breakers = new Breakers({ failures, coolDownMs, probeTimeoutMs: 1000 }, () => t, () => t)
      let opened = 0
      breakers.onOpen = (id) => {
        opened++
        breakers.setBackground(id, probed)
      }
      let state = 'closed' as BreakerState
      let streak = 0
      let openedAt = 0
      let trial = false
      let probing = false
      let background = false
      let probation = false
      let openings = 0
      /** a call let through and not judged yet, and whether it is the trial */
      let inFlight: Admission | undefined
      const open = () => {
        state = 'open'
        openedAt = t
        trial = false
        probing = false
        probation = false
        background = probed
        openings++
      }
      for (const s of steps) {
        const cooled = t - openedAt >= coolDownMs
        if (s.kind === 'wait') t += s.ms
        else if (s.kind === 'admit') {
          if (inFlight !== undefined) continue
          const got = breakers.admit('a')
          if (state === 'closed') expect(got).toBe('use')
          // a prober looks after an open account: no request is its trial, even past the cool-down
          else if (background) expect(got).toBe('skip')
          // never let through while open before the cool-down
          else if (state === 'open' && !cooled) expect(got).toBe('skip')
          // exactly one trial when half-open: the first asker; every other skips while it (or a probe) runs
          else if (trial) expect(got).toBe('skip')
          else {
            expect(got).toBe('trial')
            state = 'half-open'
            trial = true
          }
          if (got !== 'skip') inFlight = got
        } else if (s.kind === 'ok' && inFlight !== undefined) {
          breakers.success('a')
          // a success closes, whatever the state; a probe under way then has nothing left to judge
          state = 'closed'
          streak = 0
          trial = false
          probing = false
          background = false
          probation = false
          inFlight = undefined
        } else if (s.kind === 'fail' && inFlight !== undefined) {
          breakers.failure('a')
          if (state === 'closed') streak++
          // open only after `failures` in a row, or at once on probation; a failed trial reopens at once
          if (state !== 'closed' || streak >= failures || probation) open()
          inFlight = undefined
        } else if (s.kind === 'release' && inFlight !== undefined) {
          breakers.release('a')
          trial = false
          probing = false
          inFlight = undefined
        } else if (s.kind === 'probe') {
          const began = breakers.beginProbe('a')
          // a probe begins only on an open account past its cool-down (or half-open), with no trial under way
          const may = state !== 'closed' && !trial && (state === 'half-open' || cooled)
          expect(began).toBe(may)
          if (may) {
            state = 'half-open'
            trial = true
            probing = true
          }
        } else if (s.kind === 'verdict') {
          breakers.endProbe('a', s.verdict, 'test')
          // a verdict counts only for the probe under way
          if (probing) {
            probing = false
            trial = false
            if (s.verdict === 'answered') {
              // closed on probation: traffic returns, and the next real failure reopens at once
              state = 'closed'
              streak = failures - 1
              probation = true
              background = false
            } else if (s.verdict === 'failed') {
              open()
            } else {
              // could not tell: the next request is the trial
              background = false
            }
          }
        }
        const shown = state === 'open' && t - openedAt >= coolDownMs ? 'half-open' : state
        expect(breakers.state('a')).toBe(shown)
        expect(breakers.probing('a')).toBe(probing)
        if (state === 'closed') expect(breakers.openedAt('a')).toBeUndefined()
        expect(opened).toBe(openings)
        // every change is on record, each a real change, the last one the state now
        const history = breakers.transitions('a')
        expect(history.length).toBeLessThanOrEqual(TRANSITIONS_KEPT)
        for (const h of history) expect(h.from).not.toBe(h.to)
        if (history.length > 0) expect(history.at(-1)!.to).toBe(state)
      }
    }), { numRuns: 500 })
  })

  it('never opens with fewer than `failures` failures in a row, whatever successes come between', () => {
    fc.assert(fc.property(fc.integer({ min: 2, max: 8 }), fc.array(fc.boolean(), { maxLength: 60 }), (failures, outcomes) => {
      const breakers = new Breakers({ failures, coolDownMs: 1000, probeTimeoutMs: 1000 }, () => 0)
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
    const breakers = new Breakers({ failures: 1, coolDownMs: 1000, probeTimeoutMs: 1000 }, () => 0)
    breakers.failure('a')
    expect([breakers.state('a'), breakers.state('b'), breakers.admit('b')]).toEqual(['open', 'closed', 'use'])
  })

  it('a forced trial of an open account closes it on success, reopens it on failure', () => {
    let t = 0
    const breakers = new Breakers({ failures: 1, coolDownMs: 1000, probeTimeoutMs: 1000 }, () => t)
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

  it('a forced trial of an account a prober looks after: with no verdict, the next request tries it (it is not left to a probe never armed)', () => {
    let t = 0
    const breakers = new Breakers({ failures: 1, coolDownMs: 1000, probeTimeoutMs: 1000 }, () => t)
    breakers.onOpen = (id) => breakers.setBackground(id, true)
    breakers.failure('a')
    t = 2000
    expect(breakers.admit('a')).toBe('skip')
    breakers.force('a')
    breakers.release('a')
    expect(breakers.admit('a')).toBe('trial')
    // its failure opens it again, and the prober looks after it again
    breakers.failure('a')
    t = 4000
    expect([breakers.state('a'), breakers.admit('a')]).toEqual(['half-open', 'skip'])
  })
})
