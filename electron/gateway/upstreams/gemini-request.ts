import { dataUrlBytes, parseDataUrl } from '../formats/data-url.js'
import { gatewayError } from '../errors.js'
import type { HttpSpec } from '../contract/http-spec.js'
import { exceedsJsonDepth } from '../guards/json-depth.js'
import { functionCallingConfig, functionDeclarations, generationConfig } from './gemini-config.js'
import { decodeToolCallId } from './gemini-tool-ids.js'
import type { UpstreamCtx } from '../contract/upstream.js'
import { upstreamModel } from './model-id.js'

/**
 * An OpenAI chat-completions body (already validated by shared/schemas/chat.ts) as a Gemini
 * `generateContent` request, following the Gemini row of spec §4.1.
 * @see ../../../docs/vendors/gemini.md
 */

export interface GeminiPart {
  text?: string
  thought?: boolean
  thoughtSignature?: string
  inlineData?: { mimeType: string; data: string }
  functionCall?: { id?: string; name: string; args: Record<string, unknown> }
  functionResponse?: { id?: string; name: string; response: Record<string, unknown> }
}

export interface GeminiContent {
  role: 'user' | 'model'
  parts: GeminiPart[]
}

/**
 * Google's documented placeholder signature for function calls the model did not sign (history
 * from another model or client that lost the signature); Gemini 3 answers 400 without one.
 */
export const SKIP_SIGNATURE = 'skip_thought_signature_validator'

type Obj = Record<string, unknown>

export function toGeminiRequest(body: Obj, { upstream, model }: UpstreamCtx): HttpSpec {
  const stream = body.stream === true
  const modelId = upstreamModel({ model, upstream })
  const method = stream ? 'streamGenerateContent?alt=sse' : 'generateContent'
  return {
    method: 'POST',
    url: `${upstream.baseUrl.replace(/\/+$/, '')}/v1beta/models/${encodeURIComponent(modelId)}:${method}`,
    headers: {
      'x-goog-api-key': upstream.apiKey,
      'content-type': 'application/json',
      accept: stream ? 'text/event-stream' : 'application/json',
    },
    body: JSON.stringify(geminiBody(body, modelId)),
  }
}

export function geminiBody(body: Obj, modelId: string): Obj {
  const { system, contents } = translateMessages(Array.isArray(body.messages) ? body.messages : [], modelId)
  if (contents.length === 0) throw gatewayError('invalid_request', 'gemini_no_usable_content', {}, { param: 'messages' })
  const out: Obj = { contents }
  if (system.length > 0) out.systemInstruction = { parts: system }
  const declarations = functionDeclarations(body.tools)
  if (declarations.length > 0) {
    out.tools = [{ functionDeclarations: declarations }]
    const toolConfig = functionCallingConfig(body.tool_choice)
    if (toolConfig) out.toolConfig = { functionCallingConfig: toolConfig }
  }
  const config = generationConfig(body)
  if (Object.keys(config).length > 0) out.generationConfig = config
  return out
}

/**
 * Role `tool` (spec: "sent as user text"): Gemini continues a tool loop only from `functionResponse`
 * parts paired with the model's `functionCall` parts, so a tool message whose tool_call_id matches a
 * call of an earlier assistant message becomes a `functionResponse` (in a user turn, as Gemini wants);
 * any other tool message is sent as user text, as the spec says.
 */
function translateMessages(messages: unknown[], modelId: string): { system: GeminiPart[]; contents: GeminiContent[] } {
  const system: GeminiPart[] = []
  const contents: GeminiContent[] = []
  const calls = new Map<string, { name: string; geminiId?: string }>()
  messages.forEach((raw, i) => {
    const m = (raw ?? {}) as Obj
    switch (m.role) {
      case 'system':
        system.push(...readParts(m.content, i, false))
        return
      case 'user':
        contents.push({ role: 'user', parts: readParts(m.content, i, true) })
        return
      case 'assistant':
        contents.push({ role: 'model', parts: assistantParts(m, i, calls) })
        return
      case 'tool': {
        const text = readParts(m.content, i, false).map((p) => p.text).join('')
        const call = typeof m.tool_call_id === 'string' ? calls.get(m.tool_call_id) : undefined
        if (call) {
          const functionResponse = { ...(call.geminiId ? { id: call.geminiId } : {}), name: call.name, response: toolResponse(text) }
          contents.push({ role: 'user', parts: [{ functionResponse }] })
        } else if (text !== '') {
          const label = typeof m.tool_call_id === 'string' ? ` (${m.tool_call_id})` : ''
          contents.push({ role: 'user', parts: [{ text: `Tool result${label}:\n${text}` }] })
        }
        return
      }
    }
  })
  const merged = mergeTurns(contents)
  if (requiresSignatures(modelId)) signUnsignedSteps(merged)
  return { system, contents: merged }
}

function assistantParts(m: Obj, i: number, calls: Map<string, { name: string; geminiId?: string }>): GeminiPart[] {
  const parts = readParts(m.content, i, false)
  const textSignature = googleSignature(m)
  if (textSignature && parts.length > 0) parts[parts.length - 1].thoughtSignature = textSignature
  const toolCalls = Array.isArray(m.tool_calls) ? m.tool_calls : []
  toolCalls.forEach((raw, j) => {
    const call = (raw ?? {}) as Obj
    const fn = (call.function ?? {}) as Obj
    if (typeof fn.name !== 'string' || fn.name === '') return
    const carried = decodeToolCallId(call.id)
    const signature = googleSignature(call) ?? carried.signature
    const functionCall = { ...(carried.geminiId ? { id: carried.geminiId } : {}), name: fn.name, args: callArgs(fn.arguments, i, j) }
    parts.push(signature ? { functionCall, thoughtSignature: signature } : { functionCall })
    if (typeof call.id === 'string') calls.set(call.id, { name: fn.name, geminiId: carried.geminiId })
  })
  return parts
}

/** Google's OpenAI-compatibility field: `extra_content.google.thought_signature` (on a tool call or a message). */
function googleSignature(o: Obj): string | undefined {
  const google = ((o.extra_content ?? {}) as Obj).google as Obj | undefined
  const signature = google?.thought_signature
  return typeof signature === 'string' && signature !== '' ? signature : undefined
}

function callArgs(args: unknown, i: number, j: number): Record<string, unknown> {
  if (args === undefined || args === null || args === '') return {}
  let value: unknown = args
  if (typeof args === 'string') {
    try {
      // Text inside the body: the body's depth check did not see into it.
      value = exceedsJsonDepth(args) ? undefined : JSON.parse(args)
    } catch {
      value = undefined
    }
  }
  if (value && typeof value === 'object' && !Array.isArray(value)) return value as Record<string, unknown>
  const field = `messages[${i}].tool_calls[${j}].function.arguments`
  throw gatewayError('invalid_request', 'invalid_field', { field, detail: 'must be a JSON object' }, { param: field })
}

/** A JSON object result is passed as the response itself; anything else as `{output: text}` (Gemini's convention). */
function toolResponse(text: string): Record<string, unknown> {
  try {
    const value: unknown = exceedsJsonDepth(text) ? text : JSON.parse(text)
    if (value && typeof value === 'object' && !Array.isArray(value)) return value as Record<string, unknown>
  } catch {
    // plain text
  }
  return { output: text }
}

/** Only `text` and `image_url` parts are read; `input_audio`, `file`, `video_url` and others are dropped silently. */
function readParts(content: unknown, i: number, images: boolean): GeminiPart[] {
  if (typeof content === 'string') return content === '' ? [] : [{ text: content }]
  if (!Array.isArray(content)) return []
  const parts: GeminiPart[] = []
  content.forEach((raw, j) => {
    const part = (raw ?? {}) as Obj
    if (part.type === 'text' && typeof part.text === 'string' && part.text !== '') parts.push({ text: part.text })
    else if (part.type === 'image_url' && images) parts.push({ inlineData: dataUrl(((part.image_url ?? {}) as Obj).url, `messages[${i}].content[${j}].image_url`) })
  })
  return parts
}

function dataUrl(url: unknown, param: string): { mimeType: string; data: string } {
  const parsed = typeof url === 'string' ? parseDataUrl(url) : undefined
  if (typeof url !== 'string' || !/^\s*data:/i.test(url)) throw gatewayError('invalid_request', 'gemini_image_url_data_only', {}, { param })
  const invalid = (detail: string) => gatewayError('invalid_request', 'invalid_field', { field: `${param}.url`, detail }, { param })
  if (parsed === undefined) throw invalid('not a valid data URL')
  if (parsed.mimeType === '') throw invalid('the data URL has no MIME type')
  if (parsed.base64) {
    const data = parsed.payload.replace(/\s+/g, '')
    if (data === '' || !/^[A-Za-z0-9+/_-]+={0,2}$/.test(data)) throw invalid('the data URL has no valid base64 data')
    return { mimeType: parsed.mimeType, data }
  }
  if (parsed.payload === '') throw invalid('the data URL is empty')
  return { mimeType: parsed.mimeType, data: dataUrlBytes(parsed).bytes.toString('base64') }
}

/** Adjacent turns of one role become one content: parallel tool results must sit in one user turn. */
function mergeTurns(contents: GeminiContent[]): GeminiContent[] {
  const out: GeminiContent[] = []
  for (const c of contents) {
    if (c.parts.length === 0) continue
    const last = out[out.length - 1]
    if (last && last.role === c.role) last.parts.push(...c.parts)
    else out.push({ role: c.role, parts: [...c.parts] })
  }
  return out
}

/** Gemini 3 and later reject a model step whose first functionCall part has no thought signature. */
function requiresSignatures(modelId: string): boolean {
  const major = /^gemini-(\d+)/.exec(modelId)
  return major !== null && Number(major[1]) >= 3
}

function signUnsignedSteps(contents: GeminiContent[]): void {
  for (const c of contents) {
    if (c.role !== 'model') continue
    const first = c.parts.find((p) => p.functionCall)
    if (first && !first.thoughtSignature) first.thoughtSignature = SKIP_SIGNATURE
  }
}
