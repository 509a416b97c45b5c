// What the adapter unit tests share: an account and a catalog row to build a context from, recorded streams as the
// events an adapter's translator is fed, and the GatewayError a transform throws.
import { expect } from 'vitest'
import type { UpstreamAccount } from '../../../../electron/gateway/contract/accounts.js'
import type { ChatStreamTranslator, SseEvent, UpstreamCtx } from '../../../../electron/gateway/contract/upstream.js'
import type { CatalogModel, Family, Vendor } from '../../../../shared/types.js'
import { recordedChunks } from '../../../fakes/replay.js'

export { thrownBy } from '../../../helpers/thrown.js'

export const account = (vendor: Vendor, baseUrl: string, apiKey = `${vendor}-account-key`): UpstreamAccount => ({ id: `${vendor}-1`, vendor, baseUrl, apiKey, priority: 0 })

export const catalogRow = (id: string, family: Family, vendor: Exclude<Vendor, 'gateway'>): CatalogModel =>
  ({ id, family, type: 'chat', vendor, created: 0, pricing: { unit: 'token', input: 1, output: 2 } }) as CatalogModel

export const ctxOf = (vendor: Exclude<Vendor, 'gateway'>, baseUrl: string, model: string, family: Family = 'gpt'): UpstreamCtx =>
  ({ upstream: account(vendor, baseUrl), model: catalogRow(model, family, vendor) })

/** A recorded `.chunks.txt` stream as the parsed events the relay hands a translator (`event` names: `named`). */
export const recordedEvents = (file: string, named = false): SseEvent[] =>
  recordedChunks(file).map((data) => (named ? { event: (JSON.parse(data) as { type: string }).type, data } : { data }))

/** Every frame a translator writes for `events`, in order. */
export const translate = (translator: ChatStreamTranslator, events: SseEvent[]): string[] => events.flatMap((event) => translator.push(event))

/** The JSON payload of a `data: …\n\n` frame. */
export const payloadOf = (frame: string): unknown => {
  expect(frame.startsWith('data: ') && frame.endsWith('\n\n')).toBe(true)
  return JSON.parse(frame.slice('data: '.length, -2))
}
