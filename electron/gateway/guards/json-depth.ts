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
  // Nesting deeper than `max` takes more than `max` brackets.
  if (text.length <= max) return false
  // One loop per kind of input, so each stays monomorphic: this runs on every request and every answer.
  return typeof text === 'string' ? stringExceeds(text, max) : bytesExceed(text, max)
}

function bytesExceed(bytes: Uint8Array, max: number): boolean {
  const length = bytes.length
  let depth = 0
  for (let i = 0; i < length; i++) {
    const c = bytes[i]
    if (c === OPEN_ARRAY || c === OPEN_OBJECT) {
      if (++depth > max) return true
    } else if (c === CLOSE_ARRAY || c === CLOSE_OBJECT) {
      depth--
    } else if (c === QUOTE) {
      // The quote that closes the string: one preceded by an even run of backslashes (each run counted once).
      for (;;) {
        i = bytes.indexOf(QUOTE, i + 1)
        if (i < 0) return false
        let backslashes = 0
        while (bytes[i - 1 - backslashes] === BACKSLASH) backslashes++
        if (backslashes % 2 === 0) break
      }
    }
  }
  return false
}

function stringExceeds(text: string, max: number): boolean {
  const length = text.length
  let depth = 0
  for (let i = 0; i < length; i++) {
    const c = text.charCodeAt(i)
    if (c === OPEN_ARRAY || c === OPEN_OBJECT) {
      if (++depth > max) return true
    } else if (c === CLOSE_ARRAY || c === CLOSE_OBJECT) {
      depth--
    } else if (c === QUOTE) {
      for (;;) {
        i = text.indexOf('"', i + 1)
        if (i < 0) return false
        let backslashes = 0
        while (text.charCodeAt(i - 1 - backslashes) === BACKSLASH) backslashes++
        if (backslashes % 2 === 0) break
      }
    }
  }
  return false
}
