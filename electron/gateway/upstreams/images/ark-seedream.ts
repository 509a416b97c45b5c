import { GatewayError } from '../../errors.js'
import { fromOpenAIError, parseJson } from '../openai-compatible.js'
import type { ImageAdapter } from '../../contract/image-upstream.js'
import { compact } from './compact.js'
import { upstreamModel } from '../model-id.js'

/**
 * An answer without any image: its per-image error when Ark says the content was refused (`…SensitiveContentDetected`,
 * volcengine-ark.md: the same request is refused again) is the client's 400 in Ark's words with OpenAI's code
 * `content_policy_violation`, never failed over nor billed; any other is a 502, tried on the next account.
 */
function noImage(error: { code?: string; message?: string } | undefined): Error {
  const message = error?.message || error?.code || 'no image in the answer'
  if (error?.code !== undefined && /SensitiveContentDetected$/.test(error.code)) return new GatewayError('invalid_request', { text: message }, { upstreamCode: 'content_policy_violation' })
  return new GatewayError('upstream_error', { text: message })
}

/**
 * Volcengine Ark Seedream: synchronous, answers signed links valid 24 h (spec §4.2: url output only,
 * one image per request). References go as given: Ark takes links and data URLs alike.
 * @see ../../../../docs/vendors/volcengine-ark.md §1
 */
export const arkSeedream: ImageAdapter = {
  needsBytes: false,
  toRequests(job, ctx) {
    const { req } = job
    const size = req.size === undefined || req.size === 'auto' ? req.tier : `${req.size.width}x${req.size.height}`
    const model = upstreamModel(ctx)
    const body = compact({
      ...req.forward,
      model,
      prompt: req.prompt,
      size,
      image: req.references.length === 0 ? undefined : req.references.length === 1 ? req.references[0] : req.references,
      output_format: req.outputFormat,
      response_format: 'url',
      sequential_image_generation: 'disabled',
      // The gateway's images carry no vendor mark (the spec's always-false flag).
      watermark: false,
      stream: false,
    })
    return [{ method: 'POST', url: `${ctx.upstream.baseUrl}/images/generations`, headers: { authorization: `Bearer ${ctx.upstream.apiKey}`, 'content-type': 'application/json' }, body: JSON.stringify(body) }]
  },
  fromResponse(text, job) {
    const body = parseJson(text) as { data?: Array<{ url?: string; b64_json?: string; error?: { code?: string; message?: string } }>; usage?: { generated_images?: number; output_tokens?: number } } | undefined
    if (!body || !Array.isArray(body.data)) throw new SyntaxError('no data in the images answer')
    const mimeType = job.req.outputFormat === 'png' ? 'image/png' : 'image/jpeg'
    // Per-image errors (a blocked image in a group) are dropped; billing counts what was generated.
    const images = body.data.filter((d) => d.url || d.b64_json).map((d) => ({ url: d.url, b64: d.b64_json, mimeType }))
    if (images.length === 0) throw noImage(body.data.find((d) => d.error)?.error)
    return { images, tier: job.req.tier }
  },
  fromError: fromOpenAIError,
}
