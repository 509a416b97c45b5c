import { randomBytes } from 'node:crypto'
import { chargeMirror, costNano, usageRecord } from '../billing/billing.js'
import { handHoldTo } from '../billing/holds.js'
import type { RequestContext } from '../context.js'
import { asGatewayError } from '../errors.js'
import type { NormalizedImageRequest } from '../contract/image-request.js'
import { imageUsage, imagesBody } from '../images/result.js'
import type { ImageOutcome } from '../contract/image-upstream.js'
import type { Services } from '../services.js'
import type { Repos } from '../store/index.js'
import type { TaskRow } from '../store/tasks.js'
import type { CatalogModel } from '../../../shared/types.js'
import { shownTaskError, storedTaskError } from './task-error.js'

export const newTaskId = (): string => `task_${Date.now().toString(36)}${randomBytes(9).toString('hex')}`

/** The task as clients see it at GET /v1/images/tasks (spec §2.4: task_id and status_url, the rest designed here). */
export function taskView(task: TaskRow, redact: (text: string) => string): object {
  return {
    task_id: task.id,
    object: 'image.task',
    status: task.status,
    model: task.model,
    created_at: Math.floor(task.created_at / 1000),
    updated_at: Math.floor(task.updated_at / 1000),
    status_url: `/v1/images/tasks?task_id=${task.id}`,
    ...(task.result ? { result: JSON.parse(task.result) } : {}),
    ...(task.error ? { error: shownTaskError(task.error, redact) } : {}),
  }
}

/**
 * Spec §4.2 `Prefer: respond-async`: the task is stored, the client gets its id at once, and the images are
 * made in the background holding the request's concurrency slot. Success settles the bill once; a failure
 * is recorded unbilled (spec §1).
 */
export async function startImageTask(ctx: RequestContext, services: Services, model: CatalogModel, req: NormalizedImageRequest, endpoint: string, run: (signal: AbortSignal, onAccount: (upstreamId: string) => void) => Promise<{ outcome: ImageOutcome; upstreamId: string }>): Promise<TaskRow> {
  const now = Date.now()
  const task: TaskRow = {
    id: newTaskId(), kind: 'image', key_id: ctx.key!.id, group_id: ctx.group!.id, model: model.id, endpoint,
    upstream_id: null, vendor_task_id: null, status: 'running', progress: null, request: null, result: null, error: null,
    reserved_nano: 0, cost_nano: 0, settled: 0, idempotency_key: null, created_at: now, updated_at: now,
  }
  await services.store.tasks.insert(task)
  await handHoldTo(ctx, services, task.id)
  const release = ctx.release
  ctx.release = undefined
  const key = ctx.key!
  // The account last tried is the one a failure is recorded against.
  let lastAccount: string | null = null
  void run(new AbortController().signal, (id) => void (lastAccount = id))
    .then(async ({ outcome, upstreamId }) => {
      const usage = await imageUsage(model, outcome, req)
      const cost = costNano(model, usage)
      // Written and mirrored in the ledger's turn: a read of balances sees neither or both (registry.readBalances).
      await services.store.ledger.exclusive(async () => {
        const ended = await services.store.tasks.end(
          { id: task.id, status: 'succeeded', result: JSON.stringify(imagesBody(outcome)), error: null, cost_nano: cost, progress: 100 },
          { ...ledgerEntry(task, 200, null, upstreamId, usage.inputTokens, usage.outputTokens, JSON.stringify(usage.raw ?? null), cost), ...usageRecord(model, usage) },
        )
        if (ended && cost !== 0) chargeMirror(services.registry, key, upstreamId, cost)
      })
    })
    .catch((err: unknown) => failTask(services, task, asGatewayError(err, task.id), lastAccount))
    .finally(() => release?.())
    .catch((err: unknown) => services.log(`[gatehouse] image task ${task.id} could not be recorded: ${(err as Error).message}`))
  return task
}

function ledgerEntry(task: TaskRow, status: number, errorCode: string | null, upstreamId: string | null, input: number | null, output: number | null, usage: string | null, cost: number) {
  return {
    id: task.id, key_id: task.key_id, group_id: task.group_id, model: task.model, endpoint: task.endpoint, status,
    error_code: errorCode, upstream_id: upstreamId, input_tokens: input, output_tokens: output, usage, cost_nano: cost,
    latency_ms: Date.now() - task.created_at, created_at: Date.now(),
  }
}

/** Ends a task as failed, unbilled, once; `upstreamId` is the account that failed, when one was tried. */
export async function failTask(services: Services, task: TaskRow, error: { code: string; status: number; message: string }, upstreamId: string | null = null, repos: Repos = services.store): Promise<void> {
  // A task cut off by shutdown after the store closed stays unfinished: the next start fails it cleanly.
  if (!services.store.isOpen()) return
  const { redact } = services.registry.redactor
  await repos.tasks.end(
    { id: task.id, status: 'failed', result: null, error: storedTaskError(error, redact), cost_nano: 0, progress: null },
    ledgerEntry(task, error.status, redact(error.code), upstreamId, null, null, null, 0),
  )
}

const INTERRUPTED = { code: 'task_interrupted', status: 503, message: 'The gateway restarted while the images were being made; submit the request again.' }

/** After a restart an unfinished image task cannot be resumed (its upstream call died with the process): it fails, unbilled. */
export async function failInterruptedImageTasks(services: Services): Promise<number> {
  const unfinished = await services.store.tasks.unfinished('image')
  for (const task of unfinished) await failTask(services, task, INTERRUPTED)
  return unfinished.length
}

/** Team mode: the unfinished image tasks of replicas not seen for `ttlMs` fail, unbilled, once (rows locked while they do). */
export function failOrphanedImageTasks(services: Services, ttlMs: number): Promise<number> {
  return services.store.transaction(async (tx) => {
    const orphaned = await tx.tasks.orphanedImages(ttlMs)
    for (const task of orphaned) await failTask(services, task, INTERRUPTED, null, tx)
    return orphaned.length
  })
}
