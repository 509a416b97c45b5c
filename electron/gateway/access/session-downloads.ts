import type { RequestContext } from '../context.js'
import { gatewayError } from '../errors.js'
import { LiveRequests } from './live-requests.js'

/** A session that ended is no longer signed in: what a download not yet under way answers. */
const signedOut = () => gatewayError('admin_unauthorized', 'admin_unauthorized')

/**
 * The kept-media downloads in flight of each admin session: signing out, the session's expiry (a timer at the
 * moment it would expire, asked again then since use moves it) and its eviction end them at once.
 */
export class SessionDownloads {
  readonly #live = new LiveRequests()

  /** Tracks a download of a session; `endsAt`: when the session expires unless used (undefined: it has ended). */
  track(ctx: RequestContext, sessionId: string, endsAt: () => number | undefined): void {
    this.#live.track(sessionId, ctx, { endsAt: () => endsAt() ?? 0, error: signedOut })
  }

  /** The session ended (signed out, expired, evicted): its downloads end now. */
  ended(sessionId: string): void {
    this.#live.end(sessionId, signedOut())
  }

  /** Downloads in flight of the session. */
  count(sessionId: string): number {
    return this.#live.count(sessionId)
  }
}
