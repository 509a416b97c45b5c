/**
 * How a continuation's frames join the client's one stream (relay/continuation.ts), per protocol: what of the
 * continuation's opening is left out (the client's stream, message and block are already open), and the usage the
 * client reads at the end carrying the sum of every attempt's.
 */
import type { TokenUsage } from '../contract/upstream.js'
import { allInputTokens } from '../money/billed-usage.js'

/** A continuation's frames of one protocol as the client's one stream needs them. */
interface FrameRules {
  /** the frame carries the usage the client reads at the end (it then carries the sum of every attempt's) */
  isUsage(frame: string): boolean
  /** the frame as the client's stream needs it ('' to leave it out); `text` edits the answer's text in it */
  merged(frame: string, before: TokenUsage | undefined, text: (piece: string) => string): string
}

/** The frames of one continuation on their way to the client: its answer's leading whitespace left out when asked. */
export class Merge {
  /** characters of the continuation's text left out (its leading whitespace, when the prefix went trimmed) */
  dropped = 0
  #before: TokenUsage | undefined
  #leading: boolean

  readonly #rules: FrameRules

  constructor(protocol: 'chat' | 'messages', trimLead: boolean) {
    this.#rules = protocol === 'messages' ? MESSAGES_FRAMES : CHAT_FRAMES
    this.#leading = trimLead
  }

  async all(frames: string[], sumBefore: () => Promise<TokenUsage>): Promise<string> {
    if (frames.some((f) => this.#rules.isUsage(f))) this.#before ??= await sumBefore()
    return frames.map((f) => this.#rules.merged(f, this.#before, (piece) => this.#text(piece))).join('')
  }

  #text(piece: string): string {
    if (!this.#leading) return piece
    const kept = piece.replace(/^\s+/, '')
    this.dropped += piece.length - kept.length
    if (kept !== '') this.#leading = false
    return kept
  }
}

/** A frame's JSON payload (`data: {...}`, after an optional `event:` line), or undefined. */
function payloadOf(frame: string): { head: string; data: Record<string, unknown> } | undefined {
  const at = frame.startsWith('data: {') ? 0 : frame.indexOf('\ndata: {') + 1
  if (at <= 0 && !frame.startsWith('data: {')) return undefined
  try {
    return { head: frame.slice(0, at), data: JSON.parse(frame.slice(at + 6)) as Record<string, unknown> }
  } catch {
    return undefined
  }
}
const frameOf = (head: string, data: unknown) => `${head}data: ${JSON.stringify(data)}\n\n`

/**
 * Chat completions: the continuation's opening role-only chunk left out (the stream already opened), and its usage
 * chunk carrying the sum of every attempt's usage (`before` + its own).
 */
const CHAT_FRAMES: FrameRules = {
  isUsage: (frame) => frame.startsWith('data: {') && frame.includes('"usage":{'),
  merged(frame, before, text) {
    const payload = payloadOf(frame)
    if (payload === undefined) return frame
    const chunk = payload.data as { choices?: Array<{ delta?: Record<string, unknown>; finish_reason?: unknown }>; usage?: Record<string, unknown> | null }
    const choices = Array.isArray(chunk.choices) ? chunk.choices : []
    const roleOnly = choices.length > 0 && choices.every((c) => !c.finish_reason && Object.entries(c.delta ?? {}).every(([k, v]) => k === 'role' || v === '' || v === null))
    if (roleOnly) return ''
    let changed = false
    for (const choice of choices) {
      const content = choice.delta?.content
      if (typeof content !== 'string') continue
      const kept = text(content)
      if (kept !== content) {
        choice.delta!.content = kept
        changed = true
      }
    }
    if (chunk.usage && before !== undefined) {
      const own = chunk.usage as { prompt_tokens?: number; completion_tokens?: number }
      const prompt = allInputTokens(before) + (own.prompt_tokens ?? 0)
      const completion = before.outputTokens + (own.completion_tokens ?? 0)
      chunk.usage = { ...chunk.usage, prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion }
      changed = true
    }
    return changed ? frameOf(payload.head, chunk) : frame
  },
}

/**
 * Messages: the continuation's `message_start` and the start of its first (text) block left out, since the client's
 * message and that block are open; its deltas continue that block; its `message_delta` carries the sum of every
 * attempt's output (and input, where it reports one); its `message_stop` ends the client's message.
 */
const MESSAGES_FRAMES: FrameRules = {
  isUsage: (frame) => frame.includes('"type":"message_delta"'),
  merged(frame, before, text) {
    const payload = payloadOf(frame)
    if (payload === undefined) return frame
    const event = payload.data as { type?: string; index?: number; delta?: { type?: string; text?: string }; usage?: Record<string, unknown> }
    switch (event.type) {
      case 'message_start': return ''
      case 'content_block_start': return event.index === 0 ? '' : frame
      case 'content_block_delta': {
        if (event.index !== 0 || typeof event.delta?.text !== 'string') return frame
        const kept = text(event.delta.text)
        return kept === event.delta.text ? frame : frameOf(payload.head, { ...event, delta: { ...event.delta, text: kept } })
      }
      case 'message_delta': {
        if (before === undefined || event.usage === undefined) return frame
        const own = event.usage as { input_tokens?: number; output_tokens?: number }
        const usage: Record<string, unknown> = { ...event.usage, output_tokens: before.outputTokens + (own.output_tokens ?? 0) }
        if (typeof own.input_tokens === 'number') usage.input_tokens = before.inputTokens + own.input_tokens
        return frameOf(payload.head, { ...event, usage })
      }
      default: return frame
    }
  },
}
