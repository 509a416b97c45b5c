import { GatewayError } from '../../errors.js'
import type { HttpSpec } from '../../contract/http-spec.js'
import type { VideoPoll, VideoSubmission } from '../../contract/video-upstream.js'

/** Helpers shared by the video adapters: body access, request building, error and status shapes. */

export type Json = Record<string, unknown>
type ImageRole = NonNullable<VideoSubmission['images']>[number]['role']

export const asObject = (v: unknown): Json | undefined =>
  v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Json) : undefined
export const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined)
/** Numbers, and numeric strings: Kling reports `duration: "5.1"`, MiniMax file ids come as both. */
export function num(v: unknown): number | undefined {
  if (typeof v === 'number') return Number.isFinite(v) ? v : undefined
  if (typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v))) return Number(v)
  return undefined
}
/** A vendor id as a string, whether sent as a number or a string. */
export const idOf = (v: unknown): string | undefined => (typeof v === 'number' && Number.isFinite(v) ? String(v) : str(v))

export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text)
  } catch {
    return undefined
  }
}

/**
 * The vendor body: unknown client fields first, then ours, so that an explicit gateway field
 * (resolution, duration …) wins over a vendor-native duplicate; undefined values are left out.
 */
export function withExtra(extra: Json, ours: Json): Json {
  const body: Json = { ...extra }
  for (const [k, v] of Object.entries(ours)) if (v !== undefined) body[k] = v
  return body
}

export const bearer = (key: string): Record<string, string> => ({ authorization: `Bearer ${key}` })

export function jsonPost(url: string, headers: Record<string, string>, body: Json): HttpSpec {
  return { method: 'POST', url, headers: { ...headers, 'content-type': 'application/json', accept: 'application/json' }, body: JSON.stringify(body) }
}

export const jsonGet = (url: string, headers: Record<string, string>): HttpSpec =>
  ({ method: 'GET', url, headers: { ...headers, accept: 'application/json' } })

export { upstreamModel } from '../model-id.js'

/** Base URL without a trailing version segment, for vendors whose paths carry their own (`/v1/...`). */
export const hostRoot = (baseUrl: string, suffix: RegExp): string => baseUrl.replace(/\/+$/, '').replace(suffix, '')

/** `720p` → `720P`, `2k` → `2K`: MiniMax and DashScope spell tiers upper-case on the wire. */
export const upperTier = (resolution: string | undefined): string | undefined => resolution?.toUpperCase()

/** An answer that cannot be read (no task id, not JSON): 502, like any broken upstream. */
export const malformed = (detail: string): GatewayError =>
  new GatewayError('upstream_error', { text: `the video upstream answered unexpectedly: ${detail}` })

/** A submission the vendor's wire format cannot express (e.g. a last frame on a first-frame-only API). */
export const unsupported = (message: string): GatewayError =>
  new GatewayError('invalid_request', { text: message }, { param: 'images' })

export function imagesOf(sub: VideoSubmission, role: ImageRole): string[] {
  return (sub.images ?? []).filter((i) => i.role === role).map((i) => i.url)
}

/** Throws 400 when the submission carries an image role the vendor has no field for. */
export function onlyRoles(sub: VideoSubmission, allowed: readonly ImageRole[], vendor: string): void {
  const bad = (sub.images ?? []).find((i) => !allowed.includes(i.role))
  if (bad) throw unsupported(`${vendor} video does not accept images with role ${bad.role}`)
}

// --- poll results -------------------------------------------------------------------------------

export const inFlight = (state: 'queued' | 'running', vendorState: string, progress?: number): VideoPoll =>
  progress === undefined ? { state, vendorState } : { state, vendorState, progress: Math.max(0, Math.min(100, progress)) }

export const failedPoll = (vendorState: string, code: string, message: string, state: 'failed' | 'canceled' = 'failed'): VideoPoll =>
  ({ state, vendorState, error: { code, message } })

/**
 * A finished task. One that reports success but carries no video (moderation withheld it, a vendor bug)
 * is a failure: nothing to deliver means nothing to bill.
 */
export function succeededPoll(vendorState: string, videoUrls: string[], seconds?: number, fileId?: string): VideoPoll {
  if (videoUrls.length === 0 && fileId === undefined) return failedPoll(vendorState, 'empty_output', 'the task succeeded without a video')
  const poll: VideoPoll = { state: 'succeeded', vendorState, videoUrls }
  if (seconds !== undefined && seconds > 0) poll.seconds = seconds
  if (fileId !== undefined) poll.fileId = fileId
  return poll
}

/** A word the adapter does not know: not a failure, the task is still taken as running (and the word kept to log). */
export const unknownWord = (vendorState: string): VideoPoll => ({ state: 'running', vendorState })
