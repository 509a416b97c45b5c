import type { Vendor } from '../../../shared/types.js'
import { anthropicCountTokens, anthropicMessages } from './anthropic.js'
import { openAICompatibleChat } from './openai-compatible.js'
import { openAIResponses } from './openai-responses.js'
import type { VendorAdapter } from './types.js'

/**
 * One adapter per vendor. The path after the account's base URL follows the vendor's
 * official SDK base URL (README "Config file").
 */
const ADAPTERS: Partial<Record<Vendor, VendorAdapter>> = {
  openai: { vendor: 'openai', chat: openAICompatibleChat('/chat/completions'), responses: openAIResponses('/responses') },
  anthropic: { vendor: 'anthropic', messages: anthropicMessages, countTokens: anthropicCountTokens },
  xai: { vendor: 'xai', chat: openAICompatibleChat('/chat/completions'), responses: openAIResponses('/responses') },
  zhipu: { vendor: 'zhipu', chat: openAICompatibleChat('/chat/completions') },
  ark: { vendor: 'ark', chat: openAICompatibleChat('/chat/completions') },
  dashscope: { vendor: 'dashscope', chat: openAICompatibleChat('/compatible-mode/v1/chat/completions') },
  gateway: {
    vendor: 'gateway',
    chat: openAICompatibleChat('/v1/chat/completions'),
    responses: openAIResponses('/v1/responses'),
    messages: anthropicMessages,
    countTokens: anthropicCountTokens,
  },
}

export function adapterFor(vendor: Vendor): VendorAdapter | undefined {
  return ADAPTERS[vendor]
}
