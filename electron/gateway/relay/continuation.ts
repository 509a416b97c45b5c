/**
 * Continuation (README "Continuation"): a chat stream cut or gone silent after its content started is finished by
 * another account of the group, in the same client stream, so the caller gets one whole answer. Off unless the
 * key's group says `continuation: true`; the relay calls it from one place, when a started stream broke.
 *
 * The next accounts (the group's order, after the one that broke) are asked to continue from the text already sent:
 * the conversation plus an assistant message holding that text as a prefix, in the wire form of the vendors that
 * document continuing such a prefix (PREFILL). An account whose vendor has none is skipped; one that refuses the
 * prefix (a 400: the model does not take it), fails or breaks before its first content costs nothing and is
 * passed over, and when no account continued the relay ends the stream as it would have without continuation,
 * with the original cut's error event: the caller never sees a prefill's 400.
 *
 * Billing: each attempt that produced content is billed for its own usage, and the request's ledger row holds
 * their sum: the cut attempt for the prompt and the text it sent (counted, as any cut stream), each continuation
 * for what its account reported (its prompt includes the prefix it was given) or, when it reported nothing
 * plausible, its prompt and output counted. The usage chunk a client asked for carries the same sum.
 */
import { createParser } from 'eventsource-parser'
import type { Vendor } from '../../../shared/types.js'
import { costNano } from '../billing/billing.js'
import type { RequestContext } from '../context.js'
import type { UpstreamAccount } from '../contract/accounts.js'
import type { ChatStreamTranslator, RelayCapability, TokenUsage, UpstreamCtx } from '../contract/upstream.js'
import type { GatewayError } from '../errors.js'
import { billableUsage } from '../money/billed-usage.js'
import { drained } from '../respond.js'
import type { Services } from '../services.js'
import type { UpstreamResponse } from '../upstreams/http.js'
import { adapterFor } from '../upstreams/index.js'
import { sendCall } from './attempt.js'
import type { RelayPlan } from './relay-plan.js'
import { firstTokenMsOf, streamDeadlines, StreamWatch } from './stream-watch.js'

type Body = Record<string, unknown>
/** The request body with `prefix` as the start of the assistant's answer, in a vendor's wire form. */
type Prefill = (body: Body, prefix: string) => Body

/**
 * The vendors and relayed protocols that continue a given prefix. DashScope's compatible mode has Partial mode (the
 * last message `{role: "assistant", content: prefix, partial: true}`, for its non-thinking Qwen models; another
 * model answers 400, passed over). OpenAI's chat completions has no prefill (an assistant message last is answered
 * anew, so the text would repeat), nor have the other OpenAI-compatible vendors' documented wires. Anthropic's
 * Messages API continues a last assistant message, but only on the messages protocol, whose frames are not merged
 * yet: not listed.
 */
const PREFILL: Partial<Record<Vendor, Partial<Record<RelayCapability, Prefill>>>> = {
  dashscope: {
    chat: (body, prefix) => ({ ...body, messages: [...(body.messages as unknown[]), { role: 'assistant', content: prefix, partial: true }] }),
  },
}

/** Whether an account's vendor can continue a prefix on this protocol. */
export const continues = (vendor: Vendor, capability: RelayCapability): boolean => PREFILL[vendor]?.[capability] !== undefined

/** The stream that broke, as the relay hands it over. */
export interface CutStream {
  /** the broken attempt's translator: its text, its usage */
  translator: ChatStreamTranslator
  /** what the client hears when no account continues (or a continuation breaks in its turn) */
  error: GatewayError
  /** the protocol's error frame that ends the client's stream */
  errorFrame(translator: ChatStreamTranslator, error: GatewayError): string
}

/** One attempt that produced content: what it was given as prompt, and its translator. */
interface Part {
  prompt: string
  translator: ChatStreamTranslator
}

/**
 * Continues a broken chat stream where the group allows it. True when it answered the client: the answer made
 * whole, or (a continuation that broke in its turn, no account left) ended with the error event; either way billed.
 * False when no continuation sent any content: the relay ends the stream with its own error, as without it.
 */
export async function continueCut(ctx: RequestContext, services: Services, plan: RelayPlan, cut: CutStream): Promise<boolean> {
  if (ctx.group?.options.continuation !== true || plan.capability !== 'chat') return false
  // One answer only: n > 1 interleaves choices that a single prefix cannot continue.
  if (typeof plan.body.n === 'number' && plan.body.n > 1) return false
  let prefix = cut.translator.answerText?.()
  if (!prefix) return false
  const parts: Part[] = [{ prompt: plan.promptText(), translator: cut.translator }]
  const brokeAt = plan.candidates.findIndex((u) => u.id === ctx.outcome.upstreamId)
  const next = [...plan.candidates.slice(brokeAt + 1), ...plan.candidates.slice(0, Math.max(brokeAt, 0))]
  for (const upstream of next) {
    if (ctx.abort.aborted || ctx.res.destroyed) break
    const prefill = PREFILL[upstream.vendor]?.[plan.capability]
    if (prefill === undefined) continue
    const attempt = await continueOn(ctx, services, plan, upstream, prefill(plan.body, prefix), () => billed(plan, parts))
    if (attempt === undefined) continue
    parts.push({ prompt: `${plan.promptText()}${prefix}`, translator: attempt.translator })
    ctx.outcome.upstreamId = upstream.id
    if (attempt.whole) {
      // The protocol's end went out: the answer is whole, whatever the client's socket does next.
      ctx.outcome.delivered = true
      await bill(ctx, plan, parts)
      if (!ctx.res.destroyed) ctx.res.end()
      return true
    }
    if (ctx.abort.aborted) break
    const more = attempt.translator.answerText?.()
    if (more === undefined) break
    prefix += more
  }
  if (parts.length === 1) return false
  await bill(ctx, plan, parts)
  const last = parts[parts.length - 1].translator
  if (!ctx.abort.aborted && !ctx.res.destroyed) {
    ctx.outcome.status = 502
    ctx.outcome.errorCode = cut.error.code
    ctx.res.end(cut.errorFrame(last, cut.error))
  }
  return true
}

/**
 * One continuation attempt: undefined when it failed before its first content (nothing sent); else its translator,
 * and whether its answer ended whole. A stream's deadlines, as the relay's (stream-watch.ts): its headers, its first
 * content within the model's first-token deadline, then no silence longer than the idle limit.
 */
async function continueOn(
  ctx: RequestContext, services: Services, plan: RelayPlan, upstream: UpstreamAccount, body: Body, sumBefore: () => Promise<TokenUsage>,
): Promise<{ translator: ChatStreamTranslator; whole: boolean } | undefined> {
  const adapter = adapterFor(upstream.vendor)![plan.capability]!
  const uctx: UpstreamCtx = { upstream, model: plan.model, clientHeaders: ctx.req.headers }
  const { timeouts } = services.http
  const firstTokenMs = firstTokenMsOf(plan.model, timeouts)
  const spec = adapter.toRequest(body, uctx)
  spec.deadlines = streamDeadlines(firstTokenMs, timeouts)
  let response: UpstreamResponse
  try {
    response = await sendCall(services.http, spec, ctx.abort, adapter)
  } catch {
    // refused (a prefill the model does not take), failed or unreachable: the next account, nothing sent
    return undefined
  }
  const translator = adapter.streamTranslator({ includeUsage: plan.includeUsage === true }, uctx)
  let started = false
  const watch = new StreamWatch(response.body, firstTokenMs, timeouts.idleMs)
  let frames: string[] = []
  const parser = createParser({ onEvent: (event) => void frames.push(...translator.push(event)) })
  const decoder = new TextDecoder()
  let before: TokenUsage | undefined
  try {
    for await (const chunk of response.body as AsyncIterable<Buffer>) {
      watch.chunk()
      parser.feed(decoder.decode(chunk, { stream: true }))
      if (!started) {
        if (translator.upstreamError?.() !== undefined) return undefined
        if (!translator.hasContent()) {
          if (translator.finished()) return undefined
          continue
        }
        started = true
        watch.flowing()
      }
      if (frames.length === 0) continue
      if (frames.some(isUsageFrame)) before ??= await sumBefore()
      const out = frames.map((f) => merged(f, before)).join('')
      frames = []
      if (out !== '' && !ctx.res.write(out)) {
        watch.waiting(true)
        await drained(ctx)
        watch.waiting(false)
      }
      if (ctx.abort.aborted) return { translator, whole: false }
    }
  } catch {
    if (!started) return undefined
    return { translator, whole: false }
  } finally {
    watch.stop()
  }
  if (!started) return undefined
  if (!translator.finished()) {
    // Ended without the protocol's end after every choice's finish: complete, its end written here (as relay.ts does).
    const end = translator.endOfAnswer?.(translator.usage())
    if (end === undefined) return { translator, whole: false }
    if (end.some(isUsageFrame)) before ??= await sumBefore()
    if (!ctx.res.destroyed) ctx.res.write(end.map((f) => merged(f, before)).join(''))
    return { translator, whole: true }
  }
  return { translator, whole: translator.upstreamError?.() === undefined }
}

const isUsageFrame = (frame: string) => frame.startsWith('data: {') && frame.includes('"usage":{')

/**
 * A continuation's frame as the client's one stream needs it: its opening role-only chunk left out (the stream
 * already opened), and its usage chunk carrying the sum of every attempt's usage (`before` + its own).
 */
function merged(frame: string, before: TokenUsage | undefined): string {
  if (!frame.startsWith('data: {')) return frame
  let chunk: { choices?: Array<{ delta?: Record<string, unknown>; finish_reason?: unknown }>; usage?: Record<string, unknown> | null }
  try {
    chunk = JSON.parse(frame.slice(6))
  } catch {
    return frame
  }
  const choices = Array.isArray(chunk.choices) ? chunk.choices : []
  const roleOnly = choices.length > 0 && choices.every((c) => !c.finish_reason && Object.entries(c.delta ?? {}).every(([k, v]) => k === 'role' || v === '' || v === null))
  if (roleOnly) return ''
  if (chunk.usage && before !== undefined) {
    const own = chunk.usage as { prompt_tokens?: number; completion_tokens?: number }
    const prompt = before.inputTokens + (before.cachedInputTokens ?? 0) + (own.prompt_tokens ?? 0)
    const completion = before.outputTokens + (own.completion_tokens ?? 0)
    return `data: ${JSON.stringify({ ...chunk, usage: { ...chunk.usage, prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion } })}\n\n`
  }
  return frame
}

/** Every part's billable usage (reported when plausible, else counted), summed. */
async function billed(plan: RelayPlan, parts: Part[]): Promise<TokenUsage> {
  const sum: TokenUsage = { inputTokens: 0, outputTokens: 0, cachedInputTokens: 0 }
  const raws: unknown[] = []
  for (const part of parts) {
    const usage = await billableUsage(plan.model, part.translator.usage(), { text: { prompt: () => part.prompt, output: () => part.translator.producedText() } })
    sum.inputTokens += usage.inputTokens
    sum.outputTokens += usage.outputTokens
    sum.cachedInputTokens! += usage.cachedInputTokens ?? 0
    raws.push(usage.raw ?? null)
  }
  return { ...sum, raw: { attempts: raws } }
}

async function bill(ctx: RequestContext, plan: RelayPlan, parts: Part[]): Promise<void> {
  if (!plan.billable) return
  const usage = await billed(plan, parts)
  ctx.outcome.usage = usage
  ctx.outcome.costNano = costNano(plan.model, usage)
}
