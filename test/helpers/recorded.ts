import type { GatewayConfig } from '../../electron/gateway/config/load-config.js'
import type { LedgerEntry } from '../../electron/gateway/store/ledger.js'
import type { Pricing, Vendor } from '../../shared/types.js'
import { startReplayUpstream } from '../fakes/replay.js'
import { TEST_KEY, withGateway, type TestGateway } from './gateway.js'
import { until } from './until.js'

type ModelRow = NonNullable<GatewayConfig['models']>[number]
export type TokenPrices = { input: number; output: number; cachedInput?: number }

/** A key of the messages-protocol group of a recorded gateway (TEST_KEY is the chat group's). */
export const MESSAGES_KEY = 'sk-recorded-messages-0123456789'

/**
 * The recorded-traffic files' setup: one replay upstream (test/fakes/replay.ts) as the only account of `vendor`,
 * at `base` after its origin (what the vendor's SDK takes as base URL: `/v1` for OpenAI-compatible ones), serving
 * `models` (token prices, or any pricing row; an output limit of 128,000 tokens unless given); a chat group (TEST_KEY) and a messages group
 * (MESSAGES_KEY) of them. Each test chooses its recording.
 */
export function withRecordedGateway(vendor: Exclude<Vendor, 'gateway'>, models: Array<{ id: string; family: NonNullable<ModelRow['family']>; pricing: TokenPrices | Pricing; maxOutputTokens?: number }>, base = '') {
  return withGateway({
    fakes: { replay: startReplayUpstream },
    resetFakes: true,
    config: ({ replay }): GatewayConfig => ({
      account: { balance: 100, concurrency: 5 },
      // Each model's output limit is what admission reserves for a request without its own cap.
      models: models.map((m) => ({ id: m.id, family: m.family, vendor, pricing: 'unit' in m.pricing ? m.pricing : { unit: 'token' as const, ...m.pricing }, limits: { maxOutputTokens: m.maxOutputTokens ?? 128_000 } })),
      upstreams: [{ id: 'recorded', vendor, baseUrl: `${replay.url}${base}`, apiKey: `recorded-${vendor}-secret` }],
      groups: [
        { id: 'chat', protocol: 'chat', models: models.map((m) => m.id), upstreams: ['recorded'] },
        { id: 'messages', protocol: 'messages', models: models.map((m) => m.id), upstreams: ['recorded'] },
      ],
      keys: [{ key: TEST_KEY, group: 'chat' }, { key: MESSAGES_KEY, group: 'messages' }],
    }),
  })
}

/**
 * What a recorded usage costs at a model row's token prices, in nano-USD (1000 per token per USD per 1M): uncached
 * input, cache reads and output (reasoning included) each at their own price, rounded once.
 */
export function tokenCostNano(prices: TokenPrices, usage: { input: number; cached?: number; output: number }): number {
  const cached = usage.cached ?? 0
  return Math.round(1000 * ((usage.input - cached) * prices.input + cached * (prices.cachedInput ?? prices.input) + usage.output * prices.output))
}

/**
 * The ledger row of the next request: call before the request, await after it. A stream's row is written once its
 * end went out, so it is waited for (bounded).
 */
export async function nextLedgerRow(gw: TestGateway): Promise<() => Promise<LedgerEntry>> {
  const before = new Set((await gw.services.store.ledger.recent(null, 50)).map((row) => row.id))
  return () =>
    until('the ledger row of the recorded call', 5_000, async () => {
      const rows = (await gw.services.store.ledger.recent(null, 50)).filter((row) => !before.has(row.id))
      if (rows.length > 1) throw new Error(`expected one new ledger row, found ${rows.length}`)
      return rows[0]
    })
}
