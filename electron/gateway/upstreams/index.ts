import type { Vendor } from '../../../shared/types.js'
import { anthropicCountTokens, anthropicMessages } from './anthropic.js'
import { geminiChat } from './gemini-chat.js'
import { gatewayInteractions } from './gateway-upstream.js'
import { geminiInteractions } from './gemini-interactions.js'
import { openAICompatibleChat } from './openai-compatible.js'
import { openAIResponses } from './openai-responses.js'
import { openAISpeech } from './openai-speech.js'
import { withModelNames as named } from './model-names.js'
import type { VendorAdapter } from '../contract/upstream.js'

/**
 * One adapter per vendor. The path after the account's base URL follows the vendor's
 * official SDK base URL (README "Config file"). Adapters whose body names the model are `named`: an account's own
 * name for a model goes in the body, and the gateway's id comes back in the answer (Gemini's chat puts the name in
 * its URL, upstreamModel).
 */
const ADAPTERS: Partial<Record<Vendor, VendorAdapter>> = {
  openai: { vendor: 'openai', chat: named(openAICompatibleChat('/chat/completions')), responses: named(openAIResponses('/responses')), speech: named(openAISpeech('/audio/speech')) },
  gemini: { vendor: 'gemini', chat: geminiChat, interactions: named(geminiInteractions) },
  anthropic: { vendor: 'anthropic', messages: named(anthropicMessages), countTokens: named(anthropicCountTokens) },
  xai: { vendor: 'xai', chat: named(openAICompatibleChat('/chat/completions')), responses: named(openAIResponses('/responses')) },
  zhipu: { vendor: 'zhipu', chat: named(openAICompatibleChat('/chat/completions')) },
  ark: { vendor: 'ark', chat: named(openAICompatibleChat('/chat/completions')) },
  dashscope: { vendor: 'dashscope', chat: named(openAICompatibleChat('/compatible-mode/v1/chat/completions')) },
  gateway: {
    vendor: 'gateway',
    chat: named(openAICompatibleChat('/v1/chat/completions')),
    responses: named(openAIResponses('/v1/responses')),
    speech: named(openAISpeech('/v1/audio/speech')),
    messages: named(anthropicMessages),
    countTokens: named(anthropicCountTokens),
    interactions: named(gatewayInteractions),
  },
}

export function adapterFor(vendor: Vendor): VendorAdapter | undefined {
  return ADAPTERS[vendor]
}
