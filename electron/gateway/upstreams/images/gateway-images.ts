import { gatewayError } from '../../errors.js'
import type { ImageOutcome } from '../../contract/image-upstream.js'
import { forwardOriginal, fromGatewayError, gatewayModelName } from '../gateway-upstream.js'
import { parseJson } from '../openai-compatible.js'
import { fromImagesUsage, type ImagesUsage } from './openai-images.js'
import { streamErrorStatus } from '../stream-error-status.js'
import type { ImageAdapter } from '../../contract/image-upstream.js'

interface ImagesAnswer {
  data?: Array<{ b64_json?: string; url?: string; mime_type?: string; revised_prompt?: string }>
  usage?: ImagesUsage
  error?: unknown
}

/**
 * The answer's JSON. With `stream: true` in the body the upstream gateway answers its images SSE: keepalive comments,
 * then one `data:` event holding the images JSON (or the error envelope), then `data: [DONE]`.
 */
function answerJson(text: string): ImagesAnswer | undefined {
  if (!/^\s*(:|data:|event:)/.test(text)) return parseJson(text) as ImagesAnswer | undefined
  const events = text.split(/\r?\n\r?\n/).map((e) => e.split(/\r?\n/).filter((l) => l.startsWith('data:')).map((l) => l.slice(5).trim()).join('\n'))
  const last = events.filter((d) => d !== '' && d !== '[DONE]').pop()
  return last === undefined ? undefined : (parseJson(last) as ImagesAnswer | undefined)
}

/**
 * Images on another gateway of this interface (vendor `gateway`): the client's request (JSON, or multipart with
 * its files) goes to the same path, unchanged but for a JSON body's `model`: the model served as the account knows
 * it (gatewayModelName). The answer is this interface's images JSON (spec §2.3). The images and their token usage
 * are taken from it and billed as for any vendor.
 */
export const gatewayImages: ImageAdapter = {
  needsBytes: false,
  toRequests(job, ctx) {
    if (job.original === undefined) throw gatewayError('internal_error', 'internal_error')
    return [forwardOriginal(ctx.upstream, job.original, gatewayModelName(ctx))]
  },
  fromResponse(text, job): ImageOutcome {
    const body = answerJson(text)
    // An error event in the images SSE carries no HTTP status: its type names one.
    if (body?.error !== undefined) throw fromGatewayError(streamErrorStatus(body.error), JSON.stringify(body))
    if (!body || !Array.isArray(body.data)) throw new SyntaxError('no data in the images answer')
    return {
      images: body.data.map((d) => ({ b64: d.b64_json, url: d.url, mimeType: d.mime_type ?? 'image/png', revisedPrompt: d.revised_prompt })),
      usage: fromImagesUsage(body.usage),
      tier: job.req.tier,
    }
  },
  fromError: fromGatewayError,
}
