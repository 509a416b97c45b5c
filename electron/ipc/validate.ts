import { IpcError } from './result.js'

/** Longest text the clipboard channel takes. */
export const MAX_TEXT = 100_000
// The URL goes to the OS's URL handler; nothing the app links to comes near this.
const MAX_URL = 8_192

const invalid = (message: string) => new IpcError('IPC_INVALID_PAYLOAD', message)

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

/** For channels whose request is `void`: anything but no payload is refused. */
export function parseNone(payload: unknown): void {
  if (payload !== undefined && payload !== null) throw invalid('this channel takes no payload')
}

/** `{ text }`: a string of at most MAX_TEXT characters. */
export function parseText(payload: unknown): { text: string } {
  if (!isRecord(payload) || typeof payload.text !== 'string') throw invalid('expected { text: string }')
  if (payload.text.length > MAX_TEXT) throw invalid(`text is longer than ${MAX_TEXT} characters`)
  return { text: payload.text }
}

/** `{ url }`: an absolute http or https URL; other schemes (file:, javascript:, custom handlers) are refused. */
export function parseHttpUrl(payload: unknown): { url: string } {
  if (!isRecord(payload) || typeof payload.url !== 'string') throw invalid('expected { url: string }')
  if (payload.url.length > MAX_URL) throw invalid(`url is longer than ${MAX_URL} characters`)
  let url: URL
  try {
    url = new URL(payload.url)
  } catch {
    throw invalid('url does not parse')
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw invalid('only http and https URLs open externally')
  return { url: url.href }
}
