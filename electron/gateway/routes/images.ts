import { admit, serveWithFallbacks, type AdmissionSpec, type Admitted } from '../admission.js'
import { holdWorstCase } from '../billing/holds.js'
import { costNano } from '../billing/billing.js'
import { readJson } from '../client/body.js'
import type { RequestContext } from '../context.js'
import { gatewayError } from '../errors.js'
import { checkImageRequest } from '../images/image-rules.js'
import type { ImageEndpoint, NormalizedImageRequest } from '../contract/image-request.js'
import { checkImageHeader, checkReferenceHeader, imageHead } from '../images/image-limits.js'
import { fitMask } from '../images/mask.js'
import { baseField, readMultipart, type UploadedFile } from '../images/multipart.js'
import { allReferenceBytes, fileDataUrls, referenceBytes } from '../images/reference-bytes.js'
import { imageUsage, imagesBody, perImageUsage } from '../images/result.js'
import { runImages } from '../images/run-images.js'
import { imageTokenQuote, usageQuote } from '../billing/quote-price.js'
import type { Quotable } from './quotable.js'
import { saveLinkedImages } from '../images/save-media.js'
import { startImageStream } from '../images/sse.js'
import { sendJson } from '../respond.js'
import type { Services } from '../services.js'
import { startImageTask, taskView } from '../tasks/image-tasks.js'
import type { ImageAdapter, ImageJob } from '../contract/image-upstream.js'
import { requestRun } from '../relay/attempt.js'

interface ImageBody {
  body: Record<string, unknown>
  multipart: boolean
  imageFiles: UploadedFile[]
  maskFile?: UploadedFile
}

/** Edits take multipart/form-data (image / image[] files, mask) or JSON; generations take JSON. */
async function readImageBody(ctx: RequestContext, endpoint: ImageEndpoint): Promise<ImageBody> {
  const type = String(ctx.req.headers['content-type'] ?? '')
  if (endpoint === 'edits' && /^multipart\/form-data/i.test(type)) {
    const { fields, files } = await readMultipart(ctx)
    return {
      body: fields,
      multipart: true,
      // Only `image` is read (spec §4.2), whether sent once, repeated, or as image[].
      imageFiles: files.filter((f) => baseField(f.field) === 'image'),
      maskFile: files.find((f) => f.field === 'mask'),
    }
  }
  return { body: readJson(ctx), multipart: false, imageFiles: [] }
}

/** Every image the request carries in its body (files, data: URLs) has a size its header claims within bounds. */
function checkInputImages(input: ImageBody, req: NormalizedImageRequest): void {
  input.imageFiles.forEach((file, i) => checkImageHeader(imageHead(file.chunks), `image[${i}]`))
  req.references.forEach((ref, i) => checkReferenceHeader(ref, `image[${input.imageFiles.length + i}]`))
  if (input.maskFile) checkImageHeader(imageHead(input.maskFile.chunks), 'mask')
  if (typeof req.mask === 'string') checkReferenceHeader(req.mask, 'mask')
}

/** The bytes a vendor needs: references resolved once, and the mask fitted to the first reference. */
function jobBuilder(ctx: RequestContext, services: Services, req: NormalizedImageRequest, input: ImageBody, fallback: boolean) {
  let withBytes: Promise<ImageJob> | undefined
  const build = async (): Promise<ImageJob> => {
    const images = await allReferenceBytes(services.http, input.imageFiles, req.references, ctx.abort.signal)
    const maskImage = input.maskFile ?? (typeof req.mask === 'string' ? await referenceBytes(services.http, req.mask, 0, 'mask', ctx.abort.signal) : undefined)
    if (maskImage === undefined) return { req, images }
    if (images.length === 0) throw gatewayError('invalid_request', 'missing_field', { field: 'image' }, { param: 'image' })
    return { req, images, mask: (await fitMask(Buffer.concat(maskImage.chunks), images[0], ctx.abort.signal)).png }
  }
  // A fallback's JSON names its own model; a multipart body goes as sent.
  const body = fallback && !input.multipart ? Buffer.from(JSON.stringify(input.body)) : ctx.body
  const original = { path: ctx.path, contentType: String(ctx.req.headers['content-type'] ?? 'application/json'), body }
  // A vendor that takes references as links or data: URLs gets the file parts as data: URLs, before the JSON ones:
  // a multipart edit reaches it with its references, like a JSON edit.
  let withUrls: ImageJob | undefined
  const inline = (): ImageJob => (withUrls ??= {
    req: input.imageFiles.length === 0 ? req : { ...req, references: [...fileDataUrls(input.imageFiles), ...req.references] },
    images: [],
    original,
  })
  return (adapter: ImageAdapter): Promise<ImageJob> => (adapter.needsBytes ? (withBytes ??= build()) : Promise.resolve(inline()))
}

/** The images endpoints' admission: the model named (400) before it is resolved, then the family's rules and the images' headers. */
function imagesAdmission(endpoint: ImageEndpoint): AdmissionSpec<ImageBody, NormalizedImageRequest, void> {
  return {
    endpoint: endpoint === 'edits' ? 'images.edits' : 'images.generations',
    capability: 'images',
    read: (ctx) => {
      // Spec §4.2: the Gemini official-direct group has no edits endpoint (references go in the generations body).
      if (endpoint === 'edits' && ctx.group!.options.officialDirect) throw gatewayError('route_not_found', 'route_not_in_group', { path: ctx.path })
      return readImageBody(ctx, endpoint)
    },
    validate: ({ body }) => (typeof body.model !== 'string' || body.model === '' ? gatewayError('invalid_request', 'missing_field', { field: 'model' }, { param: 'model' }) : undefined),
    modelOf: ({ body }) => body.model,
    withModel: (input, model) => ({ ...input, body: { ...input.body, model } }),
    rules: (input, model, ctx) => {
      const group = ctx.group!
      const req = checkImageRequest(input.body, model, {
        endpoint,
        async: /\brespond-async\b/i.test(String(ctx.req.headers.prefer ?? '')),
        multipart: input.multipart,
        imageFiles: input.imageFiles.length,
        imageFileBytes: input.imageFiles.map((f) => f.size),
        maskFile: input.maskFile !== undefined,
        singleImageGroup: group.options.singleImage === true,
        officialDirect: group.options.officialDirect === true,
      })
      checkInputImages(input, req)
      return req
    },
    // The worst case held is the quote's `max`.
    funds: holdWorstCase((req, model, ctx) => IMAGE_QUOTES[endpoint].price(req, model, ctx)),
  }
}

const ADMISSION = { generations: imagesAdmission('generations'), edits: imagesAdmission('edits') }

/**
 * What images cost: per image, `n` at the request's tier (exactly what the call is billed when all are made); a
 * token-priced model: the prompt, and `n` images at the size and quality asked for (billing/quote-price.ts).
 */
function imagesQuote(endpoint: ImageEndpoint): Quotable<NormalizedImageRequest> {
  return {
    admission: ADMISSION[endpoint],
    price: async (req, model, ctx) => model.pricing.unit === 'token'
      ? imageTokenQuote(model, req, ctx.abort)
      : usageQuote(model, perImageUsage(req.n, req.tier), { images: req.n, ...(req.tier !== undefined ? { tier: req.tier } : {}) }),
  }
}

export const IMAGE_QUOTES = { generations: imagesQuote('generations'), edits: imagesQuote('edits') }

async function handleImages(ctx: RequestContext, services: Services, endpoint: ImageEndpoint): Promise<void> {
  const spec = ADMISSION[endpoint]
  const admitted = await admit(ctx, services, spec)
  await serveWithFallbacks(ctx, services, spec, admitted, (served) => serveImages(ctx, services, endpoint, served, !served.asSent))
}

/** One model's try: a task (202), or the images made through the model's accounts, billed at its price. */
async function serveImages(ctx: RequestContext, services: Services, endpoint: ImageEndpoint, { input, request: req, model, candidates }: Admitted<ImageBody, NormalizedImageRequest, void>, fallback: boolean): Promise<void> {
  const job = jobBuilder(ctx, services, req, input, fallback)
  // The request log names the account a failure came from (the app shows it next to the error).
  const run = (signal: AbortSignal, onAccount: (id: string) => void = (id) => void (ctx.outcome.upstreamId = id)) => runImages(services.http, candidates, model, job, signal, onAccount, requestRun(ctx, services.routing, model.id))

  if (req.async) {
    const task = await startImageTask(ctx, services, model, req, `images.${endpoint}`, run)
    sendJson(ctx.res, 202, { task_id: task.id, status_url: `/v1/images/tasks?task_id=${task.id}`, status: task.status })
    return
  }
  const stream = req.stream ? startImageStream(ctx) : undefined
  try {
    const { outcome, upstreamId } = await run(ctx.abort.signal)
    ctx.outcome.upstreamId = upstreamId
    ctx.outcome.usage = await imageUsage(model, outcome, req)
    ctx.outcome.costNano = costNano(model, ctx.outcome.usage)
    const body = imagesBody(outcome)
    if (stream) stream.finish(body)
    else sendJson(ctx.res, 200, body)
    if (outcome.images.some((i) => i.url)) void saveLinkedImages(services, ctx.id, outcome.images, services.log)
  } finally {
    // A failure under way is the server's to log and render: an error event, the stream being open (respond.ts).
    stream?.stop()
  }
}

/** POST /v1/images/generations (spec §4.2). */
export const imageGenerations = (ctx: RequestContext, services: Services) => handleImages(ctx, services, 'generations')

/** POST /v1/images/edits (spec §4.2). */
export const imageEdits = (ctx: RequestContext, services: Services) => handleImages(ctx, services, 'edits')

/** GET /v1/images/tasks?task_id=: a task of the calling key; polling holds no concurrency slot (spec §4.3). */
export async function imageTask(ctx: RequestContext, services: Services): Promise<void> {
  const id = new URLSearchParams((ctx.req.url ?? '').split('?')[1] ?? '').get('task_id')
  if (!id) throw gatewayError('invalid_request', 'missing_field', { field: 'task_id' }, { param: 'task_id' })
  const task = await services.store.tasks.get(id)
  if (!task || task.kind !== 'image' || task.key_id !== ctx.key!.id) throw gatewayError('task_not_found', 'task_not_found', { id })
  sendJson(ctx.res, 200, taskView(task, ctx.redact))
}
