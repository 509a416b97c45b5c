/**
 * How deep `[`/`{` may nest in a JSON text the gateway parses. Real API bodies stay far below it (a chat
 * body is about 6 levels, a tool schema rarely 20); past it, recursive work on the parsed value (schema
 * checks, translation, JSON.stringify) would run out of stack.
 */
export const MAX_JSON_DEPTH = 128

const QUOTE = 0x22
const BACKSLASH = 0x5c
const OPEN_ARRAY = 0x5b
const OPEN_OBJECT = 0x7b
const CLOSE_ARRAY = 0x5d
const CLOSE_OBJECT = 0x7d

/**
 * True when `text` (JSON bytes or a string) nests arrays and objects deeper than `max` levels.
 * One linear pass that does not parse: brackets inside strings do not count, escaped quotes do not end one.
 * Safe on UTF-8 bytes (no byte of a multi-byte character is below 0x80). Invalid JSON is left to JSON.parse.
 * Apply it before JSON.parse to any body from outside: client requests and upstream answers alike.
 */
export function exceedsJsonDepth(text: Uint8Array | string, max = MAX_JSON_DEPTH): boolean {
  const bytes = typeof text === 'string' ? undefined : Buffer.from(text.buffer, text.byteOffset, text.byteLength)
  const length = text.length
  const at = bytes ? (i: number) => bytes[i] : (i: number) => (text as string).charCodeAt(i)
  const nextQuote = bytes ? (from: number) => bytes.indexOf(QUOTE, from) : (from: number) => (text as string).indexOf('"', from)
  let depth = 0
  for (let i = 0; i < length; i++) {
    const c = at(i)
    if (c === OPEN_ARRAY || c === OPEN_OBJECT) {
      if (++depth > max) return true
    } else if (c === CLOSE_ARRAY || c === CLOSE_OBJECT) {
      depth--
    } else if (c === QUOTE) {
      i = stringEnd(i, at, nextQuote)
      if (i < 0) return false
    }
  }
  return false
}

/** The index of the quote that closes the string opened at `open`, or -1 when it never closes. */
function stringEnd(open: number, at: (i: number) => number, nextQuote: (from: number) => number): number {
  let from = open + 1
  for (;;) {
    const quote = nextQuote(from)
    if (quote < 0) return -1
    // A quote preceded by an odd run of backslashes is escaped; each run is counted once, so this stays linear.
    let backslashes = 0
    while (at(quote - 1 - backslashes) === BACKSLASH) backslashes++
    if (backslashes % 2 === 0) return quote
    from = quote + 1
  }
}
