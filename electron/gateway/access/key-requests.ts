import type { RequestContext } from '../context.js'
import { gatewayError, type GatewayError } from '../errors.js'
import { LiveRequests, type Deadline } from './live-requests.js'
import type { ApiKey } from '../contract/accounts.js'
import type { Registry } from '../registry.js'

/** What requests in flight are told when their key stops working under them (README "Security"). */
const revoked = (): GatewayError => gatewayError('api_key_revoked', 'api_key_revoked_during')
const disabled = (): GatewayError => gatewayError('api_key_revoked', 'api_key_disabled_during')
const expired = (): GatewayError => gatewayError('api_key_expired', 'api_key_expired_during')

/** When a key stops working, in ms: its expiry; null: never; 0: it is gone. */
const endOf = (key: ApiKey | undefined): number | null => (key === undefined ? 0 : key.expiresAt === null ? null : key.expiresAt * 1000)

/**
 * The requests in flight of each gateway key: a key deleted, disabled or expired ends them at once (the stream's
 * error event, the upstream call aborted, the ledger billing what was delivered), on this replica and, through the
 * registry reload a change notice causes, on every other.
 */
export class KeyRequests {
  readonly #live = new LiveRequests()

  constructor(private readonly registry: Registry) {}

  /** Tracks a request of its authenticated key (`ctx.key`) until its response closes; expiry is a timer. */
  track(ctx: RequestContext): void {
    const id = ctx.key!.id
    const { registry } = this
    this.#live.track(id, ctx, { endsAt: () => endOf(registry.keysById.get(id)), error: expired } satisfies Deadline)
  }

  /** After each registry reload: ends the requests of keys now deleted or disabled; an expiry that moved is re-armed. */
  reloaded(): void {
    for (const id of this.#live.owners()) {
      const key = this.registry.keysById.get(id)
      if (key === undefined) this.#live.end(id, revoked())
      else if (key.disabled) this.#live.end(id, disabled())
      else this.#live.recheck(id)
    }
  }

  /** Requests in flight of the key. */
  count(keyId: string): number {
    return this.#live.count(keyId)
  }
}
