import { GatewayError, gatewayError } from '../../errors.js'
import type { HttpSpec } from '../../contract/http-spec.js'
import { fromGeminiError } from '../gemini-chat.js'
import { fromGeminiUsage } from '../gemini-response.js'
import { parseJson } from '../openai-compatible.js'
import type { UpstreamCtx } from '../../contract/upstream.js'
import type { ImageAdapter, ImageJob } from '../../contract/image-upstream.js'
import { wholeImage } from '../../formats/whole-image.js'
import { compact } from './compact.js'
import { upstreamModel } from '../model-id.js'

interface GeminiImageAnswer {
  candidates?: Array<{ content?: { parts?: Array<{ text?: string; thought?: boolean; inlineData?: { mimeType?: string; data?: string } }> }; finishReason?: string }>
  promptFeedback?: { blockReason?: string }
  usageMetadata?: Parameters<typeof fromGeminiUsage>[0]
}

function oneCall(job: ImageJob, ctx: UpstreamCtx): HttpSpec {
  const { req } = job
  const model = upstreamModel(ctx)
  const parts = [{ text: req.prompt }, ...job.images.map((image) => ({ inlineData: { mimeType: image.mimeType, data: wholeImage(image).toString('base64') } }))]
  const imageConfig = compact({ aspectRatio: req.aspectRatio, imageSize: req.tier })
  return {
    method: 'POST',
    url: `${ctx.upstream.baseUrl}/v1beta/models/${encodeURIComponent(model)}:generateContent`,
    headers: { 'x-goog-api-key': ctx.upstream.apiKey, 'content-type': 'application/json' },
    body: JSON.stringify({
      contents: [{ role: 'user', parts }],
      generationConfig: { responseModalities: ['TEXT', 'IMAGE'], imageConfig },
    }),
  }
}

/**
 * Gemini's deterministic refusals (gemini.md: `finishReason` of a candidate without an image, `promptFeedback.blockReason`):
 * the same request is refused again on any account, so they are the client's 400, never failed over nor billed. The
 * safety and recitation reasons carry OpenAI's code `content_policy_violation`; NO_IMAGE (the model made none) and a
 * text-only answer `image_refused`. Other reasons (OTHER, IMAGE_OTHER, MALFORMED_FUNCTION_CALL…) are not known to
 * repeat: a 502, tried on the next account.
 */
const POLICY_REASONS = new Set(['SAFETY', 'IMAGE_SAFETY', 'PROHIBITED_CONTENT', 'IMAGE_PROHIBITED_CONTENT', 'BLOCKLIST', 'SPII', 'RECITATION', 'IMAGE_RECITATION'])
const REFUSAL_REASONS = new Set(['NO_IMAGE'])

/** Codes of the 400s a refusal answers (README "What the gateway does": errors). */
export const REFUSAL_CODES = { policy: 'content_policy_violation', noImage: 'image_refused' } as const

/** A candidate's finish reason as the client's 400, or undefined when it is not known to repeat. */
function refusal(reason: string | undefined, said: string): GatewayError | undefined {
  if (reason === undefined) return undefined
  const shown = said === '' ? reason : `${reason}: ${said.slice(0, 500)}`
  if (POLICY_REASONS.has(reason)) return gatewayError('invalid_request', 'image_blocked', { reason: shown }, { upstreamCode: REFUSAL_CODES.policy })
  if (REFUSAL_REASONS.has(reason)) return gatewayError('invalid_request', 'image_blocked', { reason: shown }, { upstreamCode: REFUSAL_CODES.noImage })
  return undefined
}

/**
 * Gemini image models through `generateContent` with image output: one image per call, so `n` images
 * are `n` calls made in parallel (spec §4.2: all or nothing). A refusal (a prompt block, a refusing finish reason,
 * a text-only answer) is a 400 naming the vendor's reason and quoting the model's text; an answer with neither image
 * nor text for another reason is a 502.
 * @see ../../../../docs/vendors/gemini.md
 */
export const geminiImages: ImageAdapter = {
  needsBytes: true,
  toRequests: (job, ctx) => Array.from({ length: job.req.n }, () => oneCall(job, ctx)),
  fromResponse(text, job) {
    const answer = parseJson(text) as GeminiImageAnswer | undefined
    if (!answer || typeof answer !== 'object') throw new SyntaxError('invalid JSON from the upstream')
    if (answer.promptFeedback?.blockReason) throw gatewayError('invalid_request', 'gemini_prompt_blocked', { reason: answer.promptFeedback.blockReason }, { upstreamCode: REFUSAL_CODES.policy })
    const parts = (answer.candidates?.[0]?.content?.parts ?? []).filter((p) => !p.thought)
    const images = parts.filter((p) => p.inlineData?.data).map((p) => ({ b64: p.inlineData!.data!, mimeType: p.inlineData!.mimeType ?? 'image/png' }))
    if (images.length === 0) {
      const said = parts.map((p) => p.text ?? '').join('').trim()
      const reason = answer.candidates?.[0]?.finishReason
      const refused = refusal(reason, said)
      if (refused) throw refused
      if (said !== '') throw gatewayError('invalid_request', 'image_refused', { text: said }, { upstreamCode: REFUSAL_CODES.noImage })
      throw new GatewayError('upstream_error', { id: 'upstream_error', params: { detail: `no image in the answer (finish reason ${reason ?? 'none'})` } })
    }
    return { images, usage: fromGeminiUsage(answer.usageMetadata), tier: job.req.tier }
  },
  fromError: fromGeminiError,
}
