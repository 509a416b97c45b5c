import { describe, expect, it } from 'vitest'
import { addDays, daysBetween, isTimeZone, localDays, parseDate, todayIn } from '../../../../electron/gateway/admin/local-days.js'
import { nearestRank } from '../../../../electron/gateway/store/usage-summary.js'

const HOUR = 3_600_000

describe('local days of a time zone', () => {
  it('starts each day at local midnight', () => {
    expect(localDays('2026-03-01', '2026-03-02', 'Asia/Shanghai')).toEqual([
      { date: '2026-03-01', start: Date.parse('2026-02-28T16:00:00Z'), end: Date.parse('2026-03-01T16:00:00Z') },
      { date: '2026-03-02', start: Date.parse('2026-03-01T16:00:00Z'), end: Date.parse('2026-03-02T16:00:00Z') },
    ])
    expect(localDays('2026-12-31', '2027-01-01', 'UTC').map((d) => d.date)).toEqual(['2026-12-31', '2027-01-01'])
  })

  it('makes the days the clocks change 23 and 25 hours long', () => {
    // Berlin: summer time from 2026-03-29 02:00, back on 2026-10-25 03:00.
    const [spring] = localDays('2026-03-29', '2026-03-29', 'Europe/Berlin')
    expect(spring.start).toBe(Date.parse('2026-03-28T23:00:00Z'))
    expect(spring.end - spring.start).toBe(23 * HOUR)
    const [autumn] = localDays('2026-10-25', '2026-10-25', 'Europe/Berlin')
    expect(autumn.start).toBe(Date.parse('2026-10-24T22:00:00Z'))
    expect(autumn.end - autumn.start).toBe(25 * HOUR)
  })

  it('starts a day whose midnight is skipped at the first moment that exists', () => {
    // Santiago: on 2026-09-06 the clocks jump from 00:00 to 01:00 (UTC-4 to UTC-3).
    const [day] = localDays('2026-09-06', '2026-09-06', 'America/Santiago')
    expect(day.start).toBe(Date.parse('2026-09-06T04:00:00Z'))
    expect(day.end).toBe(Date.parse('2026-09-07T03:00:00Z'))
  })

  it('reads dates and zones strictly, and counts days', () => {
    expect(parseDate('2026-02-30')).toBe(undefined)
    expect(parseDate('2026-2-3')).toBe(undefined)
    expect(parseDate('2026-02-03')).toBe(Date.UTC(2026, 1, 3))
    expect(isTimeZone('Europe/Berlin')).toBe(true)
    expect(isTimeZone('Mars/Olympus')).toBe(false)
    expect(addDays('2026-03-01', -1)).toBe('2026-02-28')
    expect(daysBetween('2026-03-01', '2026-03-31')).toBe(30)
    expect(todayIn('Asia/Shanghai', Date.parse('2026-03-01T16:30:00Z'))).toBe('2026-03-02')
    expect(todayIn('UTC', Date.parse('2026-03-01T16:30:00Z'))).toBe('2026-03-01')
  })
})

describe('nearest-rank percentiles', () => {
  it('is the smallest value with at least p% of the values at or below it', () => {
    const hundred = Array.from({ length: 100 }, (_, i) => i + 1)
    expect([50, 90, 99].map((p) => nearestRank(hundred, p))).toEqual([50, 90, 99])
    const ten = Array.from({ length: 10 }, (_, i) => (i + 1) * 10)
    expect([50, 90, 99].map((p) => nearestRank(ten, p))).toEqual([50, 90, 100])
    expect([50, 90, 99].map((p) => nearestRank([7], p))).toEqual([7, 7, 7])
    expect(nearestRank([1, 2, 3], 50)).toBe(2)
  })
})
