import { costNano } from '../billing/billing.js'
import type { RequestContext } from '../context.js'
import type { Services } from '../services.js'
import { allInputTokens, usageSoFar } from '../money/billed-usage.js'
import { priceBreakdown } from '../money/price-usage.js'
import { countTextTokens } from '../tokens/tokens.js'
import type { ChatStreamTranslator, TokenUsage } from '../contract/upstream.js'
import type { RelayPlan } from './relay-plan.js'

/**
 * Billing checkpoints of a stream under way, so that a gateway killed mid-stream still bills what it served
 * (spec §1: an interrupted stream is billed for the prompt and the output already produced).
 *
 * At the first byte the stream gets a pending ledger row (billed for nothing yet). Every CHECKPOINT_MS, and
 * after every CHECKPOINT_BYTES sent, the row is rewritten with the usage so far: the input as the upstream
 * reported it (Anthropic and Gemini report it first), else the prompt counted once, at the first checkpoint; and
 * the output counted incrementally (only the text produced since the last
 * checkpoint, in bounded slices that yield to the event loop), unless the upstream already reported more.
 * A count rather than an estimate because a checkpoint may become the bill; an incremental one because it
 * then costs about one second of output per second, whatever the stream's length. A stream that ends within
 * a second and CHECKPOINT_BYTES counts nothing. Per chunk, the relay only adds up bytes.
 *
 * Error bound: a cut between two checkpoints may split a word (about one token per checkpoint); a process
 * that dies bills the output of its last checkpoint, at most CHECKPOINT_MS or CHECKPOINT_BYTES behind.
 */
export const CHECKPOINT_MS = 1000
export const CHECKPOINT_BYTES = 32 * 1024

export interface StreamCheckpoints {
  /** `bytes` more went to the client */
  sent(bytes: number): void
}

const NO_CHECKPOINTS: StreamCheckpoints = { sent: () => {} }

/** Opens the stream's pending ledger row and checkpoints it until the response closes. */
export function startCheckpoints(ctx: RequestContext, services: Services, plan: RelayPlan, translator: ChatStreamTranslator): StreamCheckpoints {
  if (!plan.billable) return NO_CHECKPOINTS
  const { ledger } = services.store
  const now = Date.now()
  ledger.openPending({
    id: ctx.id, key_id: ctx.key?.id ?? null, group_id: ctx.group?.id ?? null, model: plan.model.id, endpoint: ctx.endpoint ?? ctx.path,
    upstream_id: ctx.outcome.upstreamId ?? null, input_tokens: 0, output_tokens: 0, usage: null, cost_nano: 0,
    started_at: Math.round(now - (performance.now() - ctx.startedAt)), checkpointed_at: now,
  })
  let promptTokens: number | undefined
  let countedChars = 0
  let outputTokens = 0

  const take = async (): Promise<void> => {
    const text = translator.producedText()
    outputTokens += await countTextTokens(text.slice(countedChars))
    countedChars = text.length
    const reported = translator.usage() ?? usageSoFar(translator, plan.model)
    // The upstream's counts (cache reads and writes, reasoning) where it sent them, the output at least as counted; the
    // prompt is counted only when its input was not reported (an agent's prompt can be hundreds of kilobytes).
    const usage: TokenUsage = {
      ...reported,
      inputTokens: reported?.inputTokens ?? (promptTokens ??= await countTextTokens(plan.promptText())),
      outputTokens: Math.max(outputTokens, reported?.outputTokens ?? 0),
    }
    const inputTokens = allInputTokens(usage)
    ledger.checkpoint(ctx.id, {
      upstream_id: ctx.outcome.upstreamId ?? null, input_tokens: inputTokens, output_tokens: usage.outputTokens,
      usage: JSON.stringify({ checkpoint: true, prompt_tokens: inputTokens, completion_tokens: usage.outputTokens }),
      cost_nano: costNano(plan.model, usage), checkpointed_at: Date.now(), breakdown: JSON.stringify(priceBreakdown(plan.model.pricing, usage)),
    })
  }

  let busy = false
  let closed = false
  const checkpoint = (): void => {
    if (busy || closed) return
    busy = true
    take()
      .catch((err: unknown) => process.stderr.write(`[gatehouse] ${ctx.id} checkpoint failed: ${(err as Error).message}\n`))
      .finally(() => (busy = false))
  }
  const timer = setInterval(checkpoint, CHECKPOINT_MS).unref()
  // The final row replaces the pending one once the handler returns; no checkpoint is needed after the close.
  ctx.res.once('close', () => {
    closed = true
    clearInterval(timer)
  })
  let unsent = 0
  return {
    sent(bytes) {
      unsent += bytes
      if (unsent < CHECKPOINT_BYTES) return
      unsent = 0
      checkpoint()
    },
  }
}
