/**
 * What the requests under way of this process hold, when it is the store's only process (SQLite: the data dir's
 * gateway). A request's hold lives exactly as long as the process that took it (a start releases whatever an earlier
 * run left), so it needs no row: kept here, it costs no statement to take, move or settle. The funds check reads the
 * store's figures and adds these (store/holds.ts). What outlives the process stays a row: a video task's reservation,
 * and the hold an async image task takes over. Team mode keeps every hold a row, which the other replicas must see.
 */
export interface HeldElsewhere {
  /** what is held beside the store's reservations, in all */
  total(): number
  /** … by the requests of key `keyId` */
  ofKey(keyId: string): number
  /** … on upstream account `upstreamId`, leaving out hold `exceptId`'s own */
  onUpstream(upstreamId: string, exceptId: string): number
}

/** Nothing held in memory: team mode, where every hold is a row. */
export const NONE_ELSEWHERE: HeldElsewhere = { total: () => 0, ofKey: () => 0, onUpstream: () => 0 }

interface Held {
  keyId: string
  upstreamId: string | null
  amountNano: number
}

/** The holds of this process's requests, by request id, with their sums kept as they change. */
export class HeldHere implements HeldElsewhere {
  readonly #holds = new Map<string, Held>()
  readonly #byKey = new Map<string, number>()
  readonly #byUpstream = new Map<string, number>()
  #total = 0

  has(id: string): boolean {
    return this.#holds.has(id)
  }

  get(id: string): Readonly<Held> | undefined {
    return this.#holds.get(id)
  }

  /** A new hold, on no upstream account yet. */
  add(id: string, keyId: string, amountNano: number): void {
    this.delete(id)
    this.#holds.set(id, { keyId, upstreamId: null, amountNano })
    this.#total += amountNano
    add(this.#byKey, keyId, amountNano)
  }

  /** Hold `id` onto upstream account `upstreamId` (null: onto none). */
  move(id: string, upstreamId: string | null): void {
    const held = this.#holds.get(id)
    if (held === undefined) return
    if (held.upstreamId !== null) add(this.#byUpstream, held.upstreamId, -held.amountNano)
    held.upstreamId = upstreamId
    if (upstreamId !== null) add(this.#byUpstream, upstreamId, held.amountNano)
  }

  /** Gives hold `id` back; false when there is none. */
  delete(id: string): boolean {
    const held = this.#holds.get(id)
    if (held === undefined) return false
    this.#holds.delete(id)
    this.#total -= held.amountNano
    add(this.#byKey, held.keyId, -held.amountNano)
    if (held.upstreamId !== null) add(this.#byUpstream, held.upstreamId, -held.amountNano)
    return true
  }

  total(): number {
    return this.#total
  }

  ofKey(keyId: string): number {
    return this.#byKey.get(keyId) ?? 0
  }

  onUpstream(upstreamId: string, exceptId: string): number {
    const own = this.#holds.get(exceptId)
    return (this.#byUpstream.get(upstreamId) ?? 0) - (own?.upstreamId === upstreamId ? own.amountNano : 0)
  }
}

/** Adds `amount` to `map`'s entry for `id`, dropping it at zero (so a map of a long run keeps only live entries). */
function add(map: Map<string, number>, id: string, amount: number): void {
  const sum = (map.get(id) ?? 0) + amount
  if (sum === 0) map.delete(id)
  else map.set(id, sum)
}
