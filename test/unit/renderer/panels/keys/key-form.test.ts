import { describe, expect, it } from 'vitest'
import type { KeySummary } from '../../../../../shared/admin'
import {
  dateInputOf, EMPTY_KEY_FORM, endOfDay, keyCreateBody, keyLimitsPatch, keyStatus, limitsFormOf,
} from '../../../../../renderer/panels/keys/key-form'

const key = (patch: Partial<KeySummary> = {}): KeySummary => ({
  id: 'k1', hint: 'sk-gh-ab…wxyz', group: 'g', name: null, concurrency: null, quota: null, used: 0, reserved: 0, expiresAt: null,
  disabled: false, createdAt: 0, app: false, ...patch,
})

describe('gateway key forms', () => {
  it('creates with only the limits that are set', () => {
    expect(keyCreateBody('g', EMPTY_KEY_FORM)).toEqual({ ok: true, body: { group: 'g' } })
    const r = keyCreateBody('g', { name: ' ci ', concurrency: '3', quota: '12.5', expires: '2030-01-31' })
    expect(r).toEqual({ ok: true, body: { group: 'g', name: 'ci', concurrency: 3, quota: 12.5, expiresAt: endOfDay('2030-01-31') } })
  })

  it.each([
    [{ concurrency: '0' }, 'concurrency'], [{ concurrency: '1.5' }, 'concurrency'], [{ concurrency: 'x' }, 'concurrency'],
    [{ quota: '-1' }, 'quota'], [{ quota: 'lots' }, 'quota'], [{ expires: '2030-02-31' }, 'expires'], [{ expires: 'soon' }, 'expires'],
  ])('refuses %o (%s)', (patch, problem) => {
    expect(keyCreateBody('g', { ...EMPTY_KEY_FORM, ...patch })).toEqual({ ok: false, problem })
  })

  it('patches every limit, null where cleared', () => {
    expect(keyLimitsPatch({ concurrency: '', quota: '0', expires: '' })).toEqual({ ok: true, body: { concurrency: null, quota: 0, expiresAt: null } })
  })

  it('expires at the end of the chosen local day, and shows it back as that day', () => {
    const s = endOfDay('2031-07-04')!
    const d = new Date(s * 1000)
    expect([d.getFullYear(), d.getMonth(), d.getDate(), d.getHours(), d.getMinutes(), d.getSeconds()]).toEqual([2031, 6, 4, 23, 59, 59])
    expect(dateInputOf(s)).toBe('2031-07-04')
    expect(dateInputOf(null)).toBe('')
  })

  it('fills the limits form from a key', () => {
    expect(limitsFormOf(key({ concurrency: 2, quota: 5, expiresAt: endOfDay('2030-01-02')! }))).toEqual({ concurrency: '2', quota: '5', expires: '2030-01-02' })
  })

  it('tells the status a call would meet first', () => {
    expect(keyStatus(key(), 100)).toBe('active')
    expect(keyStatus(key({ disabled: true, expiresAt: 50 }), 100)).toBe('disabled')
    expect(keyStatus(key({ expiresAt: 100 }), 100)).toBe('expired')
    expect(keyStatus(key({ quota: 1, used: 1 }), 100)).toBe('exhausted')
    expect(keyStatus(key({ quota: 1, used: 0.5, expiresAt: 200 }), 100)).toBe('active')
  })
})
