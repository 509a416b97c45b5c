import type { Vendor } from '../../../shared/types.js'
import { openAICompatibleChat } from './openai-compatible.js'
import type { VendorAdapter } from './types.js'

/**
 * One adapter per vendor. The path after the account's base URL follows the vendor's
 * official SDK base URL (README "Config file").
 */
const ADAPTERS: Partial<Record<Vendor, VendorAdapter>> = {
  openai: { vendor: 'openai', chat: openAICompatibleChat('/chat/completions') },
  xai: { vendor: 'xai', chat: openAICompatibleChat('/chat/completions') },
  zhipu: { vendor: 'zhipu', chat: openAICompatibleChat('/chat/completions') },
  ark: { vendor: 'ark', chat: openAICompatibleChat('/chat/completions') },
  dashscope: { vendor: 'dashscope', chat: openAICompatibleChat('/compatible-mode/v1/chat/completions') },
  gateway: { vendor: 'gateway', chat: openAICompatibleChat('/v1/chat/completions') },
}

export function adapterFor(vendor: Vendor): VendorAdapter | undefined {
  return ADAPTERS[vendor]
}
