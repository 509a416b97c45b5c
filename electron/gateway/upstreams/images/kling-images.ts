import { GatewayError } from '../../errors.js'
import { parseDataUrl } from '../../formats/data-url.js'
import { parseJson } from '../openai-compatible.js'
import { vendorError } from '../vendor-error.js'
import { klingCodeError } from '../video/kling.js'
import { klingAuth } from '../kling-jwt.js'
import type { ImageAdapter } from '../../contract/image-upstream.js'
import { compact } from './compact.js'
import { upstreamModel } from '../model-id.js'

interface KlingEnvelope {
  code?: number
  message?: string
  data?: { task_id?: string; task_status?: string; task_status_msg?: string; task_result?: { images?: Array<{ url?: string }> } }
}

/**
 * Kling answers `{code, message, data}` with code 0 for success, often inside an HTTP 200: another code is the error
 * it stands for in Kling's table (1301, content safety: the client's 400; 1302: 429, failed over), never an error
 * with the status 200.
 */
function envelope(text: string): KlingEnvelope {
  const body = parseJson(text) as KlingEnvelope | undefined
  if (!body || typeof body !== 'object') throw new SyntaxError('invalid JSON from the upstream')
  if (body.code !== undefined && body.code !== 0) throw klingCodeError(body.code, body.message)
  return body
}

const now = () => Math.floor(Date.now() / 1000)

/** Kling takes a reference as a link or as raw base64, never as a data URL. */
const klingReference = (ref: string): string => parseDataUrl(ref)?.payload ?? ref

/**
 * Kling image generation: an async task at the vendor (create, then poll `task_status` until `succeed`),
 * authenticated with a JWT signed from the account's `ACCESS_KEY:SECRET_KEY`.
 * @see ../../../../docs/vendors/kling.md "Images"
 */
export const klingImages: ImageAdapter = {
  needsBytes: false,
  toRequests(job, ctx) {
    const { req } = job
    const body = compact({
      ...req.forward,
      model_name: upstreamModel(ctx),
      prompt: req.prompt,
      n: req.n,
      aspect_ratio: req.aspectRatio,
      resolution: req.resolution,
      image: req.references[0] === undefined ? undefined : klingReference(req.references[0]),
    })
    const url = `${ctx.upstream.baseUrl.replace(/\/v1\/?$/, '')}/v1/images/generations`
    return [{ method: 'POST', url, headers: { ...klingAuth(ctx.upstream.apiKey, now()), 'content-type': 'application/json' }, body: JSON.stringify(body) }]
  },
  fromResponse() {
    throw new SyntaxError('Kling images answer with a task')
  },
  task: {
    intervalMs: 1_000,
    fromCreate(text) {
      const id = envelope(text).data?.task_id
      if (!id) throw new SyntaxError('no task id in the create answer')
      return id
    },
    toPoll: (taskId, ctx) => ({
      method: 'GET',
      url: `${ctx.upstream.baseUrl.replace(/\/v1\/?$/, '')}/v1/images/generations/${encodeURIComponent(taskId)}`,
      headers: klingAuth(ctx.upstream.apiKey, now()),
    }),
    fromPoll(text, job) {
      const data = envelope(text).data
      if (data?.task_status === 'failed') throw new GatewayError('upstream_error', { text: data.task_status_msg || 'the image task failed' }, { status: 502 })
      if (data?.task_status !== 'succeed') return undefined
      const images = (data.task_result?.images ?? []).filter((i) => i.url).map((i) => ({ url: i.url!, mimeType: /\.jpe?g(\?|$)/i.test(i.url!) ? 'image/jpeg' : 'image/png' }))
      return { images, tier: job.req.tier }
    },
  },
  fromError(status, text) {
    const body = parseJson(text) as KlingEnvelope | undefined
    return vendorError(status, body?.code === undefined ? undefined : String(body.code), body?.message)
  },
}
