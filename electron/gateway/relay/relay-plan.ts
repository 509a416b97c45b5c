import type { CatalogModel } from '../../../shared/types.js'
import type { UpstreamAccount } from '../contract/accounts.js'
import type { RelayCapability, TokenUsage } from '../contract/upstream.js'

/** What a route asks the relay to do: the model, the body as the upstream should get it, the accounts to try. */
export interface RelayPlan {
  capability: RelayCapability
  model: CatalogModel
  /** the body as the upstream should get it */
  body: Record<string, unknown>
  candidates: UpstreamAccount[]
  stream: boolean
  /** chat: the client asked for the usage-only chunk */
  includeUsage?: boolean
  /** false for calls that cost nothing (count_tokens) */
  billable: boolean
  /** the prompt's text, counted when a broken stream never reported usage */
  promptText(): string
  /** binary answers (audio) are piped as they arrive and billed with this usage once any byte was sent */
  binaryUsage?: TokenUsage
  /** the client's bytes, when `body` is exactly what they parse to */
  rawBody?: Buffer
}
