/**
 * One account's try, as every caller of the failover loop (relay, images, video submission) makes it: the call
 * (`sendCall`), then why it failed sorted out once (`failureOf`): fail over to the next account, or end the request.
 */
import type { ClientAbort } from '../client/client-abort.js'
import type { HttpSpec } from '../contract/http-spec.js'
import { GatewayError } from '../errors.js'
import { AnswerTooLarge, readErrorText, transportFailure, type Http, type UpstreamResponse } from '../upstreams/http.js'
import type { RequestContext } from '../context.js'
import type { UpstreamAccount } from '../contract/accounts.js'
import type { Attempt, FailoverRun, Routing } from './failover.js'
import { retryDelayOf } from './retry-after.js'
import { isFailoverStatus, reasonOfVendorError, type UpstreamFailure } from './upstream-failure.js'

/** An answer no adapter should read (nested deeper than any answer needs): failed over like an unparsable one. */
export class MalformedAnswer extends Error {}

/** What a call cut by its own signal counts as: the client leaving (`reset`), or the call's time limit (`timeout`). */
export type AbortedAs = 'reset' | 'timeout'

/** The retry delay each vendor error answered by `sendCall` asked for (retry-after.ts), kept beside the error. */
const retryDelays = new WeakMap<GatewayError, number>()

/**
 * Sends one call to one account: the response, or the adapter's error for an error status (its body read for the
 * message, and with its headers for the retry delay it asks for).
 */
export async function sendCall(http: Http, spec: HttpSpec, signal: AbortSignal | ClientAbort, adapter: { fromError(status: number, text: string): GatewayError }): Promise<UpstreamResponse> {
  const response = await http.send(spec, signal)
  if (response.statusCode >= 400) {
    const text = await readErrorText(response)
    // The adapter's status decides: a vendor may say "your account key is bad" with a 400.
    const error = adapter.fromError(response.statusCode, text)
    error.upstream = { reason: reasonOfVendorError(error.status, error.code), status: response.statusCode, message: error.message }
    const delay = isFailoverStatus(error.status) ? retryDelayOf(response.headers, text) : undefined
    if (delay !== undefined) retryDelays.set(error, delay)
    throw error
  }
  return response
}

/** An upstream's error (spec §7): 401/403/408/429/5xx fail over; any other status is the client's own error, thrown. */
export function statusFailure(error: GatewayError): UpstreamFailure {
  if (!isFailoverStatus(error.status)) throw error
  const retryAfterMs = retryDelays.get(error)
  return retryAfterMs === undefined ? { kind: 'status', status: error.status, error } : { kind: 'status', status: error.status, error, retryAfterMs }
}

/** Why a call failed: an upstream error (statusFailure), a malformed answer (unparsable, too large, too deep), or the transport. */
export function failureOf(err: unknown, abortedAs: AbortedAs): UpstreamFailure {
  if (err instanceof GatewayError) return statusFailure(err)
  if (err instanceof SyntaxError || err instanceof AnswerTooLarge || err instanceof MalformedAnswer) return { kind: 'malformed' }
  const reason = transportFailure(err)
  return { kind: 'transport', reason: reason === 'aborted' ? abortedAs : reason }
}

/** One account's try: what `call` made, or why the next account should be tried; the client's own error is thrown. */
export async function attempt<T>(call: () => Promise<T>, abortedAs: AbortedAs): Promise<Attempt<T>> {
  try {
    return { done: true, value: await call() }
  } catch (err) {
    return { done: false, failure: failureOf(err, abortedAs) }
  }
}

/** Each request's retry budget spent so far: the runs of the loop for its model and its fallbacks share it. */
const budgets = new WeakMap<RequestContext, NonNullable<FailoverRun['spent']>>()

/**
 * A request's run of the failover loop for one model: its attempts recorded for its ledger row, their count so far
 * sent as `x-gatehouse-attempts` on its answer (a stream's: the count when its headers went out). Every run for the
 * same request (a model, then its fallbacks) shares one attempt list and one retry budget.
 */
export function requestRun(ctx: RequestContext, routing: Routing, model: string, options: { idempotent?: boolean } = {}): FailoverRun {
  const attempts = (ctx.outcome.attempts ??= [])
  let spent = budgets.get(ctx)
  if (spent === undefined) budgets.set(ctx, (spent = { calls: 0, waitedMs: 0 }))
  const { res } = ctx
  return {
    routing,
    model,
    attempts,
    idempotent: options.idempotent,
    spent,
    // A request that holds its worst case moves the hold onto each account tried (ctx.hold: a fallback's own).
    ...(ctx.hold !== undefined ? { admits: (upstream: UpstreamAccount) => ctx.hold?.onUpstream(upstream) ?? Promise.resolve(undefined) } : {}),
    onCall: (calls) => {
      if (!res.headersSent) res.setHeader('x-gatehouse-attempts', String(calls))
    },
  }
}
