import type { GatewayConfig } from '../../electron/gateway/config/load-config.js'
import { chatConfig } from '../helpers/gateway.js'

/** The test config without an `account` block: a new install's, which has no budget. */
export function configWithoutAccount(upstreams: Array<{ id: string; baseUrl: string }>): GatewayConfig {
  const config = chatConfig(upstreams)
  delete config.account
  return config
}
