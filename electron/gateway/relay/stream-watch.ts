import type { CatalogModel } from '../../../shared/types.js'
import type { Timeouts } from '../upstreams/http.js'

/** A stream's deadline that passed: its first token never came, or it went silent once its content flowed. */
export class StreamDeadline extends Error {
  override name = 'StreamDeadline'
  constructor(readonly which: 'first_token' | 'idle', readonly ms: number) {
    super(which === 'first_token' ? `no content within ${ms} ms of the response headers` : `no data for ${ms} ms`)
  }
}

/** A model's first-token deadline: its catalog or config row's `firstTokenMs`, else the gateway's. */
export function firstTokenMsOf(model: CatalogModel, timeouts: Timeouts): number {
  const own = model.firstTokenMs
  return typeof own === 'number' && Number.isInteger(own) && own > 0 ? own : timeouts.firstTokenMs
}

/**
 * A stream's call deadlines: its headers within `streamFirstByteMs`; undici's own body timer only as a backstop past
 * both of the watch's deadlines (the watch answers first).
 */
export const streamDeadlines = (firstTokenMs: number, timeouts: Timeouts) =>
  ({ headersMs: timeouts.streamFirstByteMs, bodyMs: Math.max(firstTokenMs, timeouts.idleMs) + 1_000 })

/**
 * The deadlines of a stream whose headers came, as timers (never checked only when a frame arrives, which a silent
 * upstream never sends): its first content within `firstTokenMs`, then no silence longer than `idleMs`. A deadline
 * that passes destroys the body with a StreamDeadline, which the relay's read of it throws. Per chunk, `chunk()`
 * only notes the time; the idle timer is re-armed when it fires, for the silence still allowed.
 */
export class StreamWatch {
  #timer: NodeJS.Timeout | undefined
  #last = 0
  #flowing = false
  #waiting = false

  constructor(private readonly body: { destroy(err: Error): unknown }, firstTokenMs: number, private readonly idleMs: number) {
    this.#timer = setTimeout(() => this.#expire(new StreamDeadline('first_token', firstTokenMs)), firstTokenMs)
  }

  /** The first content went to the client: from now on, the idle limit. */
  flowing(): void {
    this.#flowing = true
    this.#last = performance.now()
    clearTimeout(this.#timer)
    this.#timer = setTimeout(this.#check, this.idleMs)
  }

  /** A chunk arrived. */
  chunk(): void {
    this.#last = performance.now()
  }

  /** The relay waits for a slow client to read: the upstream's silence meanwhile is not its own. */
  waiting(on: boolean): void {
    this.#waiting = on
    if (!on) this.#last = performance.now()
  }

  stop(): void {
    clearTimeout(this.#timer)
    this.#timer = undefined
  }

  readonly #check = (): void => {
    if (!this.#flowing) return
    const silent = this.#waiting ? 0 : performance.now() - this.#last
    if (silent >= this.idleMs) return this.#expire(new StreamDeadline('idle', this.idleMs))
    this.#timer = setTimeout(this.#check, Math.max(1, Math.ceil(this.idleMs - silent)))
  }

  #expire(err: StreamDeadline): void {
    this.#timer = undefined
    this.body.destroy(err)
  }
}
