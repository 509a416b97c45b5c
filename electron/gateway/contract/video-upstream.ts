import type { GatewayError } from '../errors.js'
import type { HttpSpec } from './http-spec.js'
import type { OriginalRequest, UpstreamCtx } from './upstream.js'

/** One video submission, the same for every family (the gateway's POST /v1/video/generate body, validated). */
export interface VideoSubmission {
  model: string                 // catalog id
  prompt?: string
  images?: Array<{ url: string; role: 'first_frame' | 'last_frame' | 'reference' }>   // http(s) or data URLs
  duration?: number             // seconds
  resolution?: string           // e.g. '720p', '1080p'
  aspect_ratio?: string         // e.g. '16:9'
  seed?: number
  extra: Record<string, unknown> // unknown fields, forwarded to the vendor body unchanged
  original?: OriginalRequest     // the client's request, for an upstream gateway that takes it unchanged
}
export type VideoState = 'queued' | 'running' | 'succeeded' | 'failed' | 'canceled'
export type VideoPoll =
  | { state: 'queued' | 'running'; progress?: number /* 0..100 */; vendorState: string }
  | { state: 'succeeded'; videoUrls: string[]; seconds?: number /* produced, for billing */; vendorState: string; fileId?: string /* MiniMax: needs the file step */ }
  | { state: 'failed' | 'canceled'; error: { code: string; message: string }; vendorState: string }
export interface VideoAdapter {
  toStart(sub: VideoSubmission, ctx: UpstreamCtx, now: number /* unix seconds, for JWTs */): HttpSpec
  /**
   * The task id to poll with, from the create answer; throws a GatewayError for an error envelope returned with HTTP 200.
   * `sub` is the submission that `toStart` sent: Kling polls under the create call's path (text2video or image2video),
   * which its create answer does not name, so its task id carries that path. Callers store the id as given.
   */
  fromStart(body: unknown, sub: VideoSubmission): string
  toPoll(taskId: string, ctx: UpstreamCtx, now: number): HttpSpec
  fromPoll(body: unknown): VideoPoll
  /** MiniMax only: the file-retrieve call that turns a file id into a download URL */
  toFile?(fileId: string, ctx: UpstreamCtx, now: number): HttpSpec
  fromFile?(body: unknown): string
  fromError(status: number, text: string): GatewayError
}
