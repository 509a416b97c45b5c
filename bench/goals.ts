// The ratios the report prints and issue 27's one-core goals, as pure functions of the medians. Floors: Gatehouse's
// JSON chat (req/s, latency) and its memory are held to the buffering bare proxy, which answers JSON the way a
// gateway that reads the usage must (whole, in one write); its stream TTFB to the streaming bare proxy, since no
// proxy can buffer a stream and stay one.

/** `a` as a share of `b`, in percent; NaN when either is missing or `b` is 0. */
export function share(a: number | undefined, b: number | undefined): number {
  return a === undefined || b === undefined || b === 0 ? NaN : (100 * a) / b
}

/** `a` as a multiple of `b`; NaN when either is missing or `b` is 0. */
export function multiple(a: number | undefined, b: number | undefined): number {
  return a === undefined || b === undefined || b === 0 ? NaN : a / b
}

/** `a` − `b`; NaN when either is missing. */
export function difference(a: number | undefined, b: number | undefined): number {
  return a === undefined || b === undefined ? NaN : a - b
}

/** Issue 27's targets for Gatehouse alone on one core. */
export const ONE_CORE_GOALS = {
  /** req/s at least this share (%) of the buffering proxy's, at each of `throughputAt` connections */
  minThroughputPct: 80,
  throughputAt: [16, 64],
  /** p99 at `p99At` connections at most this multiple of the buffering proxy's */
  maxP99Multiple: 1.5,
  p99At: 64,
  /** stream time to first byte, p50, at most this multiple of the streaming proxy's at each of `ttfbAt` connections */
  maxTtfbMultiple: 1.2,
  ttfbAt: [1, 16],
  /** resident memory after the chat and stream load, MB (10^6 bytes) */
  maxRssAfterLoadMb: 120,
} as const

/** What the goals are judged on: Gatehouse's figures as ratios to its floors, per connection count. */
export interface GoalInput {
  /** Gatehouse's JSON chat req/s as a share (%) of the buffering proxy's */
  throughputPct: Record<number, number>
  /** Gatehouse's JSON chat p99 as a multiple of the buffering proxy's */
  p99Multiple: Record<number, number>
  /** Gatehouse's stream TTFB p50 as a multiple of the streaming proxy's */
  ttfbMultiple: Record<number, number>
  /** Gatehouse's VmRSS after the chat and stream load, MB */
  rssAfterLoadMb: number
  /** 2xx answers its clients read and ledger rows with a 2xx status; undefined when the ledger could not be read */
  ledger: { answered: number; rows: number } | undefined
}

export interface Goal {
  name: string
  goal: string
  /** the measured value as printed: n/a when it was not measured */
  value: string
  /** false as well when the value was not measured */
  met: boolean
}

const fixed = (v: number, digits: number, unit: string) => (Number.isFinite(v) ? `${v.toFixed(digits)}${unit}` : 'n/a')

/** Each of issue 27's one-core goals, judged on `i`; a figure that was not measured (NaN) does not meet its goal. */
export function oneCoreGoals(i: GoalInput): Goal[] {
  const g = ONE_CORE_GOALS
  const throughput = g.throughputAt.map((c) => {
    const v = i.throughputPct[c] ?? NaN
    return { name: `req/s @${c}`, goal: `>= ${g.minThroughputPct}% of buffering proxy`, value: fixed(v, 1, '%'), met: v >= g.minThroughputPct }
  })
  const p99 = i.p99Multiple[g.p99At] ?? NaN
  const ttfb = g.ttfbAt.map((c) => {
    const v = i.ttfbMultiple[c] ?? NaN
    return { name: `stream TTFB p50 @${c}`, goal: `<= ${g.maxTtfbMultiple}× streaming proxy`, value: fixed(v, 2, '×'), met: v <= g.maxTtfbMultiple }
  })
  const l = i.ledger
  return [
    ...throughput,
    { name: `p99 @${g.p99At}`, goal: `<= ${g.maxP99Multiple}× buffering proxy`, value: fixed(p99, 2, '×'), met: p99 <= g.maxP99Multiple },
    ...ttfb,
    { name: 'RSS after load', goal: `<= ${g.maxRssAfterLoadMb} MB`, value: fixed(i.rssAfterLoadMb, 0, ' MB'), met: i.rssAfterLoadMb <= g.maxRssAfterLoadMb },
    // Rows beyond the answers read are requests a load run cut off after Gatehouse had recorded them (see printLedger).
    { name: 'ledger rows', goal: 'one per 2xx answer', value: l ? `${l.rows} / ${l.answered}` : 'n/a', met: l !== undefined && l.rows >= l.answered },
  ]
}
