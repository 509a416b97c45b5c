import type { GatewayError } from '../errors.js'

/**
 * How each vendor says a prompt is longer than the model takes, as its adapter maps the error (a 400 the client gets
 * as its own): OpenAI and OpenAI-compatible resellers code it `context_length_exceeded`; Zhipu `1261` ("Prompt
 * exceeds max length"); Anthropic a 400 `invalid_request_error` "prompt is too long: N tokens > M maximum"; Gemini
 * 400 INVALID_ARGUMENT "The input token count (N) exceeds the maximum number of tokens allowed (M)"; xAI "maximum
 * prompt length is N"; DashScope "Range of input length should be [1, N]".
 * @see ../../../docs/vendors/openai.md, zhipu-glm.md, dashscope.md
 */
const CODES = new Set(['context_length_exceeded', '1261', 'string_above_max_length'])
const MESSAGES = /context[ _-]?(length|window)|prompt is too long|prompt too long|exceeds max(imum)? length|input token count .*exceeds|maximum prompt length|range of input length should be|too many (input )?tokens|maximum context/i

/** The upstream's 400 says the prompt is longer than the model takes (a larger model may take it). */
export function isContextLengthError(error: GatewayError): boolean {
  if (error.status !== 400 && error.status !== 413) return false
  return CODES.has(error.code) || MESSAGES.test(error.message)
}
