import type { HttpSpec, MultipartPart } from '../../contract/http-spec.js'
import { fromOpenAIError, parseJson } from '../openai-compatible.js'
import type { TokenUsage, UpstreamCtx } from '../../contract/upstream.js'
import type { ImageAdapter, ImageJob } from '../../contract/image-upstream.js'
import { compact } from './compact.js'
import { upstreamModel } from '../model-id.js'

const MIME: Record<string, string> = { png: 'image/png', jpeg: 'image/jpeg', webp: 'image/webp' }

/** The request's own fields in OpenAI's names; the rest of the body rides along unchanged. */
function fields(job: ImageJob, ctx: UpstreamCtx): Record<string, unknown> {
  const { req } = job
  const size = req.size === undefined ? req.tier : req.size === 'auto' ? 'auto' : `${req.size.width}x${req.size.height}`
  const model = upstreamModel(ctx)
  return compact({
    ...req.forward,
    model,
    prompt: req.prompt,
    n: req.n,
    size,
    quality: req.quality,
    background: req.background,
    output_format: req.outputFormat,
    output_compression: req.outputCompression,
  })
}

/** Edits go as multipart: `image[]` files and the fitted mask, like the official SDK sends them. */
function editParts(job: ImageJob, ctx: UpstreamCtx): MultipartPart[] {
  return [
    ...Object.entries(fields(job, ctx)).map(([name, value]) => ({ name, value: typeof value === 'string' ? value : JSON.stringify(value) })),
    ...job.images.map((image) => ({ name: 'image[]', chunks: image.chunks, type: image.mimeType, filename: image.filename })),
    ...(job.mask ? [{ name: 'mask', chunks: [job.mask], type: 'image/png', filename: 'mask.png' }] : []),
  ]
}

export interface ImagesUsage {
  input_tokens?: number
  output_tokens?: number
  input_tokens_details?: { cached_tokens?: number; text_tokens?: number; image_tokens?: number } | null
}

/**
 * A GPT image answer's usage: input_tokens holds text and image tokens (input_tokens_details), cached ones among
 * them; output_tokens are the image's tokens. Image input is priced at pricing.imageInput, apart from text; cached
 * tokens, whose kind the answer does not tell, at pricing.cachedInput (docs/vendor-usage.md).
 */
export function fromImagesUsage(usage: ImagesUsage | null | undefined): TokenUsage | undefined {
  if (!usage || typeof usage.input_tokens !== 'number') return undefined
  const cached = usage.input_tokens_details?.cached_tokens ?? 0
  const uncached = usage.input_tokens - cached
  const image = usage.input_tokens_details?.image_tokens
  return {
    inputTokens: uncached,
    cachedInputTokens: cached,
    ...(Number.isSafeInteger(image) && image! > 0 ? { imageInputTokens: Math.min(image!, Math.max(uncached, 0)) } : {}),
    outputTokens: usage.output_tokens ?? 0,
    raw: usage,
  }
}

/**
 * OpenAI's GPT image models: generations as JSON, edits as multipart; answers `b64_json`.
 * @see ../../../../docs/vendors/openai.md §3
 */
export const openAIImages: ImageAdapter = {
  needsBytes: true,
  toRequests(job, ctx): HttpSpec[] {
    const auth = { authorization: `Bearer ${ctx.upstream.apiKey}` }
    if (job.req.endpoint === 'edits') {
      return [{ method: 'POST', url: `${ctx.upstream.baseUrl}/images/edits`, headers: auth, body: { multipart: editParts(job, ctx) } }]
    }
    return [{ method: 'POST', url: `${ctx.upstream.baseUrl}/images/generations`, headers: { ...auth, 'content-type': 'application/json' }, body: JSON.stringify(fields(job, ctx)) }]
  },
  fromResponse(text, job) {
    const body = parseJson(text) as { data?: Array<{ b64_json?: string; url?: string; revised_prompt?: string }>; output_format?: string; usage?: ImagesUsage } | undefined
    if (!body || !Array.isArray(body.data)) throw new SyntaxError('no data in the images answer')
    const mimeType = MIME[body.output_format ?? job.req.outputFormat ?? 'png'] ?? 'image/png'
    return {
      images: body.data.map((d) => ({ b64: d.b64_json, url: d.url, mimeType, revisedPrompt: d.revised_prompt })),
      usage: fromImagesUsage(body.usage),
      tier: job.req.tier,
    }
  },
  fromError: fromOpenAIError,
}
