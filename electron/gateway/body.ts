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
export async function readBody(req: IncomingMessage): Promise<Buffer> {
  checkDeclaredLength(req)
  const chunks: Buffer[] = []
  let size = 0
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length
    if (size > MAX_BODY_BYTES) throw tooLarge()
    chunks.push(chunk)
  }
  return chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, size)
}

/**
 * Reads and parses a JSON object body; 400 for anything else. The content type is not checked:
 * `curl -d` sends JSON labelled as a form, and the body decides.
 */
export async function readJsonObject(req: IncomingMessage): Promise<Record<string, unknown>> {
  const raw = await readBody(req)
  let value: unknown
  try {
    value = JSON.parse(raw.toString('utf8'))
  } catch (err) {
    throw gatewayError('invalid_json', 'invalid_json', { detail: (err as Error).message })
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw gatewayError('invalid_request', 'body_not_object')
  return value as Record<string, unknown>
}
