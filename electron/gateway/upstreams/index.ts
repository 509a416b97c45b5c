import type { Vendor } from '../../../shared/types.js'
import { anthropicCountTokens, anthropicMessages } from './anthropic.js'
import { geminiChat } from './gemini-chat.js'
import { gatewayInteractions } from './gateway-upstream.js'
import { geminiInteractions } from './gemini-interactions.js'
import { openAICompatibleChat } from './openai-compatible.js'
import { openAIResponses } from './openai-responses.js'
import { openAISpeech } from './openai-speech.js'
import type { VendorAdapter } from '../contract/upstream.js'

/**
 * One adapter per vendor. The path after the account's base URL follows the vendor's
 * official SDK base URL (README "Config file").
 */
const ADAPTERS: Partial<Record<Vendor, VendorAdapter>> = {
  openai: { vendor: 'openai', chat: openAICompatibleChat('/chat/completions'), responses: openAIResponses('/responses'), speech: openAISpeech('/audio/speech') },
  gemini: { vendor: 'gemini', chat: geminiChat, interactions: geminiInteractions },
  anthropic: { vendor: 'anthropic', messages: anthropicMessages, countTokens: anthropicCountTokens },
  xai: { vendor: 'xai', chat: openAICompatibleChat('/chat/completions'), responses: openAIResponses('/responses') },
  zhipu: { vendor: 'zhipu', chat: openAICompatibleChat('/chat/completions') },
  ark: { vendor: 'ark', chat: openAICompatibleChat('/chat/completions') },
  dashscope: { vendor: 'dashscope', chat: openAICompatibleChat('/compatible-mode/v1/chat/completions') },
  gateway: {
    vendor: 'gateway',
    chat: openAICompatibleChat('/v1/chat/completions'),
    responses: openAIResponses('/v1/responses'),
    speech: openAISpeech('/v1/audio/speech'),
    messages: anthropicMessages,
    countTokens: anthropicCountTokens,
    interactions: gatewayInteractions,
  },
}

export function adapterFor(vendor: Vendor): VendorAdapter | undefined {
  return ADAPTERS[vendor]
}
