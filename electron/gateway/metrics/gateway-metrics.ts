import { createHash, timingSafeEqual } from 'node:crypto'
import { Counter, Gauge, Histogram, Registry } from 'prom-client'
import type { UpstreamReason } from '../../../shared/upstream-reasons.js'
import type { RequestContext } from '../context.js'
import { allInputTokens } from '../money/billed-usage.js'
import { chargeNano, nanoToUsd } from '../money/money.js'
import { reasonOfVendorError } from '../relay/upstream-failure.js'

/** The breaker states as the gauge reads them. */
export const BREAKER_STATE_VALUE = { closed: 0, 'half-open': 1, open: 2 } as const

/** What the scrape reads from the process as it is at that moment (nothing of it is counted per request). */
export interface MetricsSources {
  /** requests holding a concurrency slot in this process, in all and by key id */
  inFlight(): { total: number; byKey: ReadonlyMap<string, number> }
  /** each upstream account's id and its circuit breaker's state in this process */
  breakers(): Iterable<{ account: string; state: keyof typeof BREAKER_STATE_VALUE }>
}

/** The environment variable that holds the metrics token; without it /metrics opens only to the admin API's proofs. */
export const METRICS_TOKEN_ENV = 'GATEHOUSE_METRICS_TOKEN'
/** A token shorter than this could be guessed: the gateway refuses to start with it. */
export const MIN_METRICS_TOKEN_CHARS = 32

const digest = (text: string) => createHash('sha256').update(text).digest()

/** Checks an `Authorization` header against the metrics token, in constant time; no token: nothing passes. */
export function metricsTokenCheck(token: string | undefined): (authorization: string | undefined) => boolean {
  if (token === undefined || token === '') return () => false
  if (token.length < MIN_METRICS_TOKEN_CHARS) throw new Error(`${METRICS_TOKEN_ENV} must be at least ${MIN_METRICS_TOKEN_CHARS} characters (e.g. openssl rand -hex 32)`)
  const expected = digest(token)
  return (authorization) => authorization !== undefined && authorization.startsWith('Bearer ') && timingSafeEqual(digest(authorization.slice(7)), expected)
}

const LATENCY_BUCKETS = [0.005, 0.025, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300]

/**
 * Why an attempt failed, in the reasons `error.upstream` names (shared/upstream-reasons.ts); undefined for a served
 * attempt, one the client ended (`aborted`) and an account skipped without a call.
 */
export function attemptReason(outcome: string): UpstreamReason | undefined {
  // The attempt record keeps a vendor's status, not its code: a moderation refusal counts as `vendor_refused`.
  if (outcome.startsWith('status ')) return reasonOfVendorError(Number(outcome.slice(7)), '')
  switch (outcome) {
    case 'timeout': return 'timeout'
    case 'connect': case 'reset': return 'unreachable'
    case 'empty': case 'malformed': return 'bad_answer'
    case 'error': return 'vendor_error'
    default: return undefined
  }
}

/**
 * A counter whose counts wait in a Map, by their label values, until a scrape hands them to prom-client: prom-client
 * hashes and checks a label set on every increment (five a request), where this adds to a Map entry. The counts only
 * grow, so each scrape writes them afresh.
 */
function tally<L extends string>(config: { name: string; help: string; labelNames: readonly L[]; registers: Registry[] }) {
  const counts = new Map<string, { labels: Record<L, string>; value: number }>()
  new Counter<L>({
    ...config,
    collect() {
      this.reset()
      for (const { labels, value } of counts.values()) this.inc(labels, value)
    },
  })
  return (values: readonly string[], by = 1): void => {
    const key = values.join('\u0000')
    let entry = counts.get(key)
    if (entry === undefined) {
      entry = { labels: Object.fromEntries(config.labelNames.map((name, i) => [name, values[i]])) as Record<L, string>, value: 0 }
      counts.set(key, entry)
    }
    entry.value += by
  }
}

/**
 * The gateway's Prometheus metrics (README "Metrics"), one registry per gateway. Counters move once per ledger row
 * (server.ts); in-flight requests and breaker states are read from their owners when scraped.
 */
export function createGatewayMetrics(sources: MetricsSources, token?: string) {
  const allows = metricsTokenCheck(token)
  const registry = new Registry()
  const registers = [registry]
  const requests = tally({ name: 'gatehouse_requests_total', help: 'Requests written to the ledger, by endpoint, model and HTTP status.', labelNames: ['endpoint', 'model', 'status'] as const, registers })
  const latency = new Histogram({ name: 'gatehouse_request_duration_seconds', help: 'Time from a request\'s arrival to its ledger row, by endpoint and model.', labelNames: ['endpoint', 'model'] as const, buckets: LATENCY_BUCKETS, registers })
  const tokens = tally({ name: 'gatehouse_tokens_total', help: 'Tokens billed, by model and direction (input counts cache reads and writes).', labelNames: ['model', 'direction'] as const, registers })
  const costUsd = tally({ name: 'gatehouse_cost_usd_total', help: 'Cost charged to the account in USD, by model.', labelNames: ['model'] as const, registers })
  const attempts = tally({ name: 'gatehouse_upstream_attempts_total', help: 'Upstream attempts of the failover loop, by upstream account and result (ok, failed, skipped).', labelNames: ['account', 'result'] as const, registers })
  const failovers = tally({ name: 'gatehouse_failovers_total', help: 'Moves of a request to the next upstream account, by endpoint.', labelNames: ['endpoint'] as const, registers })
  const errors = tally({ name: 'gatehouse_upstream_errors_total', help: 'Failed upstream attempts, by upstream account and reason.', labelNames: ['account', 'reason'] as const, registers })
  new Gauge({
    name: 'gatehouse_in_flight_requests', help: 'Requests holding a concurrency slot in this process.', registers,
    collect() { this.set(sources.inFlight().total) },
  })
  new Gauge({
    name: 'gatehouse_key_in_flight_requests', help: 'Requests holding a concurrency slot in this process, by gateway key id.', labelNames: ['key_id'] as const, registers,
    collect() {
      this.reset()
      for (const [key, n] of sources.inFlight().byKey) this.set({ key_id: key }, n)
    },
  })
  new Gauge({
    name: 'gatehouse_breaker_state', help: 'Each upstream account\'s circuit breaker in this process: 0 closed, 1 half-open, 2 open.', labelNames: ['account'] as const, registers,
    collect() {
      this.reset()
      for (const { account, state } of sources.breakers()) this.set({ account }, BREAKER_STATE_VALUE[state])
    },
  })

  return {
    /** whether an `Authorization` header carries the metrics token */
    allows,
    contentType: registry.contentType,
    /** the text exposition format of every metric */
    text: (): Promise<string> => registry.metrics(),
    /**
     * Counts a request as its ledger row records it (billing.ts recordRequest): the served model (a name a client
     * made up is '', never a label), the row's status, its usage, cost and attempts.
     */
    record(ctx: RequestContext, endpoint: string, status: number): void {
      const { outcome } = ctx
      const model = ctx.model?.id ?? ''
      requests([endpoint, model, String(outcome.status ?? status)])
      latency.labels(endpoint, model).observe((performance.now() - ctx.startedAt) / 1000)
      if (outcome.usage !== undefined) {
        const input = allInputTokens(outcome.usage)
        if (input > 0) tokens([model, 'input'], input)
        if (outcome.usage.outputTokens > 0) tokens([model, 'output'], outcome.usage.outputTokens)
      }
      const cost = chargeNano(outcome.costNano)
      if (cost > 0) costUsd([model], nanoToUsd(cost))
      if (outcome.attempts === undefined) return
      for (const a of outcome.attempts) {
        if (a.next === 'failed over') failovers([endpoint])
        if (a.outcome === 'ok') attempts([a.account, 'ok'])
        else if (a.outcome.startsWith('skipped')) attempts([a.account, 'skipped'])
        else if (a.outcome !== 'aborted') {
          attempts([a.account, 'failed'])
          const reason = attemptReason(a.outcome)
          if (reason !== undefined) errors([a.account, reason])
        }
      }
    },
  }
}

export type GatewayMetrics = ReturnType<typeof createGatewayMetrics>
