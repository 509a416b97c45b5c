import { GatewayError } from '../../errors.js'
import { parseJson } from '../openai-compatible.js'
import type { ImageAdapter } from '../../contract/image-upstream.js'
import { compact } from './compact.js'
import { upstreamModel } from '../model-id.js'

/**
 * xAI's flat `{"code","error"}` body (a bad key is a 400 there; its moderation block a 400 "Content violates usage
 * guidelines.", given OpenAI's code `content_policy_violation` like the other vendors' refusals).
 * @see ../../../../docs/vendors/xai.md
 */
export function fromXaiError(status: number, text: string): GatewayError {
  const body = parseJson(text) as { code?: string; error?: string | { message?: string } } | undefined
  const message = typeof body?.error === 'string' ? body.error : body?.error?.message ?? `upstream answered HTTP ${status}`
  const keyRefused = status === 400 && /api key/i.test(message)
  const moderated = status === 400 && /usage guidelines/i.test(message)
  return new GatewayError(status >= 500 || keyRefused ? 'upstream_error' : 'invalid_request', { text: message }, {
    status: keyRefused ? 401 : status,
    ...(moderated ? { upstreamCode: 'content_policy_violation' } : {}),
  })
}

/**
 * Grok Imagine images: JSON generations (and JSON edits, not multipart), `b64_json` asked for so the
 * gateway answers like the other families.
 * @see ../../../../docs/vendors/xai.md §2
 */
export const xaiImages: ImageAdapter = {
  needsBytes: false,
  toRequests(job, ctx) {
    const { req } = job
    const path = req.endpoint === 'edits' ? '/images/edits' : '/images/generations'
    const body = compact({
      ...req.forward,
      model: upstreamModel(ctx),
      prompt: req.prompt,
      n: req.n,
      aspect_ratio: req.aspectRatio,
      resolution: req.resolution,
      quality: req.quality,
      image: req.references.length === 0 ? undefined : req.references.length === 1 ? { url: req.references[0] } : req.references.map((url) => ({ url })),
      response_format: 'b64_json',
    })
    return [{ method: 'POST', url: `${ctx.upstream.baseUrl}${path}`, headers: { authorization: `Bearer ${ctx.upstream.apiKey}`, 'content-type': 'application/json' }, body: JSON.stringify(body) }]
  },
  fromResponse(text, job) {
    const body = parseJson(text) as { data?: Array<{ b64_json?: string; url?: string; mime_type?: string; revised_prompt?: string }> } | undefined
    if (!body || !Array.isArray(body.data)) throw new SyntaxError('no data in the images answer')
    return { images: body.data.map((d) => ({ b64: d.b64_json, url: d.url, mimeType: d.mime_type ?? 'image/jpeg', revisedPrompt: d.revised_prompt })), tier: job.req.tier }
  },
  fromError: fromXaiError,
}
