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
 * Gemini image models through `generateContent` with image output: one image per call, so `n` images
 * are `n` calls made in parallel (spec §4.2: all or nothing). A refusal or a text-only answer is a 400
 * quoting the model's text; an answer with neither image nor text is a 502.
 * @see ../../../../docs/vendors/gemini.md
 */
export const geminiImages: ImageAdapter = {
  needsBytes: true,
  toRequests: (job, ctx) => Array.from({ length: job.req.n }, () => oneCall(job, ctx)),
  fromResponse(text, job) {
    const answer = parseJson(text) as GeminiImageAnswer | undefined
    if (!answer || typeof answer !== 'object') throw new SyntaxError('invalid JSON from the upstream')
    if (answer.promptFeedback?.blockReason) throw gatewayError('invalid_request', 'gemini_prompt_blocked', { reason: answer.promptFeedback.blockReason })
    const parts = (answer.candidates?.[0]?.content?.parts ?? []).filter((p) => !p.thought)
    const images = parts.filter((p) => p.inlineData?.data).map((p) => ({ b64: p.inlineData!.data!, mimeType: p.inlineData!.mimeType ?? 'image/png' }))
    if (images.length === 0) {
      const said = parts.map((p) => p.text ?? '').join('').trim()
      if (said !== '') throw gatewayError('invalid_request', 'image_refused', { text: said })
      throw new GatewayError('upstream_error', { id: 'upstream_error', params: { detail: `no image in the answer (finish reason ${answer.candidates?.[0]?.finishReason ?? 'none'})` } })
    }
    return { images, usage: fromGeminiUsage(answer.usageMetadata), tier: job.req.tier }
  },
  fromError: fromGeminiError,
}
