import { setTimeout as sleep } from 'node:timers/promises'
import { GatewayError, gatewayError } from '../errors.js'
import type { HttpSpec } from '../contract/http-spec.js'
import { readAnswer, type Http } from '../upstreams/http.js'
import { exceedsJsonDepth } from '../guards/json-depth.js'
import { addUsage } from '../money/billed-usage.js'
import type { UpstreamAccount } from '../contract/accounts.js'
import { attempt, MalformedAnswer, sendCall } from '../relay/attempt.js'
import { failover, type FailoverRun } from '../relay/failover.js'
import { isFailoverStatus } from '../relay/upstream-failure.js'
import { imageAdapterFor } from '../upstreams/images/index.js'
import type { ImageAdapter, ImageJob, ImageOutcome, ImageTaskSteps } from '../contract/image-upstream.js'
import type { TokenUsage, UpstreamCtx } from '../contract/upstream.js'
import type { CatalogModel } from '../../../shared/types.js'
import { rasterOnly } from './result.js'

/** What an account made, and which account made it. */
export interface ImagesMade {
  outcome: ImageOutcome
  upstreamId: string
}

/** One call's answer text; every failure is thrown, for the attempt to sort out (relay/attempt.ts). */
async function call(http: Http, adapter: ImageAdapter, spec: HttpSpec, signal: AbortSignal): Promise<string> {
  const text = (await readAnswer(await sendCall(http, spec, signal, adapter))).toString('utf8')
  // Nesting no answer needs is refused before anything walks it.
  if (exceedsJsonDepth(text)) throw new MalformedAnswer()
  return text
}

/** A vendor task polled until it ends; a poll that fails in transit is tried again, within the time limit. */
async function pollTask(http: Http, adapter: ImageAdapter, steps: ImageTaskSteps, taskId: string, job: ImageJob, uctx: UpstreamCtx, signal: AbortSignal): Promise<ImageOutcome> {
  const deadline = Date.now() + TASK_LIMIT_MS
  while (Date.now() < deadline) {
    await sleep(steps.intervalMs, undefined, { signal })
    let text: string
    try {
      text = await call(http, adapter, steps.toPoll(taskId, uctx), signal)
    } catch (err) {
      if (err instanceof GatewayError && !isFailoverStatus(err.status)) throw err
      if (signal.aborted) throw err
      continue
    }
    const outcome = steps.fromPoll(text, job)
    if (outcome) return outcome
  }
  throw gatewayError('upstream_timeout', 'upstream_timeout')
}

/** How long a vendor image task may take before the request gives up on it. */
const TASK_LIMIT_MS = 10 * 60_000

/**
 * All of one account's calls, made in parallel: every one must succeed (spec §4.2, Gemini `n`). Each is let finish
 * before the first failure (in call order) is thrown, so that no call of this account runs on behind the next.
 */
async function makeImages(http: Http, adapter: ImageAdapter, specs: HttpSpec[], job: ImageJob, uctx: UpstreamCtx, signal: AbortSignal): Promise<ImagesMade> {
  const calls = await Promise.allSettled(
    specs.map(async (spec) => {
      const text = await call(http, adapter, spec, signal)
      return rasterOnly(adapter.task ? await pollTask(http, adapter, adapter.task, adapter.task.fromCreate(text), job, uctx, signal) : adapter.fromResponse(text, job))
    }),
  )
  const failed = calls.find((c): c is PromiseRejectedResult => c.status === 'rejected')
  if (failed) throw failed.reason
  const outcomes = (calls as Array<PromiseFulfilledResult<ImageOutcome>>).map((c) => c.value)
  return {
    upstreamId: uctx.upstream.id,
    outcome: {
      images: outcomes.flatMap((o) => o.images),
      usage: outcomes.some((o) => o.usage) ? outcomes.reduce<TokenUsage>((sum, o) => addUsage(sum, o.usage), { inputTokens: 0, cachedInputTokens: 0, outputTokens: 0 }) : undefined,
      tier: outcomes[0]?.tier,
    },
  }
}

/**
 * Makes the images on the group's accounts in failover order. Nothing reaches the client before the
 * images exist, so any account failure fails over; the client's own errors (400) are thrown at once.
 * `onAccount` hears of each account as it is tried, so a failure can be recorded against the last one.
 */
export async function runImages(
  http: Http,
  candidates: UpstreamAccount[],
  model: CatalogModel,
  job: (adapter: ImageAdapter) => Promise<ImageJob>,
  signal: AbortSignal,
  onAccount: (upstreamId: string) => void = () => {},
  run?: FailoverRun,
): Promise<ImagesMade> {
  return failover(candidates, signal, async (upstream) => {
    onAccount(upstream.id)
    const adapter = imageAdapterFor(upstream.vendor)!
    const uctx: UpstreamCtx = { upstream, model }
    const imageJob = await job(adapter)
    // Building the requests refuses what the vendor cannot take with a 400 of its own: thrown, never failed over.
    const specs = adapter.toRequests(imageJob, uctx)
    return attempt(() => makeImages(http, adapter, specs, imageJob, uctx, signal), 'reset')
  }, run)
}
