import type { RequestContext } from '../context.js'
import type { GatewayError } from '../errors.js'

/** When an owner's requests must end, asked again when that time comes (it may have moved since). */
export interface Deadline {
  /** ms since the epoch; null: never */
  endsAt(): number | null
  /** the error they end with then */
  error(): GatewayError
}

interface Owner {
  requests: Set<RequestContext>
  deadline: Deadline | undefined
  timer: NodeJS.Timeout | undefined
}

/** setTimeout's longest delay (about 24.8 days): a later deadline is reached in steps. */
const MAX_DELAY_MS = 2 ** 31 - 1
/** A handler that does not act on the abort (a download waiting for a reader to drain) is cut after this. */
export const END_GRACE_MS = 300

/**
 * The requests in flight of each owner (a key, an admin session), so that the owner's end ends them at once: each
 * is aborted with the error that says why (its upstream call with it), and the handler answers that error in its
 * protocol's shape; one that has not finished its answer within END_GRACE_MS is cut. A request leaves when its
 * response closes. Costs one Set insert per request; nothing per chunk.
 */
export class LiveRequests {
  readonly #owners = new Map<string, Owner>()

  /** Tracks `ctx` under `owner` until its response closes; the owner's first request arms its `deadline`. */
  track(owner: string, ctx: RequestContext, deadline?: Deadline): void {
    let entry = this.#owners.get(owner)
    if (entry === undefined) {
      entry = { requests: new Set(), deadline, timer: undefined }
      this.#owners.set(owner, entry)
      if (deadline !== undefined) this.#arm(owner, entry)
      // The deadline may have passed already: the owner has ended, and so has this request.
      if (this.#owners.get(owner) !== entry) return void endRequest(ctx, deadline!.error())
    }
    const requests = entry.requests
    requests.add(ctx)
    ctx.res.once('close', () => {
      requests.delete(ctx)
      if (requests.size === 0 && this.#owners.get(owner) === entry) this.#drop(owner, entry)
    })
  }

  /** Ends every request of `owner` with `error`. */
  end(owner: string, error: GatewayError): void {
    const entry = this.#owners.get(owner)
    if (entry === undefined) return
    this.#drop(owner, entry)
    for (const ctx of entry.requests) endRequest(ctx, error)
  }

  /** Asks the owner's deadline again (it moved): ends its requests now if it has passed. */
  recheck(owner: string): void {
    const entry = this.#owners.get(owner)
    if (entry?.deadline !== undefined) this.#arm(owner, entry)
  }

  /** The owners with requests in flight. */
  owners(): IterableIterator<string> {
    return this.#owners.keys()
  }

  /** Requests in flight of `owner`. */
  count(owner: string): number {
    return this.#owners.get(owner)?.requests.size ?? 0
  }

  #arm(owner: string, entry: Owner): void {
    clearTimeout(entry.timer)
    entry.timer = undefined
    const at = entry.deadline!.endsAt()
    if (at === null) return
    const delay = at - Date.now()
    if (delay <= 0) return this.end(owner, entry.deadline!.error())
    entry.timer = setTimeout(() => this.#arm(owner, entry), Math.min(delay, MAX_DELAY_MS)).unref()
  }

  #drop(owner: string, entry: Owner): void {
    clearTimeout(entry.timer)
    this.#owners.delete(owner)
  }
}

/**
 * Ends one request with `error`: the ledger row says why, the upstream call is aborted, and the handler answers
 * (a JSON error, or the stream's error event); what has not finished its answer after END_GRACE_MS is cut.
 */
function endRequest(ctx: RequestContext, error: GatewayError): void {
  const { res } = ctx
  if (res.writableEnded || ctx.abort.aborted) return
  ctx.outcome.status = error.status
  ctx.outcome.errorCode = error.code
  ctx.abort.abort(error)
  const cut = setTimeout(() => {
    if (!res.writableEnded) res.destroy()
  }, END_GRACE_MS).unref()
  res.once('close', () => clearTimeout(cut))
}
