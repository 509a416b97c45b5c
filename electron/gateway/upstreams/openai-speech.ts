import { fromOpenAIError, jsonPost } from './openai-compatible.js'
import type { RelayAdapter } from '../contract/upstream.js'

/**
 * OpenAI's speech endpoint: JSON in, audio bytes out (the relay pipes them; the JSON hooks are unused).
 * @see ../../../docs/vendors/openai.md §4
 */
export function openAISpeech(path: string): RelayAdapter {
  return {
    toRequest: (body, { upstream }) => ({ ...jsonPost(`${upstream.baseUrl}${path}`, upstream, body), headers: { authorization: `Bearer ${upstream.apiKey}`, 'content-type': 'application/json', accept: 'audio/*, */*' } }),
    fromResponse: (text) => ({ body: text }),
    streamTranslator: () => {
      throw new Error('speech is relayed as bytes')
    },
    fromError: fromOpenAIError,
  }
}
