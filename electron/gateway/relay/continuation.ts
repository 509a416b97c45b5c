/**
 * Continuation (README "Continuation"): a stream cut or gone silent after its content started is finished by another
 * account of the group, in the same client stream, so the caller gets one whole answer. Chat completions and
 * messages streams. Off unless the key's group says `continuation: true`; the relay calls it from one place, when a
 * started stream broke.
 *
 * The next accounts (the group's order, after the one that broke) are asked to continue from the text already sent:
 * the conversation plus an assistant message holding that text as a prefix, in the wire form of the vendors that
 * document continuing such a prefix (PREFIX_WIRES, PREFIX_HOSTS: data, one entry per vendor). An account whose
 * vendor has none is skipped; one that refuses the prefix (a 400: the model does not take it), fails or breaks
 * before its first content costs nothing and is passed over, and when no account continued the relay ends the
 * stream as it would have without continuation, with the original cut's error event: the caller never sees a
 * prefill's 400.
 *
 * Billing: each attempt that produced content is billed for its own usage, and the request's ledger row holds
 * their sum: the cut attempt for the prompt and the text it sent (counted, as any cut stream), each continuation
 * for what its account reported (its prompt includes the prefix it was given) or, when it reported nothing
 * plausible, its prompt and output counted. The usage the client reads at the end (chat's usage chunk, messages'
 * `message_delta`) carries the same sum.
 */
import { createParser } from 'eventsource-parser'
import type { Vendor } from '../../../shared/types.js'
import { costNano } from '../billing/billing.js'
import type { RequestContext } from '../context.js'
import type { UpstreamAccount } from '../contract/accounts.js'
import type { ChatStreamTranslator, RelayCapability, TokenUsage, UpstreamCtx } from '../contract/upstream.js'
import type { GatewayError } from '../errors.js'
import { addUsage, billableUsage, streamUsage } from '../money/billed-usage.js'
import { drained } from '../respond.js'
import type { Services } from '../services.js'
import type { UpstreamResponse } from '../upstreams/http.js'
import { adapterFor } from '../upstreams/index.js'
import { sendCall } from './attempt.js'
import type { RelayPlan } from './relay-plan.js'
import { Merge } from './continuation-frames.js'
import { firstTokenMsOf, streamDeadlines, StreamWatch } from './stream-watch.js'

type Body = Record<string, unknown>
/** The protocols whose streams are continued: their frames are merged into the client's one stream. */
type Continued = 'chat' | 'messages'

/** How an account's vendor continues a given prefix (all of it data, read by `prefilled`). */
export interface PrefixWire {
  /**
   * members the trailing assistant message carries: `partial: true` (DashScope, Kimi), `prefix: true` (DeepSeek,
   * Mistral); none (Anthropic: a last assistant message is continued)
   */
  mark?: Record<string, true>
  /**
   * the prefix may not end in whitespace (Anthropic answers 400): it is sent trimmed, and the continuation's leading
   * whitespace, which the client already has, is left out
   */
  trimEnd?: boolean
  /** the continuation goes to this base URL instead of the account's (DeepSeek's prefix completion is a beta feature) */
  baseUrl?: string
}

/**
 * The vendors that document continuing a prefix, per relayed protocol. DashScope's compatible mode: Partial mode,
 * for its non-thinking Qwen models (another model answers 400, passed over). Anthropic's Messages API continues a
 * last assistant message ("prefill"), not with extended thinking, and Claude models from 4.6 on refuse it with a 400
 * (passed over). OpenAI's chat completions has no prefill (an assistant message last is answered anew, so the text
 * would repeat), nor have xAI's, Zhipu's, Ark's or Gemini's documented wires.
 */
const PREFIX_WIRES: Partial<Record<Vendor, Partial<Record<Continued, PrefixWire>>>> = {
  dashscope: { chat: { mark: { partial: true } } },
  anthropic: { messages: { trimEnd: true } },
}

/**
 * OpenAI-compatible accounts (vendor `openai`) at these hosts: vendors without an adapter of their own whose chat
 * completions continue a prefix. DeepSeek: Chat Prefix Completion (beta), `prefix: true`, on its beta base URL;
 * Mistral: `prefix: true`; Moonshot's Kimi: Partial Mode, `partial: true` (both regions).
 */
const PREFIX_HOSTS: Record<string, PrefixWire> = {
  'api.deepseek.com': { mark: { prefix: true }, baseUrl: 'https://api.deepseek.com/beta' },
  'api.mistral.ai': { mark: { prefix: true } },
  'api.moonshot.ai': { mark: { partial: true } },
  'api.moonshot.cn': { mark: { partial: true } },
}

/** How an account continues a prefix on a protocol, or undefined when it cannot. */
export function prefixWire(upstream: Pick<UpstreamAccount, 'vendor' | 'baseUrl'>, capability: RelayCapability): PrefixWire | undefined {
  if (capability !== 'chat' && capability !== 'messages') return undefined
  const own = PREFIX_WIRES[upstream.vendor]?.[capability]
  if (own !== undefined || upstream.vendor !== 'openai' || capability !== 'chat') return own
  try {
    return PREFIX_HOSTS[new URL(upstream.baseUrl).hostname.toLowerCase()]
  } catch {
    return undefined
  }
}

/** Whether an account's vendor can continue a prefix on this protocol. */
export const continues = (upstream: Pick<UpstreamAccount, 'vendor' | 'baseUrl'>, capability: RelayCapability): boolean => prefixWire(upstream, capability) !== undefined

/**
 * The request body asking to continue `prefix`: the conversation plus the assistant message holding it, marked as the
 * vendor wants. Undefined where no prefix can be given: a conversation that already ends with an assistant message,
 * or a messages request with extended thinking (Anthropic refuses a prefill with it).
 */
export function prefilled(body: Body, prefix: string, wire: PrefixWire): { body: Body; trimmed: string } | undefined {
  const messages = Array.isArray(body.messages) ? body.messages : undefined
  if (messages === undefined || (messages.at(-1) as { role?: unknown } | undefined)?.role === 'assistant') return undefined
  const thinking = (body.thinking as { type?: unknown } | undefined)?.type
  if (thinking === 'enabled' || thinking === 'adaptive') return undefined
  const content = wire.trimEnd ? prefix.trimEnd() : prefix
  if (content === '') return undefined
  return { body: { ...body, messages: [...messages, { role: 'assistant', content, ...wire.mark }] }, trimmed: prefix.slice(content.length) }
}

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
 * Continues a broken stream where the group allows it. True when it answered the client: the answer made whole, or
 * (a continuation that broke in its turn, no account left) ended with the error event; either way billed.
 * False when no continuation sent any content: the relay ends the stream with its own error, as without it.
 */
export async function continueCut(ctx: RequestContext, services: Services, plan: RelayPlan, cut: CutStream): Promise<boolean> {
  if (ctx.group?.options.continuation !== true || (plan.capability !== 'chat' && plan.capability !== 'messages')) return false
  // One answer only: n > 1 interleaves choices that a single prefix cannot continue.
  if (typeof plan.body.n === 'number' && plan.body.n > 1) return false
  let prefix = cut.translator.answerText?.()
  if (!prefix) return false
  const parts: Part[] = [{ prompt: plan.promptText(), translator: cut.translator }]
  const brokeAt = plan.candidates.findIndex((u) => u.id === ctx.outcome.upstreamId)
  const next = [...plan.candidates.slice(brokeAt + 1), ...plan.candidates.slice(0, Math.max(brokeAt, 0))]
  for (const upstream of next) {
    if (ctx.abort.aborted || ctx.res.destroyed) break
    const wire = prefixWire(upstream, plan.capability)
    const asked = wire && prefilled(plan.body, prefix, wire)
    if (wire === undefined || asked === undefined) continue
    const target = wire.baseUrl === undefined ? upstream : { ...upstream, baseUrl: wire.baseUrl }
    const attempt = await continueOn(ctx, services, plan, target, asked.body, asked.trimmed !== '', () => billed(plan, parts))
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
    // what the client got of it: its leading whitespace may have been left out (PrefixWire.trimEnd)
    prefix += more.slice(attempt.dropped)
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
 * whether its answer ended whole, and how many leading characters of its text the client was spared (`trimLead`: the
 * prefix went without its trailing whitespace, which the client already has). A stream's deadlines, as the relay's
 * (stream-watch.ts): its headers, its first content within the model's first-token deadline, then no silence longer
 * than the idle limit.
 */
async function continueOn(
  ctx: RequestContext, services: Services, plan: RelayPlan, upstream: UpstreamAccount, body: Body, trimLead: boolean, sumBefore: () => Promise<TokenUsage>,
): Promise<{ translator: ChatStreamTranslator; whole: boolean; dropped: number } | undefined> {
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
  const merge = new Merge(plan.capability === 'messages' ? 'messages' : 'chat', trimLead)
  let started = false
  const watch = new StreamWatch(response.body, firstTokenMs, timeouts.idleMs)
  let frames: string[] = []
  const parser = createParser({ onEvent: (event) => void frames.push(...translator.push(event)) })
  const decoder = new TextDecoder()
  const done = (whole: boolean) => ({ translator, whole, dropped: merge.dropped })
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
      const out = await merge.all(frames, sumBefore)
      frames = []
      if (out !== '' && !ctx.res.write(out)) {
        watch.waiting(true)
        await drained(ctx)
        watch.waiting(false)
      }
      if (ctx.abort.aborted) return done(false)
    }
  } catch {
    if (!started) return undefined
    return done(false)
  } finally {
    watch.stop()
  }
  if (!started) return undefined
  if (!translator.finished()) {
    // Ended without the protocol's end after every choice's finish: complete, its end written here (as relay.ts does).
    const end = translator.endOfAnswer?.(translator.usage())
    if (end === undefined) return done(false)
    const out = await merge.all(end, sumBefore)
    if (!ctx.res.destroyed) ctx.res.write(out)
    return done(true)
  }
  return done(translator.upstreamError?.() === undefined)
}

/** Every part's billable usage (reported when plausible, else counted), summed. */
async function billed(plan: RelayPlan, parts: Part[]): Promise<TokenUsage> {
  let sum: TokenUsage = { inputTokens: 0, outputTokens: 0, cachedInputTokens: 0 }
  const raws: unknown[] = []
  for (const part of parts) {
    const usage = await billableUsage(plan.model, await streamUsage(part.translator, plan.model), { text: { prompt: () => part.prompt, output: () => part.translator.producedText() } })
    sum = addUsage(sum, usage)
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
