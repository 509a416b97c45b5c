import type { IncomingMessage } from 'node:http'
import { gatewayError } from './errors.js'

/** Spec §8: 60 MB. */
export const MAX_BODY_BYTES = 60_000_000

export function tooLarge() {
  // Closing the connection is what lets the gateway stop reading an oversized body.
  return gatewayError('request_too_large', 'request_too_large', { limit: MAX_BODY_BYTES }, { headers: { connection: 'close' } })
}

/** Refuses by Content-Length before reading a byte. */
export function checkDeclaredLength(req: IncomingMessage): void {
  const declared = req.headers['content-length']
  if (declared !== undefined && Number(declared) > MAX_BODY_BYTES) throw tooLarge()
}

/** Reads the body into one buffer, stopping at the cap (bodies sent without a length are counted as they come). */
export function readBody(req: IncomingMessage): Promise<Buffer> {
  checkDeclaredLength(req)
  // Stream events, not an async iterator: this runs on every request and the iterator costs more.
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    let size = 0
    const onData = (chunk: Buffer) => {
      size += chunk.length
      if (size > MAX_BODY_BYTES) {
        req.off('data', onData)
        req.pause()
        reject(tooLarge())
        return
      }
      chunks.push(chunk)
    }
    req.on('data', onData)
    req.once('end', () => resolve(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, size)))
    req.once('error', reject)
    req.once('aborted', () => reject(new Error('client aborted')))
  })
}

/**
 * Reads and parses a JSON object body, with the bytes it came from (relays forward them untouched when
 * they can); 400 for anything that is not a JSON object. The content type is not checked: `curl -d`
 * sends JSON labelled as a form, and the body decides.
 */
export async function readJson(req: IncomingMessage): Promise<{ value: Record<string, unknown>; raw: Buffer }> {
  const raw = await readBody(req)
  let value: unknown
  try {
    value = JSON.parse(raw.toString('utf8'))
  } catch (err) {
    throw gatewayError('invalid_json', 'invalid_json', { detail: (err as Error).message })
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw gatewayError('invalid_request', 'body_not_object')
  return { value: value as Record<string, unknown>, raw }
}
