/**
 * Calendar days of an IANA time zone as millisecond ranges, so the usage summary buckets by the user's local day
 * (a day is 23 or 25 hours long where the clocks change). Pure; Node's Intl knows every zone.
 */

/** A checked time zone's formatter of wall-clock parts; throws RangeError for an unknown zone. */
function wallClock(timeZone: string): Intl.DateTimeFormat {
  return new Intl.DateTimeFormat('en-US', {
    timeZone, hourCycle: 'h23', year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', second: 'numeric',
  })
}

/** The wall clock of `ms` in the zone, as if it were UTC (whole seconds). */
function wallAsUtc(clock: Intl.DateTimeFormat, ms: number): number {
  const parts: Record<string, number> = {}
  for (const p of clock.formatToParts(new Date(ms))) if (p.type !== 'literal') parts[p.type] = Number(p.value)
  return Date.UTC(parts.year, parts.month - 1, parts.day, parts.hour, parts.minute, parts.second)
}

const isoDate = (utcMidnight: number) => new Date(utcMidnight).toISOString().slice(0, 10)

/** Whether the text names a time zone Intl knows. */
export function isTimeZone(timeZone: string): boolean {
  try {
    wallClock(timeZone)
    return true
  } catch {
    return false
  }
}

/** A `YYYY-MM-DD` date as the UTC midnight of that calendar date, or undefined when it is no date. */
export function parseDate(text: string): number | undefined {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text)
  if (!m) return undefined
  const ms = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]))
  return isoDate(ms) === text ? ms : undefined
}

/** Today's date in the zone, `YYYY-MM-DD`. */
export function todayIn(timeZone: string, now: number): string {
  return isoDate(wallAsUtc(wallClock(timeZone), now))
}

/** The date `n` days after `date` (`YYYY-MM-DD`; n may be negative). */
export function addDays(date: string, n: number): string {
  return isoDate(parseDate(date)! + n * 86_400_000)
}

/** Whole days from `a` to `b` (`YYYY-MM-DD`). */
export function daysBetween(a: string, b: string): number {
  return Math.round((parseDate(b)! - parseDate(a)!) / 86_400_000)
}

export interface LocalDay {
  date: string
  /** first millisecond of the day */
  start: number
  /** first millisecond of the next day */
  end: number
}

/** The first millisecond of a calendar date in the zone (where midnight is skipped, the first that exists). */
function startOf(clock: Intl.DateTimeFormat, utcMidnight: number): number {
  // The wall clock's distance from UTC, read at a first guess and again at the result (the offset may differ).
  const first = utcMidnight - (wallAsUtc(clock, utcMidnight) - utcMidnight)
  const second = utcMidnight - (wallAsUtc(clock, first) - first)
  // Where midnight does not exist the second guess lands on the evening before: the first guess is the day's start.
  return isoDate(wallAsUtc(clock, second)) === isoDate(utcMidnight) ? second : first
}

/** The local days from `since` to `until` (inclusive, `YYYY-MM-DD`) in the zone. */
export function localDays(since: string, until: string, timeZone: string): LocalDay[] {
  const clock = wallClock(timeZone)
  const first = parseDate(since)!
  const count = daysBetween(since, until) + 1
  const starts = Array.from({ length: count + 1 }, (_, i) => startOf(clock, first + i * 86_400_000))
  return starts.slice(0, count).map((start, i) => ({ date: isoDate(first + i * 86_400_000), start, end: starts[i + 1] }))
}
