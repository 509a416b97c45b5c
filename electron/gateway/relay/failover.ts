import { clientGone } from '../client/body.js'
import type { AbortedFlag } from '../contract/family.js'
import type { UpstreamAccount } from '../contract/accounts.js'
import { exhausted, type UpstreamFailure } from './upstream-failure.js'

/** One account's try: its answer, or why the next account should be tried. A client's own error is thrown instead. */
export type Attempt<T> = { done: true; value: T } | { done: false; failure: UpstreamFailure }

/**
 * The one failover loop (spec §7): tries the accounts in order until one answers. An attempt that throws (the
 * client's own error, a 400) ends the loop at once. When the client has left (`signal`), no further account is
 * tried and `client_closed_request` is thrown; when every account failed, the last failure becomes the exhausted
 * error (502, 503 or 504).
 */
export async function failover<T>(
  candidates: readonly UpstreamAccount[],
  signal: AbortedFlag | undefined,
  attempt: (upstream: UpstreamAccount) => Promise<Attempt<T>>,
): Promise<T> {
  let failure: UpstreamFailure | undefined
  for (const upstream of candidates) {
    if (signal?.aborted) break
    const result = await attempt(upstream)
    if (result.done) return result.value
    failure = result.failure
  }
  if (signal?.aborted) throw clientGone()
  throw exhausted(failure)
}
