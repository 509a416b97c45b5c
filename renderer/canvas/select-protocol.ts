/** Messages between the page and the "select object" worker. */
import type { ObjectHint } from './select-object'

export interface SelectRequest {
  id: number
  rgba: Uint8ClampedArray
  width: number
  height: number
  hint: ObjectHint
}

export type SelectReply = { id: number; bits: Uint8Array } | { id: number; error: string }
