import { createParser, type EventSourceMessage } from 'eventsource-parser'
import type { CatalogModel } from '../../../shared/types.js'
import { billableUsage, streamUsage } from '../money/billed-usage.js'
import { costNano } from '../billing/billing.js'
import type { RequestContext } from '../context.js'
import { GatewayError } from '../errors.js'
import { abandonBody, AnswerTooLarge, readAnswer, transportFailure, type UpstreamResponse } from '../upstreams/http.js'
import { exceedsJsonDepth } from '../guards/json-depth.js'
import type { UpstreamAccount } from '../contract/accounts.js'
import { drained, sendJson, SSE_HEADERS, sseErrorFrame } from '../respond.js'
import type { Services } from '../services.js'
import { adapterFor } from '../upstreams/index.js'
import type { ChatStreamTranslator, RelayAdapter, RelayCapability, TokenUsage, UpstreamCtx } from '../contract/upstream.js'
import { startCheckpoints, type StreamCheckpoints } from './checkpoint.js'
import type { RelayPlan } from './relay-plan.js'
import { failover, type Attempt } from './failover.js'
import { attempt, requestRun, sendCall, statusFailure } from './attempt.js'
import { interrupted, type UpstreamFailure } from './upstream-failure.js'
import { continueCut } from './continuation.js'
import { firstTokenMsOf, StreamDeadline, streamDeadlines, StreamWatch } from './stream-watch.js'

const DONE: Attempt<void> = { done: true, value: undefined }

/**
 * Sends a request to the group's accounts in failover order and relays the answer.
 * Failover happens until the first byte reaches the client; after that a break is an error event (spec §6).
 */
export function relay(ctx: RequestContext, services: Services, plan: RelayPlan): Promise<void> {
  return failover(plan.candidates, ctx.abort, (upstream) => relayFrom(ctx, services, plan, upstream), requestRun(ctx, services.routing, plan.model.id))
}

/** One account's try: the call, then the answer relayed as JSON, a stream or bytes. */
async function relayFrom(ctx: RequestContext, services: Services, plan: RelayPlan, upstream: UpstreamAccount): Promise<Attempt<void>> {
  const adapter = adapterFor(upstream.vendor)![plan.capability]!
  const uctx: UpstreamCtx = { upstream, model: plan.model, clientHeaders: ctx.req.headers, rawBody: plan.rawBody }
  ctx.outcome.upstreamId = upstream.id
  // Translation refuses bad input with a 400 of its own: that is thrown, never failed over.
  const spec = adapter.toRequest(plan.body, uctx)
  // A stream's headers are due sooner than a whole answer's; its first token and its silences are the watch's.
  if (plan.stream) spec.deadlines = streamDeadlines(firstTokenMsOf(plan.model, services.http.timeouts), services.http.timeouts)
  const sent = await attempt(() => sendCall(services.http, spec, ctx.abort, adapter), 'reset')
  if (!sent.done) return sent
  const response = sent.value
  if (plan.binaryUsage) return relayBinary(ctx, response, plan)
  return plan.stream
    ? relayStream(ctx, services, response, adapter.streamTranslator({ includeUsage: plan.includeUsage === true }, uctx), plan)
    : relayJson(ctx, response, adapter, uctx, plan)
}

async function relayJson(ctx: RequestContext, response: UpstreamResponse, adapter: RelayAdapter, uctx: UpstreamCtx, plan: RelayPlan): Promise<Attempt<void>> {
  let bytes: Uint8Array
  try {
    bytes = await readAnswer(response)
  } catch (err) {
    if (err instanceof AnswerTooLarge) return { done: false, failure: { kind: 'malformed' } }
    const reason = transportFailure(err)
    return reason === 'aborted' ? stopped(ctx) : { done: false, failure: { kind: 'transport', reason } }
  }
  // Nesting no answer needs is an upstream fault, refused before anything walks it (or the client gets it).
  if (exceedsJsonDepth(bytes)) return { done: false, failure: { kind: 'malformed' } }
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8')
  let result
  try {
    result = adapter.fromResponse(text, uctx)
  } catch (err) {
    // An answer the adapter refuses on the client's account (a blocked prompt) is the client's error, not a failover.
    if (err instanceof GatewayError && err.status < 500) throw err
    return { done: false, failure: { kind: 'malformed' } }
  }
  await bill(ctx, plan, result.usage, () => result.outputText?.() ?? '')
  // A body relayed unchanged goes back as the upstream's own bytes: no second encoding.
  sendJson(ctx.res, 200, result.body === text ? bytes : result.body)
  return DONE
}

/**
 * A stream's answer, under its watch (stream-watch.ts): its first content within the model's `firstTokenMs` of the
 * headers (else the next account is tried), then no silence longer than `idleMs` (else the protocol's error event).
 */
async function relayStream(ctx: RequestContext, services: Services, response: UpstreamResponse, translator: ChatStreamTranslator, plan: RelayPlan): Promise<Attempt<void>> {
  const { timeouts } = services.http
  const watch = new StreamWatch(response.body, firstTokenMsOf(plan.model, timeouts), timeouts.idleMs)
  try {
    return await relayWatchedStream(ctx, services, response, translator, plan, watch)
  } finally {
    watch.stop()
  }
}

async function relayWatchedStream(ctx: RequestContext, services: Services, response: UpstreamResponse, translator: ChatStreamTranslator, plan: RelayPlan, watch: StreamWatch): Promise<Attempt<void>> {
  const { res } = ctx
  let checkpoints: StreamCheckpoints | undefined
  let frames = ''
  const parser = createParser({ onEvent: (event) => void (frames += translator.push(redactedIfError(ctx, event)).join('')) })
  const decoder = new TextDecoder()
  let started = false
  try {
    for await (const chunk of response.body as AsyncIterable<Buffer>) {
      watch.chunk()
      parser.feed(decoder.decode(chunk, { stream: true }))
      if (!started) {
        // Frames before the first content are held back: a stream that fails or ends before it is failed over.
        if (!translator.hasContent()) {
          if (translator.finished()) break
          if (frames.length > MAX_HELD_CHARS) return abandon(response, { kind: 'malformed' })
          continue
        }
        started = true
        watch.flowing()
        res.writeHead(200, SSE_HEADERS)
        checkpoints = startCheckpoints(ctx, services, plan, translator)
      }
      if (frames === '') continue
      checkpoints!.sent(frames.length)
      const flushed = res.write(frames)
      frames = ''
      // The protocol's end went out: the answer is whole, whatever the client's socket does next (ledger 200).
      if (translator.finished() && translator.upstreamError?.() === undefined) ctx.outcome.delivered = true
      if (!flushed) {
        watch.waiting(true)
        await drained(ctx)
        watch.waiting(false)
      }
      if (ctx.abort.aborted) break
    }
  } catch (err) {
    // A translator throws a GatewayError for an error the upstream sent inside its stream.
    const reported = err instanceof GatewayError ? err : undefined
    // A deadline of the watch: before content, a timed-out attempt; after, a silent upstream.
    const reason = reported ? undefined : err instanceof StreamDeadline ? 'timeout' : transportFailure(err)
    if (!started && reported) return failedBeforeContent(reported)
    if (!started && reason !== 'aborted') {
      // An error event the upstream sent before it broke says more than the break.
      const sent = translator.upstreamError?.()
      return sent ? failedBeforeContent(sent) : { done: false, failure: { kind: 'transport', reason: reason! } }
    }
    if (reason !== 'aborted') {
      const error = reported ?? interrupted(reason === 'timeout' ? 'the upstream went silent' : 'the upstream connection broke')
      // Where the group allows it, another account finishes the answer in this same stream (continuation.ts).
      if (!reported && (await continueCut(ctx, services, plan, { translator, error, errorFrame: (t, e) => errorEvent(ctx, t, e) }))) return DONE
      await billStream(ctx, plan, translator)
      ctx.outcome.status = reported?.status ?? 502
      ctx.outcome.errorCode = error.code
      res.end(errorEvent(ctx, translator, error))
      return DONE
    }
  }
  if (ctx.abort.aborted) {
    // The gateway ended it (its key revoked): the client hears why in the protocol's error event, and no chunk more.
    const ended = ctx.abort.endedBy
    if (ended !== undefined && started && !res.destroyed && !ctx.outcome.delivered) res.end(errorEvent(ctx, translator, ended))
    // Billed for the output already produced (spec §1): nothing, when it ended before the first byte.
    if (started) await billStream(ctx, plan, translator)
    return started ? DONE : stopped(ctx)
  }
  if (!started) {
    const sent = translator.upstreamError?.()
    return sent ? failedBeforeContent(sent) : { done: false, failure: { kind: 'empty' } }
  }
  if (!translator.finished()) {
    await billStream(ctx, plan, translator)
    // The body ended cleanly without the protocol's end, yet every answer in it had finished: complete. The gateway
    // writes the end (and the usage the client asked for) that the upstream left out.
    const end = translator.endOfAnswer?.(ctx.outcome.usage)
    if (end !== undefined) {
      ctx.outcome.delivered = true
      res.end(end.join(''))
      return DONE
    }
    // Else a break after the start (spec §6).
    ctx.outcome.status = 502
    ctx.outcome.errorCode = 'stream_interrupted'
    const error = interrupted('the upstream ended the stream before it was complete')
    res.end(errorEvent(ctx, translator, error))
    return DONE
  }
  await billStream(ctx, plan, translator)
  res.end()
  return DONE
}

/** Frames held before the first content: far more than any real stream sends before its first word. */
const MAX_HELD_CHARS = 1_000_000

/** An attempt that stopped because the request was aborted: done when the client left; the gateway's error when it ended it. */
function stopped(ctx: RequestContext): Attempt<void> {
  if (ctx.abort.endedBy !== undefined) throw ctx.abort.endedBy
  return DONE
}

/** Gives up on an answer still arriving, as a failed attempt. */
function abandon(response: UpstreamResponse, failure: UpstreamFailure): Attempt<void> {
  abandonBody(response)
  return { done: false, failure }
}

/**
 * An upstream's error event may quote its own secrets (relayed as is by OpenAI-compatible and Anthropic streams), so
 * it passes the redactor; every other event goes through untouched and unscanned.
 */
function redactedIfError(ctx: RequestContext, event: EventSourceMessage): EventSourceMessage {
  return event.event === 'error' || event.data.includes('"error"') ? { ...event, data: ctx.redact(event.data) } : event
}

/** The stream's error event in the protocol's own shape; an upstream's words in it pass the redactor first. */
function errorEvent(ctx: RequestContext, translator: ChatStreamTranslator, error: GatewayError): string {
  return translator.errorFrame?.(ctx.redact(error.code), ctx.redact(error.localized(ctx.lang))) ?? sseErrorFrame(ctx, error)
}

/** A stream that failed before any content: failed over on 429/5xx and refused credentials, else the upstream's own error. */
const failedBeforeContent = (error: GatewayError): Attempt<void> => ({ done: false, failure: statusFailure(error) })

/** Pipes a binary answer (audio) chunk by chunk with the upstream's content type. */
async function relayBinary(ctx: RequestContext, response: UpstreamResponse, plan: RelayPlan): Promise<Attempt<void>> {
  const { res } = ctx
  let started = false
  try {
    for await (const chunk of response.body as AsyncIterable<Buffer>) {
      if (!started) {
        started = true
        res.writeHead(200, { 'content-type': String(response.headers['content-type'] ?? 'application/octet-stream') })
      }
      if (!res.write(chunk)) await drained(ctx)
      if (ctx.abort.aborted) break
    }
  } catch (err) {
    const reason = transportFailure(err)
    if (reason !== 'aborted' && !started) return { done: false, failure: { kind: 'transport', reason } }
    if (reason !== 'aborted') {
      // Audio has no error frame: the truncated body and the closed connection say it.
      ctx.outcome.status = 502
      ctx.outcome.errorCode = 'stream_interrupted'
      res.destroy()
    }
  }
  if (!started) return ctx.abort.aborted ? stopped(ctx) : { done: false, failure: { kind: 'empty' } }
  // Ended by the gateway (its key revoked): audio has no error frame, the cut connection says it.
  if (ctx.abort.endedBy !== undefined) res.destroy()
  // The vendor bills the whole input once it started speaking.
  await bill(ctx, plan, plan.binaryUsage, () => '')
  if (!res.destroyed) res.end()
  return DONE
}

/** Bills checked usage: the upstream's when plausible, else counted locally from the prompt and `output` (billed-usage.ts). */
async function bill(ctx: RequestContext, plan: RelayPlan, reported: TokenUsage | undefined, output: () => string): Promise<void> {
  if (!plan.billable) return
  const usage = await billableUsage(plan.model, reported, { text: { prompt: plan.promptText, output }, maxQuantity: plan.binaryUsage?.quantity })
  ctx.outcome.usage = usage
  ctx.outcome.costNano = costNano(plan.model, usage)
}

/** Spec §1: a stream is billed for the output produced, whether it ended or was interrupted. */
const billStream = async (ctx: RequestContext, plan: RelayPlan, translator: ChatStreamTranslator): Promise<void> =>
  bill(ctx, plan, await streamUsage(translator, plan.model), () => translator.producedText())
