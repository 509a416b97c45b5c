import type { PricedComponent, UsageSource } from '../../../shared/types.js'
import type { LedgerEntry } from '../store/ledger.js'
import type { Services } from '../services.js'
import type { VideoTaskRow } from '../store/tasks.js'
import { storedTaskError, type TaskError } from './task-error.js'
import { billedSeconds, settlementBreakdown, settlementNano } from './video-pricing.js'
import type { StoredVideoRequest } from './video-submit.js'
import { syncAccount } from './video-runtime.js'

/** What a succeeded task keeps as its result. */
export interface StoredVideoResult {
  videos: string[]
  /** seconds the vendor reports it produced, if it did */
  seconds?: number
  /** seconds billed */
  billed_seconds: number
}

/** The request a task was submitted with (its price included). */
export const storedRequest = (task: VideoTaskRow): StoredVideoRequest => JSON.parse(task.request ?? '{}') as StoredVideoRequest

/** A settled task's usage record: where its seconds came from (the vendor's report, else the request's, as reserved) and its breakdown. */
interface UsageRecord {
  usage_source: UsageSource
  breakdown: PricedComponent[]
}

function ledgerEntry(task: VideoTaskRow, status: number, errorCode: string | null, usage: object | null, cost: number, record?: UsageRecord): LedgerEntry {
  return {
    id: task.id, key_id: task.key_id, group_id: task.group_id, model: task.model, endpoint: task.endpoint, status,
    error_code: errorCode, upstream_id: task.upstream_id, input_tokens: null, output_tokens: null,
    usage: usage === null ? null : JSON.stringify(usage), cost_nano: cost, latency_ms: Date.now() - task.created_at, created_at: Date.now(),
    usage_source: record?.usage_source ?? null, breakdown: record === undefined ? null : JSON.stringify(record.breakdown),
  }
}

/** The key's in-memory mirror of what it has spent. */
function chargeKeyMirror(services: Services, keyId: string, cost: number): void {
  const key = services.registry.keysById.get(keyId)
  if (key) key.usedNano += cost
}

/**
 * Settles a succeeded task once: bills the seconds produced (capped by what was reserved), releases the whole
 * reservation, writes the ledger row (id = task id) and schedules the download, all in one transaction. False when
 * another poller (or an earlier run) settled it first: nothing is charged twice.
 */
export async function settleSucceeded(services: Services, task: VideoTaskRow, videos: string[], seconds: number | undefined, vendorStatus: string | null = null): Promise<boolean> {
  const { price, resolution } = storedRequest(task)
  const billed = billedSeconds(price, seconds)
  const cost = settlementNano(price, billed)
  const result: StoredVideoResult = { videos, billed_seconds: billed, ...(seconds !== undefined ? { seconds } : {}) }
  const usage = { seconds: billed, reported_seconds: seconds ?? null, resolution: resolution ?? null, videos: videos.length }
  const won = await services.store.tasks.video.end(
    { id: task.id, status: 'succeeded', result: JSON.stringify(result), error: null, cost_nano: cost, progress: 100 },
    ledgerEntry(task, 200, null, usage, cost, { usage_source: seconds !== undefined && seconds > 0 ? 'upstream' : 'reserved', breakdown: settlementBreakdown(price, billed) }),
    videos.length > 0 ? Date.now() : null,
    vendorStatus,
  )
  if (won) chargeKeyMirror(services, task.key_id, cost)
  await syncAccount(services.store, services.registry)
  return won
}

/** Ends a task failed or canceled, unbilled (spec §1), releasing its reservation; once. */
export async function endUnbilled(services: Services, task: VideoTaskRow, status: 'failed' | 'canceled', error: TaskError, vendorStatus: string | null = null): Promise<boolean> {
  const { redact } = services.registry.redactor
  const won = await services.store.tasks.video.end(
    { id: task.id, status, result: null, error: storedTaskError(error, redact), cost_nano: 0, progress: task.progress },
    ledgerEntry(task, status === 'canceled' ? 499 : 502, redact(error.code), null, 0),
    null,
    vendorStatus,
  )
  await syncAccount(services.store, services.registry)
  return won
}
