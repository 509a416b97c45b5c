import type { CatalogModel } from '../../../shared/types.js'
import { placedHold, upstreamBudgetRefusal } from '../billing/holds.js'
import type { Admitted } from '../admission.js'
import type { RequestContext } from '../context.js'
import { asGatewayError, GatewayError, gatewayError } from '../errors.js'
import { readAnswer } from '../upstreams/http.js'
import { nanoToUsd } from '../money/money.js'
import type { UpstreamAccount } from '../contract/accounts.js'
import { attempt, requestRun, sendCall } from '../relay/attempt.js'
import { failover, type Attempt, type FailoverRun } from '../relay/failover.js'
import { isFailoverStatus } from '../relay/upstream-failure.js'
import type { Services } from '../services.js'
import type { VideoDedupe, VideoTaskRow } from '../store/tasks.js'
import { parseJson } from '../upstreams/video/adapter-helpers.js'
import { videoAdapterFor, type VideoSubmission } from '../upstreams/video/index.js'
import { newTaskId } from './image-tasks.js'
import { videoPrice, type VideoPrice } from './video-pricing.js'
import { submissionHash, type VideoOrder } from './video-request.js'
import { storedTaskError } from './task-error.js'
import { submissionsUnderWay, syncAccount, videoRuntime } from './video-runtime.js'

/** Spec §7 rule 5: an identical submission of the same key within this window answers the earlier task. */
export const DUPLICATE_WINDOW_MS = 10 * 60_000
/** An Idempotency-Key answers its task for this long. */
export const IDEMPOTENCY_KEY_TTL_MS = 24 * 3_600_000

/** What the task row keeps of the request: enough to show it, price it and settle it (data URLs left out). */
export interface StoredVideoRequest {
  prompt?: string
  images?: Array<{ role: string; url: string }>
  duration?: number
  resolution?: string
  aspect_ratio?: string
  seed?: number
  price: VideoPrice
}

export interface Submitted {
  task: VideoTaskRow
  /** true: an earlier task was answered, nothing new was reserved or sent */
  replay: boolean
}

/** `Idempotency-Key` (IETF draft-ietf-httpapi-idempotency-key-header): 1–255 printable ASCII characters. */
function idempotencyKeyOf(ctx: RequestContext): string | null {
  const header = ctx.req.headers['idempotency-key']
  if (header === undefined) return null
  const value = (Array.isArray(header) ? header[0] : header).trim()
  if (!/^[\x21-\x7e]{1,255}$/.test(value)) throw gatewayError('invalid_request', 'idempotency_key_invalid', {}, { param: 'Idempotency-Key' })
  return value
}

/** What a video's admission holds: its reservation, or the earlier task an identical submission answers. */
export type VideoHold = { kind: 'replay'; task: VideoTaskRow } | { kind: 'reserved'; row: VideoTaskRow }

/**
 * A video's funds step (spec §7 rule 5): the Idempotency-Key (400), then — in one store transaction — the duplicate
 * guard or the reservation (402 `insufficient_quota` when the balance cannot cover the largest possible cost).
 */
export async function holdVideo(ctx: RequestContext, services: Services, order: VideoOrder, model: CatalogModel, endpoint: string, candidates: readonly UpstreamAccount[]): Promise<VideoHold> {
  const idempotencyKey = idempotencyKeyOf(ctx)
  const row = newVideoRow(ctx, model, order, endpoint, idempotencyKey, videoRuntime(services).options.submitTimeoutMs)
  const now = Date.now()
  const dedupe: VideoDedupe = { idempotencyKey, keySince: now - IDEMPOTENCY_KEY_TTL_MS, since: now - DUPLICATE_WINDOW_MS }
  await services.store.ledger.flush() // the store's balance must include the charges still queued
  const video = services.store.tasks.video
  const reservation = await video.reserve(row, dedupe, candidates.map((u) => u.id))
  switch (reservation.kind) {
    case 'existing': return { kind: 'replay', task: reservation.task }
    case 'conflict': throw gatewayError('idempotency_key_reused', 'idempotency_key_reused', { key: idempotencyKey ?? '', id: reservation.task.id }, { param: 'Idempotency-Key' })
    case 'insufficient':
      throw reservation.limit === 'upstream'
        ? upstreamBudgetRefusal(model, row.reserved_nano, candidates, reservation.availableNano)
        : insufficient(reservation.limit, row.reserved_nano, reservation.availableNano)
  }
  // The reservation moves with the submission's failover onto each account it is sent to, as a request's hold does
  // (an account whose budget cannot take it is skipped); the task's end settles it.
  ctx.hold = placedHold(row.id, row.reserved_nano, services.store.holds.moveTo, (upstream, left) => upstreamBudgetRefusal(model, row.reserved_nano, [upstream], left))
  return { kind: 'reserved', row }
}

/**
 * Submits an admitted video: the vendor call, failing over like every relay. A submission that no vendor took
 * releases its reservation.
 */
export async function submitVideo(ctx: RequestContext, services: Services, admitted: Admitted<unknown, VideoOrder, VideoHold>): Promise<Submitted> {
  const { funds: hold, candidates, model, request: order } = admitted
  if (hold.kind === 'replay') return { task: hold.task, replay: true }
  const { row } = hold
  // For an upstream gateway, which gets the request as sent: its duplicate guard must not answer one of our tasks
  // with another key's earlier one (every submission goes with the same account key), so each has its own Idempotency-Key.
  order.sub.original = { path: ctx.path, contentType: 'application/json', body: ctx.body, headers: { 'idempotency-key': ctx.id } }
  await syncAccount(services.store, services.registry)
  submissionsUnderWay.add(row.id)
  let started: VideoStarted
  try {
    // Not tied to the client's connection: once held, the submission completes, and a resubmission finds it.
    // The request log names the account tried last, so a refused submission says which account refused it.
    started = await startUpstream(services, candidates, model, order.sub, videoRuntime(services).options.submitTimeoutMs, (id) => void (ctx.outcome.upstreamId = id), requestRun(ctx, services.routing, model.id, { idempotent: false }))
  } catch (err) {
    submissionsUnderWay.delete(row.id)
    const error = asGatewayError(err, ctx.id)
    await services.store.tasks.video.failSubmission(row.id, storedTaskError(error, services.registry.redactor.redact))
    await syncAccount(services.store, services.registry)
    throw err
  }
  // Recorded outside the vendor's try: a store error here must not release a task the vendor is running.
  try {
    await services.store.tasks.video.accept(row.id, started.upstreamId, started.vendorTaskId, Date.now() + videoRuntime(services).options.intervalMs)
  } finally {
    submissionsUnderWay.delete(row.id)
  }
  videoRuntime(services).wake()
  return { task: (await services.store.tasks.video.get(row.id))!, replay: false }
}

/**
 * The adapter's own 400 for a shape its vendor cannot express (a last frame without a first, a reference on a
 * first-frame-only API) comes before anything is held. Built for the first account only: no I/O; an account problem
 * (a malformed Kling key) is left to the failover of the real call.
 */
export function refusedShape(order: VideoOrder, candidates: UpstreamAccount[], model: CatalogModel): void {
  const [upstream] = candidates
  try {
    videoAdapterFor(upstream.vendor)!.toStart(order.sub, { upstream, model }, Math.floor(Date.now() / 1000))
  } catch (err) {
    if (!(err instanceof GatewayError) || !isFailoverStatus(err.status)) throw err
  }
}

function insufficient(limit: 'balance' | 'key', amountNano: number, availableNano: number): GatewayError {
  const params = { amount: nanoToUsd(amountNano).toFixed(4), available: nanoToUsd(Math.max(0, availableNano)).toFixed(4) }
  return gatewayError('insufficient_quota', limit === 'balance' ? 'video_reservation_insufficient' : 'video_reservation_key_quota', params)
}

function newVideoRow(ctx: RequestContext, model: CatalogModel, order: VideoOrder, endpoint: string, idempotencyKey: string | null, graceMs: number): VideoTaskRow {
  const now = Date.now()
  const price = videoPrice(model, order)
  const { sub } = order
  const request: StoredVideoRequest = {
    prompt: sub.prompt,
    images: sub.images?.map((i) => ({ role: i.role, url: i.url.startsWith('data:') ? `${i.url.slice(0, i.url.indexOf(',') + 1)}… (${i.url.length} characters)` : i.url })),
    duration: sub.duration, resolution: order.resolution, aspect_ratio: sub.aspect_ratio, seed: sub.seed, price,
  }
  return {
    id: newTaskId(), kind: 'video', key_id: ctx.key!.id, group_id: ctx.group!.id, model: model.id, endpoint,
    upstream_id: null, vendor_task_id: null, status: 'queued', progress: null, request: JSON.stringify(request), result: null, error: null,
    reserved_nano: price.reservedNano, cost_nano: 0, settled: 0, idempotency_key: idempotencyKey, created_at: now, updated_at: now,
    // Until the vendor answers, the poller leaves the task alone; after twice the submit timeout it is taken as interrupted.
    next_poll_at: now + 2 * graceMs, poll_attempts: 0, request_hash: submissionHash(endpoint, order), vendor_status: null,
  }
}

interface VideoStarted {
  upstreamId: string
  vendorTaskId: string
}

/** The vendor create call, in failover order (connect errors, timeouts, 401/403/408/429/5xx move to the next account). */
function startUpstream(services: Services, candidates: UpstreamAccount[], model: CatalogModel, sub: VideoSubmission, timeoutMs: number, onAccount: (upstreamId: string) => void, run: FailoverRun): Promise<VideoStarted> {
  return failover(candidates, undefined, (upstream) => {
    onAccount(upstream.id)
    return startOn(services, upstream, model, sub, timeoutMs)
  }, run)
}

/** One account's create call: the vendor's task id, or why the next account is tried (its time limit counts as a timeout). */
async function startOn(services: Services, upstream: UpstreamAccount, model: CatalogModel, sub: VideoSubmission, timeoutMs: number): Promise<Attempt<VideoStarted>> {
  const adapter = videoAdapterFor(upstream.vendor)!
  const spec = adapter.toStart(sub, { upstream, model }, Math.floor(Date.now() / 1000))
  return attempt(async () => {
    const response = await sendCall(services.http, spec, AbortSignal.timeout(timeoutMs), adapter)
    const text = (await readAnswer(response)).toString('utf8')
    return { upstreamId: upstream.id, vendorTaskId: adapter.fromStart(parseJson(text), sub) }
  }, 'timeout')
}
