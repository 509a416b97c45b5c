import { createParser } from 'eventsource-parser'
import type { CatalogModel } from '../../../shared/types.js'
import { tokenCostNano } from '../billing.js'
import type { RequestContext } from '../context.js'
import { transportFailure, type UpstreamResponse } from '../http.js'
import type { UpstreamAccount } from '../registry.js'
import { drained, sendJson, SSE_HEADERS, sseErrorFrame } from '../respond.js'
import type { Services } from '../services.js'
import { countTextTokens, promptText } from '../tokens.js'
import { adapterFor } from '../upstreams/index.js'
import type { ChatAdapter, ChatStreamTranslator, TokenUsage, UpstreamCtx } from '../upstreams/types.js'
import { exhausted, interrupted, isFailoverStatus, type UpstreamFailure } from './upstream-failure.js'

export interface ChatPlan {
  model: CatalogModel
  body: Record<string, unknown>
  candidates: UpstreamAccount[]
}

type Attempt = { done: true } | { done: false; failure: UpstreamFailure }
const DONE: Attempt = { done: true }

/**
 * Sends a chat completion to the group's accounts in failover order and relays the answer.
 * Failover happens until the first byte reaches the client; after that a break is an error event (spec §6).
 */
export async function relayChat(ctx: RequestContext, services: Services, plan: ChatPlan): Promise<void> {
  const stream = plan.body.stream === true
  const clientStreamOptions = (plan.body.stream_options ?? {}) as Record<string, unknown>
  // Usage is always requested upstream for billing; the client sees it only if it asked (spec §4.1).
  const body = stream ? { ...plan.body, stream_options: { ...clientStreamOptions, include_usage: true } } : plan.body
  let failure: UpstreamFailure | undefined
  for (const upstream of plan.candidates) {
    if (ctx.abort.signal.aborted) return
    const adapter = adapterFor(upstream.vendor)!.chat!
    const uctx: UpstreamCtx = { upstream, model: plan.model }
    ctx.outcome.upstreamId = upstream.id
    const response = await callUpstream(ctx, services, adapter, adapter.toRequest(body, uctx))
    if (!('statusCode' in response)) {
      failure = response
      continue
    }
    const attempt = stream
      ? await relayStream(ctx, response, adapter.streamTranslator({ includeUsage: clientStreamOptions.include_usage === true }, uctx), plan)
      : await relayJson(ctx, response, adapter, uctx)
    if (attempt.done) return
    failure = attempt.failure
  }
  if (!ctx.abort.signal.aborted) throw exhausted(failure)
}

/** Sends the call; answers with the response, a failure to fail over from, or throws the upstream's own client error. */
async function callUpstream(
  ctx: RequestContext,
  { http }: Services,
  adapter: ChatAdapter,
  spec: Parameters<Services['http']['send']>[0],
): Promise<UpstreamResponse | UpstreamFailure> {
  let response: UpstreamResponse
  try {
    response = await http.send(spec, ctx.abort.signal)
  } catch (err) {
    const reason = transportFailure(err)
    return { kind: 'transport', reason: reason === 'aborted' ? 'reset' : reason }
  }
  if (response.statusCode < 400) return response
  const text = await response.body.text().catch(() => '')
  const error = adapter.fromError(response.statusCode, text)
  if (isFailoverStatus(response.statusCode)) return { kind: 'status', status: response.statusCode, error }
  throw error
}

async function relayJson(ctx: RequestContext, response: UpstreamResponse, adapter: ChatAdapter, uctx: UpstreamCtx): Promise<Attempt> {
  let text: string
  try {
    text = await response.body.text()
  } catch (err) {
    const reason = transportFailure(err)
    return reason === 'aborted' ? DONE : { done: false, failure: { kind: 'transport', reason } }
  }
  let result
  try {
    result = adapter.fromResponse(text, uctx)
  } catch {
    return { done: false, failure: { kind: 'malformed' } }
  }
  bill(ctx, uctx.model, result.usage)
  sendJson(ctx.res, 200, result.body)
  return DONE
}

async function relayStream(ctx: RequestContext, response: UpstreamResponse, translator: ChatStreamTranslator, plan: ChatPlan): Promise<Attempt> {
  const { res } = ctx
  let frames = ''
  const parser = createParser({ onEvent: (event) => void (frames += translator.push(event).join('')) })
  const decoder = new TextDecoder()
  let started = false
  try {
    for await (const chunk of response.body as AsyncIterable<Buffer>) {
      parser.feed(decoder.decode(chunk, { stream: true }))
      if (frames === '') continue
      if (!started) {
        started = true
        res.writeHead(200, SSE_HEADERS)
      }
      const flushed = res.write(frames)
      frames = ''
      if (!flushed) await drained(res)
      if (ctx.abort.signal.aborted) break
    }
  } catch (err) {
    const reason = transportFailure(err)
    if (reason !== 'aborted' && !started) return { done: false, failure: { kind: 'transport', reason } }
    if (reason !== 'aborted') {
      await billPartial(ctx, plan, translator)
      ctx.outcome.status = 502
      ctx.outcome.errorCode = 'stream_interrupted'
      res.end(sseErrorFrame(ctx, interrupted(reason === 'timeout' ? 'the upstream went silent' : 'the upstream connection broke')))
      return DONE
    }
  }
  if (ctx.abort.signal.aborted) {
    await billPartial(ctx, plan, translator)
    return DONE
  }
  if (!started) return { done: false, failure: { kind: 'empty' } }
  bill(ctx, plan.model, translator.usage() ?? (await countedUsage(plan, translator)))
  res.end()
  return DONE
}

function bill(ctx: RequestContext, model: CatalogModel, usage: TokenUsage | undefined): void {
  if (!usage) return
  ctx.outcome.usage = usage
  ctx.outcome.costNano = tokenCostNano(model, usage)
}

/** Spec §1: an interrupted stream is billed for the output already produced. */
async function billPartial(ctx: RequestContext, plan: ChatPlan, translator: ChatStreamTranslator): Promise<void> {
  bill(ctx, plan.model, translator.usage() ?? (await countedUsage(plan, translator)))
}

/** When the upstream never reported usage, count tokens locally from the prompt and the deltas relayed. */
async function countedUsage(plan: ChatPlan, translator: ChatStreamTranslator): Promise<TokenUsage> {
  const [inputTokens, outputTokens] = await Promise.all([countTextTokens(promptText(plan.body.messages)), countTextTokens(translator.producedText())])
  return { inputTokens, outputTokens, raw: { counted_locally: true, prompt_tokens: inputTokens, completion_tokens: outputTokens } }
}
