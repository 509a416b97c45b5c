import { randomBytes } from 'node:crypto'
import type { ReplayPin } from '../context.js'

/** The header that carries a replay's ticket on the gateway's call to itself (admin/replay.ts). */
export const REPLAY_HEADER = 'x-gatehouse-replay'

/** How long a ticket is good for: the replay's call is made at once. */
const TICKET_MS = 60_000

/**
 * One-time tickets for replays: the admin API issues one, sends the replayed request to the gateway itself with it,
 * and the server takes it back (server.ts) to pin the request's account and mark it as a replay. A ticket is random,
 * lives in this process only, and works once: no client can pin an account.
 */
export class ReplayTickets {
  private readonly tickets = new Map<string, { pin: ReplayPin; expires: number }>()

  issue(pin: ReplayPin): string {
    const now = Date.now()
    for (const [id, t] of this.tickets) if (t.expires <= now) this.tickets.delete(id)
    const id = randomBytes(24).toString('base64url')
    this.tickets.set(id, { pin, expires: now + TICKET_MS })
    return id
  }

  /** The ticket's pin, once; undefined for an unknown, spent or expired ticket. */
  take(id: string | string[] | undefined): ReplayPin | undefined {
    if (typeof id !== 'string') return undefined
    const t = this.tickets.get(id)
    this.tickets.delete(id)
    return t !== undefined && t.expires > Date.now() ? t.pin : undefined
  }
}
