/**
 * What the inspector shows of a kept exchange (GET /admin/v1/requests/{id}/body), worked out without React: a chat
 * request as messages, an answer's text (a JSON answer's, or a stream's deltas joined), its images, and the diff of
 * two answers' text (jsdiff, word by word).
 */
import { diffWordsWithSpace } from 'diff'
import type { CapturedExchange, StrippedMedia } from '../../../shared/admin'

export interface ShownMessage {
  role: string
  text: string
  /** data URLs or links, shown as thumbnails */
  images: string[]
  /** media that was not kept: its type, size and hash */
  stripped: StrippedMedia[]
}

const isRecord = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v)
const isStripped = (v: unknown): v is StrippedMedia => isRecord(v) && v.stripped === 'media'

/** One message's content (a string, or parts in the chat, messages or responses shape) as text, images and media left out. */
function contentOf(content: unknown, into: ShownMessage): void {
  if (typeof content === 'string') return void (into.text += content)
  if (!Array.isArray(content)) return
  for (const part of content) {
    if (!isRecord(part)) continue
    if (typeof part.text === 'string') into.text += (into.text ? '\n' : '') + part.text
    const image = isRecord(part.image_url) ? part.image_url.url : part.image_url ?? (isRecord(part.source) ? (part.source.data ?? part.source.url) : undefined)
    if (isStripped(image)) into.stripped.push(image)
    else if (typeof image === 'string') into.images.push(isRecord(part.source) && part.source.type === 'base64' ? `data:${String(part.source.media_type)};base64,${image}` : image)
  }
}

/** A chat request's messages (chat completions, Anthropic messages with its system, responses' input); [] for other bodies. */
export function requestMessages(body: unknown): ShownMessage[] {
  if (!isRecord(body)) return []
  const out: ShownMessage[] = []
  const add = (role: string, content: unknown) => {
    const m: ShownMessage = { role, text: '', images: [], stripped: [] }
    contentOf(content, m)
    out.push(m)
  }
  if (body.system !== undefined) add('system', body.system)
  if (typeof body.instructions === 'string') add('system', body.instructions)
  const list = Array.isArray(body.messages) ? body.messages : Array.isArray(body.input) ? body.input : typeof body.input === 'string' ? [{ role: 'user', content: body.input }] : []
  for (const m of list) if (isRecord(m)) add(typeof m.role === 'string' ? m.role : 'user', m.content)
  if (typeof body.prompt === 'string') add('user', body.prompt)
  return out
}

/** The text a delta or a whole answer carries (chat choices, Anthropic content blocks and deltas, responses output). */
function textOf(value: unknown): string {
  if (!isRecord(value)) return ''
  const choices = Array.isArray(value.choices) ? value.choices : []
  let text = choices.map((c) => (isRecord(c) ? (isRecord(c.message) ? c.message.content : isRecord(c.delta) ? c.delta.content : undefined) : undefined)).filter((t): t is string => typeof t === 'string').join('')
  if (Array.isArray(value.content)) text += value.content.map((b) => (isRecord(b) && typeof b.text === 'string' ? b.text : '')).join('')
  if (isRecord(value.delta) && typeof value.delta.text === 'string') text += value.delta.text
  if (value.type === 'response.output_text.delta' && typeof value.delta === 'string') text += value.delta
  if (typeof value.output_text === 'string') text += value.output_text
  return text
}

/** The answer's text: a JSON answer's, or every event's delta in order. */
export function answerText(answer: CapturedExchange['answer']): string {
  if (answer.kind === 'sse') return (answer.events ?? []).map((e) => textOf(e.data)).join('')
  return textOf(answer.body)
}

/** Images in an image answer (`data[].url`, `data[].b64_json`), and the media not kept. */
export function answerImages(answer: CapturedExchange['answer']): { images: string[]; stripped: StrippedMedia[] } {
  const images: string[] = []
  const stripped: StrippedMedia[] = []
  const body = answer.body
  const data = isRecord(body) && Array.isArray(body.data) ? body.data : []
  for (const d of data) {
    if (!isRecord(d)) continue
    if (typeof d.url === 'string') images.push(d.url)
    if (typeof d.b64_json === 'string') images.push(`data:image/png;base64,${d.b64_json}`)
    if (isStripped(d.b64_json)) stripped.push(d.b64_json)
  }
  return { images, stripped }
}

export interface DiffPart {
  text: string
  kind: 'same' | 'added' | 'removed'
}

/** Two answers' text, word by word: what the second removed and added. */
export function textDiff(before: string, after: string): DiffPart[] {
  return diffWordsWithSpace(before, after).map((c) => ({ text: c.value, kind: c.added ? 'added' : c.removed ? 'removed' : 'same' }))
}
