import { createHash } from 'node:crypto'
import type { CatalogModel } from '../../../shared/types.js'
import { gatewayError } from '../errors.js'
import type { VideoSubmission } from '../upstreams/video/index.js'

type Json = Record<string, unknown>
type Image = NonNullable<VideoSubmission['images']>[number]

/** A validated video request: the submission the adapters take, and the tier it is priced and checked at. */
export interface VideoOrder {
  sub: VideoSubmission
  /** the requested output tier, lower-case (`720p`); undefined: the vendor's default */
  resolution?: string
}

/** Fields of POST /v1/video/generate that the gateway reads; every other field is forwarded (spec §1). */
const GENERATE_FIELDS = new Set(['model', 'prompt', 'images', 'first_frame', 'last_frame', 'reference_images', 'duration', 'resolution', 'aspect_ratio', 'seed'])

const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined)
const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined)
const obj = (v: unknown): Json | undefined => (v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Json) : undefined)

/** The body of POST /v1/video/generate (already schema-checked) as an order. */
export function generateOrder(body: Json): VideoOrder {
  const images: Image[] = []
  for (const image of (body.images as Image[] | undefined) ?? []) images.push({ url: image.url, role: image.role })
  if (str(body.first_frame)) images.push({ url: body.first_frame as string, role: 'first_frame' })
  if (str(body.last_frame)) images.push({ url: body.last_frame as string, role: 'last_frame' })
  for (const url of (body.reference_images as string[] | undefined) ?? []) images.push({ url, role: 'reference' })
  const extra = Object.fromEntries(Object.entries(body).filter(([k]) => !GENERATE_FIELDS.has(k)))
  const resolution = str(body.resolution)?.toLowerCase()
  return {
    sub: stripUndefined({
      model: body.model as string, prompt: str(body.prompt), images: images.length > 0 ? images : undefined,
      duration: num(body.duration), resolution, aspect_ratio: str(body.aspect_ratio), seed: num(body.seed), extra,
    }),
    resolution,
  }
}

const NATIVE_ROLE: Record<string, Image['role']> = { first_frame: 'first_frame', last_frame: 'last_frame', reference_image: 'reference' }

/**
 * DashScope's native body (already schema-checked) as an order. The pictures, prompt and the priced parameters
 * become submission fields; everything else stays in `input` / `parameters` for the Wan adapter to send as it came.
 * `size: "1280*720"` (older models) is kept as sent and priced by its short side.
 */
export function nativeOrder(body: Json): VideoOrder {
  const { model, input, parameters, ...top } = body
  const { prompt, img_url, first_frame_url, last_frame_url, media, ...restInput } = obj(input) ?? {}
  const { resolution, duration, ratio, seed, ...restParameters } = obj(parameters) ?? {}
  const images: Image[] = []
  if (str(img_url)) images.push({ url: img_url as string, role: 'first_frame' })
  if (str(first_frame_url)) images.push({ url: first_frame_url as string, role: 'first_frame' })
  if (str(last_frame_url)) images.push({ url: last_frame_url as string, role: 'last_frame' })
  // HappyHorse-style `media[]`: the adapter rebuilds it from the roles.
  for (const item of (media as Array<{ type: string; url: string }> | undefined) ?? []) images.push({ url: item.url, role: NATIVE_ROLE[item.type] })
  const tier = str(resolution)?.toLowerCase() ?? tierOfSize(str(restParameters.size))
  const extra: Json = { ...top }
  if (Object.keys(restInput).length > 0) extra.input = restInput
  if (Object.keys(restParameters).length > 0) extra.parameters = restParameters
  return {
    sub: stripUndefined({
      model: model as string, prompt: str(prompt), images: images.length > 0 ? images : undefined, duration: num(duration),
      resolution: str(resolution)?.toLowerCase(), aspect_ratio: str(ratio), seed: num(seed), extra,
    }),
    resolution: tier,
  }
}

/** `1280*720` → `720p` (the short side names the tier). */
function tierOfSize(size: string | undefined): string | undefined {
  if (size === undefined) return undefined
  const [w, h] = size.split('*').map(Number)
  return `${Math.min(w, h)}p`
}

function stripUndefined(sub: VideoSubmission): VideoSubmission {
  for (const key of Object.keys(sub) as Array<keyof VideoSubmission>) if (sub[key] === undefined) delete sub[key]
  return sub
}

// --- catalog checks: 400 before any reservation or upstream call (spec §7 rule 6) ----------------------------------

const strings = (m: CatalogModel, key: string): string[] | undefined =>
  Array.isArray(m[key]) ? (m[key] as unknown[]).filter((v): v is string => typeof v === 'string') : undefined
const numbers = (m: CatalogModel, key: string): number[] | undefined =>
  Array.isArray(m[key]) ? (m[key] as unknown[]).filter((v): v is number => typeof v === 'number') : undefined

function unsupported(field: string, value: string | number, model: CatalogModel, allowed: Array<string | number>) {
  return gatewayError('invalid_request', 'video_value_unsupported', { field, value, model: model.id, allowed: allowed.join(', ') }, { param: field })
}

const isImageUrl = (url: string): boolean => /^https?:\/\/\S+$/i.test(url) || /^data:image\/[\w.+-]+;base64,/i.test(url)

/** The mode a submission asks for, in the catalog's words. */
function modeOf(sub: VideoSubmission): string {
  const roles = new Set((sub.images ?? []).map((i) => i.role))
  if (roles.has('reference')) return 'reference'
  if (roles.has('last_frame')) return 'first-last-frame'
  return roles.has('first_frame') ? 'i2v' : 't2v'
}

/** Checks an order against the model's catalog entry, where the entry says anything (data first, STYLE §4). */
export function checkOrder(order: VideoOrder, model: CatalogModel, imageField: string): void {
  const { sub } = order
  if (sub.prompt === undefined && sub.images === undefined) throw gatewayError('invalid_request', 'video_input_missing', {}, { param: 'prompt' })
  const bad = sub.images?.find((i) => !isImageUrl(i.url))
  if (bad) throw gatewayError('invalid_request', 'image_reference_invalid', { field: imageField }, { param: imageField })
  const modes = strings(model, 'modes')
  const mode = modeOf(sub)
  if (modes && !modes.includes(mode)) throw gatewayError('invalid_request', 'video_mode_unsupported', { model: model.id, mode, allowed: modes.join(', ') }, { param: imageField })
  const references = (sub.images ?? []).filter((i) => i.role === 'reference').length
  const maxReferences = typeof model.maxReferenceImages === 'number' ? model.maxReferenceImages : undefined
  if (maxReferences !== undefined && references > maxReferences) {
    throw gatewayError('invalid_request', 'image_references_too_many', { model: model.id, count: references, max: maxReferences }, { param: imageField })
  }
  const resolutions = strings(model, 'resolutions')
  if (order.resolution !== undefined && resolutions && !resolutions.includes(order.resolution)) throw unsupported('resolution', order.resolution, model, resolutions)
  const ratios = strings(model, 'aspectRatios')
  if (sub.aspect_ratio !== undefined && ratios && !ratios.includes(sub.aspect_ratio)) throw unsupported('aspect_ratio', sub.aspect_ratio, model, ratios)
  checkDuration(order, model)
}

function checkDuration(order: VideoOrder, model: CatalogModel): void {
  const duration = order.sub.duration
  if (duration === undefined) return
  const durations = numbers(model, 'durations')
  if (durations && !durations.includes(duration)) throw unsupported('duration', duration, model, durations)
  const max = longestClip(model, order.resolution)
  if (max !== undefined && duration > max) {
    throw gatewayError('invalid_request', 'video_duration_too_long', { value: duration, model: model.id, max }, { param: 'duration' })
  }
}

/** The longest clip the model makes (at the tier, where the catalog caps a tier lower), or undefined when unknown. */
export function longestClip(model: CatalogModel, resolution: string | undefined): number | undefined {
  const byTier = obj(model.maxDurationByResolution)
  const tierCap = resolution !== undefined ? num(byTier?.[resolution]) : undefined
  const durations = numbers(model, 'durations')
  const max = num(model.maxDurationSeconds) ?? (durations?.length ? Math.max(...durations) : undefined)
  return tierCap !== undefined && (max === undefined || tierCap < max) ? tierCap : max
}

/** The shortest clip the model makes, or undefined when the catalog does not say. */
export function shortestClip(model: CatalogModel): number | undefined {
  const durations = numbers(model, 'durations')
  return durations?.length ? Math.min(...durations) : undefined
}

// --- the duplicate guard's identity of a submission ---------------------------------------------------------------

/** JSON with object keys sorted at every depth, so that field order does not change the hash. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Json).filter(([, v]) => v !== undefined).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`
  }
  return JSON.stringify(value) ?? 'null'
}

/** sha256 of the endpoint and the normalized submission: two bodies that ask for the same video hash alike. */
export function submissionHash(endpoint: string, order: VideoOrder): string {
  const { original: _bytes, ...sub } = order.sub // the request as sent: two spellings of one video hash alike
  return createHash('sha256').update(endpoint).update('\u0000').update(canonicalJson({ ...sub, tier: order.resolution })).digest('hex')
}
