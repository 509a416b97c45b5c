import { gatewayConfig } from '../../../shared/schemas/config.js'
import type { Family, GroupProtocol, ModelFallback, Pricing, Vendor } from '../../../shared/types.js'
import type { ClientTimeouts } from '../client/client-timeouts.js'
import { readFileStart } from '../data-dir/file-start.js'
import { compileValidator } from '../validate.js'
import { NOT_TEXT, textOfFile } from './text-file.js'

export interface GatewayConfig {
  account?: { balance?: number; concurrency?: number }
  upstreams?: Array<{ id: string; vendor: Vendor; baseUrl: string; apiKey: string; models?: UpstreamModels; priority?: number; budget?: number }>
  groups?: Array<{ id: string; name?: string; protocol: GroupProtocol; models: string[]; upstreams: string[]; images?: { singleImage?: boolean; officialDirect?: boolean }; continuation?: boolean }>
  models?: Array<{ id: string; family?: Family; vendor?: Exclude<Vendor, 'gateway'>; pricing?: Pricing; fallbacks?: ModelFallback[]; [field: string]: unknown }>
  keys?: Array<{ key: string; group: string; name?: string; concurrency?: number; quota?: number; expiresAt?: string | number; disabled?: boolean }>
  timeouts?: { connectMs?: number; firstByteMs?: number; streamFirstByteMs?: number; firstTokenMs?: number; idleMs?: number } & Partial<ClientTimeouts>
  limits?: { maxConnections?: number; maxConnectionsPerAddress?: number; bodyBytes?: number }
  allowedHosts?: string[]
  network?: { allowPrivateAddresses?: boolean }
  team?: { leaseSeconds?: number; poolSize?: number }
  admin?: { loginCodeMinutes?: number }
  routing?: {
    retries?: { maxAttempts?: number; maxBackoffMs?: number; backoffMs?: number; rateLimitBackoffMs?: number }
    breaker?: { failures?: number; coolDownMs?: number; probeTimeoutMs?: number }
  }
  /** request tracing (README "Tracing (OpenTelemetry)"): off unless an OTLP endpoint is named here or in OTEL_* */
  telemetry?: { otlp?: { endpoint: string; headers?: Record<string, string>; serviceName?: string } }
}

/** An account's models: ids served under their own names, or each id mapped to the account's own name for it. */
export type UpstreamModels = string[] | Record<string, string>

/** The gateway model ids an account's `models` names. */
export const modelIdsOf = (models: UpstreamModels): string[] => (Array.isArray(models) ? models : Object.keys(models))

/** A config problem, naming the field at fault. */
export class ConfigError extends Error {
  constructor(readonly field: string, problem: string) {
    super(`invalid config: ${field}: ${problem}`)
  }
}

const validateShape = compileValidator(gatewayConfig)

const MIB = 1024 * 1024
/** A config file's size at most (10,000 keys and groups take ~3 MB): a wrong path may name a large file or a device. */
export const CONFIG_MAX_BYTES = 64 * MIB

/** Reads and checks the shape of a config file; references are checked when it is applied. */
export function loadConfig(path: string): GatewayConfig {
  let bytes: Buffer
  try {
    bytes = readFileStart(path, CONFIG_MAX_BYTES)
  } catch (err) {
    throw new ConfigError(path, `cannot be read (${(err as NodeJS.ErrnoException).code ?? 'error'})`)
  }
  if (bytes.length > CONFIG_MAX_BYTES) throw new ConfigError(path, `is longer than ${CONFIG_MAX_BYTES / MIB} MiB: not a config file`)
  const text = textOfFile(bytes)
  if (text === undefined) throw new ConfigError(path, NOT_TEXT)
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch (err) {
    throw new ConfigError(path, `is not valid JSON (${(err as Error).message})`)
  }
  const problem = validateShape(value)
  if (problem) throw new ConfigError(problem.param ?? 'config', problem.localized('en').replace(/^[^:]*: /, ''))
  return value as GatewayConfig
}
