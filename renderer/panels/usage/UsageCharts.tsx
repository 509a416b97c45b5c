import { useCallback, useEffect, useMemo, useState } from 'react'
import uPlot from 'uplot'
import type { UsageBy, UsageDay, UsageSummary } from '../../../shared/admin'
import { admin } from '../../api/admin'
import { ErrorNote } from '../../components/ErrorNote'
import { formatMs, formatUsd } from '../../format'
import { useCount, useT } from '../../i18n'
import { useAppStore } from '../../stores/app-store'
import { useAction } from '../keys/use-action'
import { PLURALS, STRINGS, type UsageCount, type UsageT } from './strings'
import { cssColour, exposeYAxis, fitLabels, OTHER_COLOUR, PALETTE, UPlotChart } from './UPlotChart'
import { barsOf, dayRange, daySeconds, errorRates, keyShares, latencyLines, latencyTick, onLogAxis, rangeTotals, RANGES, stackSpend, summaryQuery, usdTick, type KeyShare, type RangeDays, type SpendLayer } from './usage-charts'

const TIME_ZONE = Intl.DateTimeFormat().resolvedOptions().timeZone

/**
 * Pictures of the days chosen (GET /admin/v1/usage/summary): spending stacked by model or group, requests with the
 * error rate, latency percentiles, spending by key. Each chart has a table of its figures for screen readers (and
 * the browser tests).
 */
export function UsageCharts({ housekeeping }: { housekeeping: boolean }) {
  const t = useT(STRINGS)
  const count = useCount(PLURALS)
  const [days, setDays] = useState<RangeDays>(30)
  const [by, setBy] = useState<UsageBy>('model')
  const [summary, setSummary] = useState<UsageSummary | null>(null)
  const load = useAction()
  const reload = useCallback(
    () => load.run(async () => setSummary(await admin.usageSummary(summaryQuery(days, by, housekeeping, new Date(), TIME_ZONE)))),
    [load.run, days, by, housekeeping],
  )
  useEffect(() => {
    void reload()
  }, [reload])
  const totals = summary && rangeTotals(summary.days)
  return (
    <section className="card usage-charts" data-testid="usage-charts">
      <div className="row">
        <label>
          <span className="muted small">{t('range')}</span>
          <select value={days} onChange={(e) => setDays(Number(e.target.value) as RangeDays)} data-testid="usage-range">
            {RANGES.map((n) => <option key={n} value={n}>{count('lastDays', n)}</option>)}
          </select>
        </label>
        {totals && (
          <span className="muted" data-testid="usage-range-total">
            {t('rangeTotal', { cost: formatUsd(totals.cost), requests: count('requests', totals.requests), errors: count('errors', totals.errors) })}
          </span>
        )}
        <button type="button" className="link" onClick={() => void reload()} disabled={load.busy} data-testid="usage-charts-refresh">{t('refresh')}</button>
      </div>
      <ErrorNote error={load.error} />
      {summary && totals && (totals.requests === 0
        // The place for the panel's empty state (what to do first when nothing was asked yet).
        ? <p className="muted" data-testid="usage-charts-empty">{t('noUsage')}</p>
        : (
          <div className="usage-chart-grid">
            <SpendChart t={t} count={count} summary={summary} by={by} setBy={setBy} />
            <ActivityChart t={t} days={summary.days} />
            <LatencyChart t={t} days={summary.days} />
            <KeySpend t={t} count={count} summary={summary} />
          </div>
        ))}
    </section>
  )
}

const dayLabel = (d: UsageDay) => new Date(d.start).toLocaleDateString(undefined, { month: 'short', day: 'numeric' })

/** Axes in the theme's colours, the x axis in local days. */
function axes(y: Partial<uPlot.Axis>, y2?: Partial<uPlot.Axis>): uPlot.Axis[] {
  const stroke = cssColour('--muted')
  const grid = { stroke: cssColour('--border'), width: 1 }
  const list: uPlot.Axis[] = [{ stroke, grid, ticks: grid }, { stroke, grid, ticks: grid, size: 64, ...y }]
  if (y2) list.push({ stroke, grid: { show: false }, side: 1, size: 48, ...y2 })
  return list
}

/** The x series: the legend names the day hovered. */
const daySeries = (t: UsageT): uPlot.Series => ({
  label: t('col_day'),
  value: (_u, v) => (v === null ? '–' : new Date(v * 1000).toLocaleDateString(undefined, { month: 'short', day: 'numeric' })),
})

const bars = uPlot.paths.bars!({ size: [0.7, 48], align: 0 })
const zeroBased: uPlot.Scale = { range: (_u, _min, max) => [0, max > 0 ? max * 1.1 : 1] }
const dayScale: uPlot.Scale = { time: true, range: (_u, min, max) => dayRange(min, max) }

function seriesLabel(t: UsageT, count: UsageCount, by: UsageBy, layer: SpendLayer): string {
  if (layer.other) return count('otherSeries', layer.other.count)
  return layer.id ?? (by === 'model' ? t('noModel') : t('noGroup'))
}

function SpendChart({ t, count, summary, by, setBy }: { t: UsageT; count: UsageCount; summary: UsageSummary; by: UsageBy; setBy: (by: UsageBy) => void }) {
  const language = useAppStore((s) => s.language)
  const layers = useMemo(() => stackSpend(summary), [summary])
  const labels = layers.map((l) => seriesLabel(t, count, summary.by, l))
  const colour = (i: number) => (layers[i].other ? OTHER_COLOUR : PALETTE[i % PALETTE.length])
  // Each layer is drawn as a bar to the top of its stack, the highest first, so the lower ones paint over it.
  const order = layers.map((_, i) => i).reverse()
  // A layer that spent nothing that day draws no bar (its top is the one below it, hidden anyway).
  const data = useMemo<uPlot.AlignedData>(() => [daySeconds(summary.days), ...order.map((i) => layers[i].top.map((top, d) => (layers[i].cost[d] === 0 ? null : top)))], [summary, layers])
  const options = useMemo<Omit<uPlot.Options, 'width' | 'height'>>(() => ({
    scales: { x: dayScale, y: zeroBased },
    axes: axes({ values: (_u, ticks, _axis, _space, step) => ticks.map((v) => usdTick(v, step)) }),
    series: [daySeries(t), ...order.map((i) => ({
      label: labels[i], fill: colour(i), stroke: colour(i), paths: bars, points: { show: false },
      // The legend shows the layer's own cost, not the stack's height.
      value: (_u: uPlot, _v: number | null, _s: number, idx: number | null) => (idx === null ? '–' : formatUsd(layers[i].cost[idx])),
    }))],
  }), [layers, labels.join('\n'), language])
  return (
    <figure className="usage-figure-chart usage-wide" data-testid="usage-spend">
      <figcaption className="row">
        <strong>{t('spendTitle')}</strong>
        <span className="usage-switch" role="group">
          {(['model', 'group'] as const).map((b) => (
            <button key={b} type="button" className={by === b ? 'primary' : ''} aria-pressed={by === b} onClick={() => setBy(b)} data-testid={`usage-by-${b}`}>
              {t(b === 'model' ? 'byModel' : 'byGroup')}
            </button>
          ))}
        </span>
      </figcaption>
      {layers.length > 0 && <UPlotChart options={options} data={data} testId="usage-spend-chart" />}
      <table className="usage-sr-only" data-testid="usage-spend-table" data-by={summary.by}>
        <caption>{t('chartData')}: {t('spendTitle')}</caption>
        <thead>
          <tr>
            <th>{t('col_day')}</th>
            {layers.map((l, i) => <th key={i} data-series={l.other ? '' : (l.id ?? '')} data-other={l.other ? 'true' : undefined}>{labels[i]}</th>)}
            <th>{t('col_total')}</th>
          </tr>
        </thead>
        <tbody>
          {summary.days.map((d, di) => (
            <tr key={d.date} data-testid="usage-spend-day" data-date={d.date}>
              <th>{dayLabel(d)}</th>
              {layers.map((l, i) => <td key={i} data-usd={l.cost[di]}>{formatUsd(l.cost[di])}</td>)}
              <td data-testid="usage-spend-total" data-usd={d.cost}>{formatUsd(d.cost)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </figure>
  )
}

function ActivityChart({ t, days }: { t: UsageT; days: UsageDay[] }) {
  const language = useAppStore((s) => s.language)
  const data = useMemo<uPlot.AlignedData>(() => [daySeconds(days), barsOf(days.map((d) => d.requests)), errorRates(days)], [days])
  const options = useMemo<Omit<uPlot.Options, 'width' | 'height'>>(() => ({
    scales: { x: dayScale, y: zeroBased, pct: { range: [0, 100] } },
    axes: axes({ values: (_u, ticks) => ticks.map((v) => v.toLocaleString()) }, { scale: 'pct', values: (_u, ticks) => ticks.map((v) => `${v}%`) }),
    series: [
      daySeries(t),
      { label: t('col_requests'), fill: `${PALETTE[0]}99`, stroke: PALETTE[0], paths: bars, points: { show: false } },
      { label: t('errorRate'), scale: 'pct', stroke: cssColour('--danger'), width: 2, points: { show: true, size: 5 }, value: (_u: uPlot, v: number | null) => (v === null ? '–' : `${v.toFixed(1)}%`) },
    ],
  }), [language])
  const rates = errorRates(days)
  return (
    <figure className="usage-figure-chart" data-testid="usage-activity">
      <figcaption><strong>{t('activityTitle')}</strong></figcaption>
      <UPlotChart options={options} data={data} testId="usage-activity-chart" />
      <table className="usage-sr-only" data-testid="usage-activity-table">
        <caption>{t('chartData')}: {t('activityTitle')}</caption>
        <thead><tr><th>{t('col_day')}</th><th>{t('col_requests')}</th><th>{t('col_errors')}</th><th>{t('col_errorRate')}</th></tr></thead>
        <tbody>
          {days.map((d, i) => (
            <tr key={d.date} data-date={d.date} data-requests={d.requests} data-errors={d.errors}>
              <th>{dayLabel(d)}</th><td>{d.requests}</td><td>{d.errors}</td><td>{rates[i] === null ? '–' : `${rates[i]!.toFixed(1)}%`}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </figure>
  )
}

function LatencyChart({ t, days }: { t: UsageT; days: UsageDay[] }) {
  const language = useAppStore((s) => s.language)
  const lines = useMemo(() => latencyLines(days), [days])
  // A log axis: a p50 of 7 ms and a p99 of 95 s are both readable on it.
  const data = useMemo<uPlot.AlignedData>(() => [daySeconds(days), onLogAxis(lines.p50), onLogAxis(lines.p90), onLogAxis(lines.p99)], [days, lines])
  const options = useMemo<Omit<uPlot.Options, 'width' | 'height'>>(() => ({
    scales: { x: dayScale, y: { distr: 3, log: 10 } },
    axes: axes({ values: (_u, ticks) => ticks.map(latencyTick), size: fitLabels }),
    hooks: { draw: [exposeYAxis] },
    series: [daySeries(t), ...(['p50', 'p90', 'p99'] as const).map((p, i) => ({
      // Points too: a day between two quiet days has no line to draw.
      label: p, stroke: [PALETTE[2], PALETTE[1], cssColour('--danger')][i], width: 2, spanGaps: false, points: { show: true, size: 5 },
      // The legend reads the day's own figure (a 0 ms one is drawn at the axis floor).
      value: (_u: uPlot, _v: number | null, _s: number, day: number | null) => {
        const v = day === null ? null : lines[p][day]
        return v === null || v === undefined ? '–' : formatMs(v)
      },
    }))],
  }), [language, lines])
  return (
    <figure className="usage-figure-chart" data-testid="usage-latency">
      <figcaption><strong>{t('latencyTitle')}</strong></figcaption>
      <UPlotChart options={options} data={data} testId="usage-latency-chart" />
      <table className="usage-sr-only" data-testid="usage-latency-table">
        <caption>{t('chartData')}: {t('latencyTitle')}</caption>
        <thead><tr><th>{t('col_day')}</th><th>p50</th><th>p90</th><th>p99</th></tr></thead>
        <tbody>
          {days.map((d) => (
            <tr key={d.date} data-date={d.date} title={d.latency ? t('sampled', { n: d.latency.sampled }) : undefined}>
              <th>{dayLabel(d)}</th>
              {(['p50', 'p90', 'p99'] as const).map((p) => <td key={p} data-ms={d.latency?.[p]}>{d.latency ? formatMs(d.latency[p]) : '–'}</td>)}
            </tr>
          ))}
        </tbody>
      </table>
    </figure>
  )
}

function keyLabel(t: UsageT, count: UsageCount, row: KeyShare): string {
  const k = row.key
  if ('other' in k) return count('otherKeys', k.other)
  if (k.keyId === null) return t('noKey')
  if (k.hint === null) return t('revokedKey')
  if (k.app) return `${t('appKey')} (${k.hint})`
  return k.name ? `${k.name} (${k.hint})` : k.hint
}

/** Spending per key as bars of their share: a table, readable as it is. */
function KeySpend({ t, count, summary }: { t: UsageT; count: UsageCount; summary: UsageSummary }) {
  const rows = keyShares(summary)
  return (
    <figure className="usage-figure-chart" data-testid="usage-keys">
      <figcaption><strong>{t('keysTitle')}</strong></figcaption>
      <table className="usage-key-table">
        <thead><tr><th>{t('key')}</th><th>{t('col_share')}</th><th>{t('col_cost')}</th><th>{t('col_requests')}</th></tr></thead>
        <tbody>
          {rows.map((r, i) => (
            <tr key={i} data-testid="usage-key-spend" data-key={'other' in r.key ? '' : (r.key.keyId ?? '')} data-usd={r.cost}>
              <td className="usage-ellipsis" title={keyLabel(t, count, r)}>{keyLabel(t, count, r)}</td>
              <td className="usage-share"><span style={{ width: `${Math.round(r.share * 100)}%` }} /></td>
              <td>{formatUsd(r.cost)}</td>
              <td>{count('requests', r.requests)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </figure>
  )
}
