import type { GroupProtocol, Vendor } from '../../../shared/types.js'

/*
 * The words every floor uses for who calls and through what: an upstream account, a group and its options, a
 * gateway key, the account's money and caps. Types only; the registry (registry.ts) holds the live values.
 */

/** What a group allows beyond its model list (spec §4.2's group-specific image limits). */
export interface GroupOptions {
  /** the group generates one image per request: n > 1 answers 400 */
  singleImage?: boolean
  /** the Gemini official-direct group: no edits endpoint, reference images at most 20 MiB decoded */
  officialDirect?: boolean
  /** a chat stream cut after its content started is continued by the next account that takes a prefix (relay/continuation.ts) */
  continuation?: boolean
}

export interface UpstreamAccount {
  id: string
  vendor: Vendor
  baseUrl: string
  apiKey: string
  /** undefined: every catalog model of the vendor (every model for a `gateway` upstream). */
  models?: ReadonlySet<string>
  /** gateway model id → the name this account knows it by, only where the two differ (an Azure deployment, a reseller's id) */
  modelNames?: ReadonlyMap<string, string>
  priority: number
  /** nano-USD: the account's spending cap; null or absent: none */
  budgetNano?: number | null
  /** nano-USD spent through it since the cap was set (mirrored as requests are charged) */
  spentNano?: number
}

export interface Group {
  id: string
  name: string | null
  protocol: GroupProtocol
  models: readonly string[]
  modelSet: ReadonlySet<string>
  upstreams: readonly string[]
  options: GroupOptions
}

export interface ApiKey {
  id: string
  hint: string
  groupId: string
  name: string | null
  concurrency: number | null
  quotaNano: number | null
  usedNano: number
  expiresAt: number | null
  disabled: boolean
}

export interface Account {
  /** null: no budget, no spending limit */
  budgetNano: number | null
  /** the budget less what was spent against it (store/account.ts) */
  balanceNano: number
  reservedNano: number
  concurrency: number
}
