import { randomBytes } from 'node:crypto'

/**
 * Gemini's per-call data (the thought signature and the optional functionCall id) carried through
 * an OpenAI client's round trip inside the tool call id, so multi-turn tool calls keep working for
 * clients that rebuild `tool_calls` with only id/type/function and drop `extra_content`.
 *
 * Format (reversible, alphabet [A-Za-z0-9_-] only, so strict id patterns such as `^[a-zA-Z0-9_-]+$` accept it):
 * - `call_<24 hex>`: no data to carry (a parallel call after the first has no signature).
 * - `call_gs1_<base64url(frame)>`, frame = nonce (6 random bytes) | flags (1 byte)
 *   | [id length (2 bytes, big-endian) | id (UTF-8)] | signature bytes (the rest).
 *   flags bit 0: signature present; bit 1: the signature is canonical base64 and stored as its
 *   decoded bytes (so the id is about as long as the signature itself), else stored as UTF-8 text;
 *   bit 2: Gemini functionCall id present.
 * Any id that does not decode is an ordinary opaque id.
 */
const PREFIX = 'call_gs1_'
const NONCE = 6
const HAS_SIGNATURE = 1
const SIGNATURE_BYTES = 2
const HAS_ID = 4

export interface CarriedCallData {
  signature?: string
  geminiId?: string
}

export function encodeToolCallId(data: CarriedCallData): string {
  const { signature, geminiId } = data
  if (signature === undefined && geminiId === undefined) return `call_${randomBytes(12).toString('hex')}`
  let flags = 0
  const pieces: Buffer[] = []
  if (geminiId !== undefined) {
    const id = Buffer.from(geminiId, 'utf8')
    if (id.length <= 0xffff) {
      flags |= HAS_ID
      const len = Buffer.alloc(2)
      len.writeUInt16BE(id.length)
      pieces.push(len, id)
    }
  }
  if (signature !== undefined) {
    flags |= HAS_SIGNATURE
    const decoded = Buffer.from(signature, 'base64')
    if (decoded.toString('base64') === signature) {
      flags |= SIGNATURE_BYTES
      pieces.push(decoded)
    } else {
      pieces.push(Buffer.from(signature, 'utf8'))
    }
  }
  const frame = Buffer.concat([randomBytes(NONCE), Buffer.from([flags]), ...pieces])
  return PREFIX + frame.toString('base64url')
}

export function decodeToolCallId(id: unknown): CarriedCallData {
  if (typeof id !== 'string' || !id.startsWith(PREFIX)) return {}
  const body = id.slice(PREFIX.length)
  if (!/^[A-Za-z0-9_-]+$/.test(body)) return {}
  const frame = Buffer.from(body, 'base64url')
  if (frame.length < NONCE + 1) return {}
  const flags = frame[NONCE]
  let at = NONCE + 1
  const out: CarriedCallData = {}
  if (flags & HAS_ID) {
    if (frame.length < at + 2) return {}
    const len = frame.readUInt16BE(at)
    at += 2
    if (frame.length < at + len) return {}
    out.geminiId = frame.subarray(at, at + len).toString('utf8')
    at += len
  }
  if (flags & HAS_SIGNATURE) {
    const rest = frame.subarray(at)
    out.signature = flags & SIGNATURE_BYTES ? rest.toString('base64') : rest.toString('utf8')
  }
  return out
}
