import { EventEmitter } from 'node:events'
import type { AbortedFlag } from '../contract/family.js'
import type { GatewayError } from '../errors.js'

/**
 * A request's "the client has left", raised once by the server when the response closes unfinished (or by the
 * gateway when it ends the request itself, `endedBy`). It is an
 * EventEmitter with `aborted`, which undici takes as a request's signal: an AbortSignal costs several µs per
 * request to create and to add and remove its listener, on every call. Code that needs a real AbortSignal
 * (timers, image decoding, downloads, token counts) asks for `signal`, made on first use.
 */
export class ClientAbort extends EventEmitter implements AbortedFlag {
  aborted = false
  /**
   * Set when the gateway itself ended the request (its key revoked, its session signed out): what the client is
   * told. Not named `reason`, which undici would throw from the upstream call in place of its own abort error.
   */
  endedBy: GatewayError | undefined = undefined
  #controller: AbortController | undefined

  /** `endedBy`: the gateway ends the request, and says why; without it, the client has left. */
  abort(endedBy?: GatewayError): void {
    if (this.aborted) return
    this.aborted = true
    this.endedBy = endedBy
    this.#controller?.abort()
    this.emit('abort')
  }

  get signal(): AbortSignal {
    if (this.#controller === undefined) {
      this.#controller = new AbortController()
      if (this.aborted) this.#controller.abort()
    }
    return this.#controller.signal
  }
}
