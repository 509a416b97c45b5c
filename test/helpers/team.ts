import { randomBytes } from 'node:crypto'
import type { GatewayConfig } from '../../electron/gateway/config/load-config.js'
import type { GatewayOptions } from '../../electron/gateway/gateway.js'
import { aesSecretBox } from '../../electron/gateway/secrets/secrets.js'
import { startTestGateway, tempDataDir, type TestGateway } from './gateway.js'

/** A team's shared secret key (what GATEHOUSE_SECRET_KEY carries, base64). */
export const newSecretKey = (): string => randomBytes(32).toString('base64')

/**
 * One replica of a team on `databaseUrl`: a test gateway with a data dir of its own, sealing with `secretKey`.
 * Two of these in one process are two replicas (separate registries, limiters and replica ids).
 */
export function startReplica(databaseUrl: string, secretKey: string, config: GatewayConfig, options: Partial<GatewayOptions> = {}): Promise<TestGateway> {
  return startTestGateway(config, tempDataDir(), { databaseUrl, secrets: aesSecretBox(Buffer.from(secretKey, 'base64')), ...options })
}
