/**
 * Media inside a JSON body (a kept request or answer): images and audio as `data:` URLs or as base64 fields
 * (`b64_json`, Anthropic's and Gemini's `data`, OpenAI's `input_audio.data`, …), each replaced by its size, type and
 * SHA-256, so a kept body holds what was asked and answered without the pictures and sounds themselves.
 */
import { createHash } from 'node:crypto'
import type { StrippedMedia } from '../../../shared/admin.js'
import { dataUrlBytes, parseDataUrl } from './data-url.js'
import { sniffRaster, sniffVideo } from './media-sniff.js'

/** Fields whose base64 text is media in the protocols the gateway speaks. */
const MEDIA_FIELDS = new Set(['b64_json', 'data', 'image', 'audio', 'bytesBase64Encoded', 'base64', 'partial_image_b64', 'b64', 'result'])
/** Fields naming the media type beside a base64 field (Anthropic `media_type`, Gemini `mimeType`, OpenAI `format`). */
const TYPE_FIELDS = ['media_type', 'mime_type', 'mimeType', 'format', 'output_format']
/** Shorter base64 than this is left as it is: no picture or sound fits, and ids and hashes look alike. */
const MIN_MEDIA_CHARS = 64
const BASE64 = /^[A-Za-z0-9+/_-]+={0,2}$/

const described = (bytes: Buffer, claimed: string | undefined): StrippedMedia => ({
  stripped: 'media',
  type: sniffRaster(bytes) ?? sniffVideo(bytes) ?? claimed ?? 'application/octet-stream',
  bytes: bytes.length,
  sha256: createHash('sha256').update(bytes).digest('hex'),
})

/** A string that is media: described; undefined when it is text. */
function mediaOf(value: string, field: string | undefined, parent: Record<string, unknown> | undefined): StrippedMedia | undefined {
  const url = parseDataUrl(value)
  if (url !== undefined) return url.base64 ? described(dataUrlBytes(url).bytes, url.mimeType || undefined) : undefined
  if (field === undefined || !MEDIA_FIELDS.has(field) || value.length < MIN_MEDIA_CHARS || !BASE64.test(value)) return undefined
  const claimed = TYPE_FIELDS.map((f) => parent?.[f]).find((t): t is string => typeof t === 'string')
  return described(Buffer.from(value, 'base64'), claimed)
}

/** The value with every piece of media described instead (a new value; the input is not changed); `text` passes every other string. */
export function stripMedia(value: unknown, text: (s: string) => string = (s) => s, field?: string, parent?: Record<string, unknown>): unknown {
  if (typeof value === 'string') return mediaOf(value, field, parent) ?? text(value)
  if (Array.isArray(value)) return value.map((item) => stripMedia(item, text, field, parent))
  if (value === null || typeof value !== 'object') return value
  const record = value as Record<string, unknown>
  return Object.fromEntries(Object.entries(record).map(([k, v]) => [k, stripMedia(v, text, k, record)]))
}

/** Every string of the value through `text` (media kept). */
export function mapStrings(value: unknown, text: (s: string) => string): unknown {
  if (typeof value === 'string') return text(value)
  if (Array.isArray(value)) return value.map((item) => mapStrings(item, text))
  if (value === null || typeof value !== 'object') return value
  return Object.fromEntries(Object.entries(value as Record<string, unknown>).map(([k, v]) => [k, mapStrings(v, text)]))
}
