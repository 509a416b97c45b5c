import type { GatewayError } from '../errors.js'
import { toGeminiRequest } from './gemini-request.js'
import { fromGeminiResponse, geminiError, type GeminiResponse } from './gemini-response.js'
import { geminiStreamTranslator } from './gemini-stream.js'
import { parseJson } from './openai-compatible.js'
import type { ChatAdapter } from '../contract/upstream.js'

/**
 * Chat completions translated to Gemini's native API: `POST {baseUrl}/v1beta/models/{model}:generateContent`
 * or `:streamGenerateContent?alt=sse`, authenticated with `x-goog-api-key` (never `?key=`), and the
 * answers translated back into chat.completion objects and chunks (spec §4.1, Gemini-style row).
 *
 * Design notes:
 * - Thought signatures travel to the client on every tool call as Google's OpenAI-compatibility field
 *   `extra_content.google.thought_signature` and, for clients that rebuild tool calls with only
 *   id/type/function, inside the tool call id (gemini-tool-ids.ts). Both are read back onto the
 *   functionCall parts; for Gemini 3+ a step still unsigned gets Google's placeholder signature.
 * - Role `tool`: a `functionResponse` part when its tool_call_id matches an earlier assistant tool call
 *   (Gemini needs that to continue a tool loop), otherwise user text (gemini-request.ts).
 * - A blocked prompt, and an error event inside a stream, throw a GatewayError (400 for a blocked prompt).
 * @see ../../../docs/vendors/gemini.md
 */
export const geminiChat: ChatAdapter = {
  toRequest: toGeminiRequest,
  fromResponse: fromGeminiResponse,
  streamTranslator: geminiStreamTranslator,
  fromError: fromGeminiError,
}

/** Gemini's `{"error":{"code","message","status"}}` (or the same wrapped in an array) into a GatewayError. */
export function fromGeminiError(status: number, text: string): GatewayError {
  const parsed = parseJson(text)
  const body = (Array.isArray(parsed) ? parsed[0] : parsed) as GeminiResponse | undefined
  return geminiError(status, body && typeof body === 'object' ? body.error : undefined)
}

export { toGeminiRequest } from './gemini-request.js'
export { fromGeminiResponse, fromGeminiUsage } from './gemini-response.js'
export { geminiStreamTranslator } from './gemini-stream.js'
export { decodeToolCallId, encodeToolCallId } from './gemini-tool-ids.js'
