/**
 * Token counting that stays linear in its input and never holds the event loop for long.
 *
 * A BPE tokenizer merges each pre-token (a run of letters, of digits, …) in time that grows faster than
 * the run: one 160 KB "word" took gpt-tokenizer 15 s of uninterrupted CPU. So texts are counted in
 * pieces of at most PIECE_CHARS characters, and the work yields to the event loop every SLICE_MS.
 *
 * Error bound: pieces are cut where the tokenizers' pre-tokenizers cut anyway whenever the back half of
 * a piece offers such a place (before a space between two words, after a line break, between letters and
 * digits or punctuation), which leaves the count unchanged; ordinary prose and code are only cut there.
 * A run with no such place (a long word, base64, Chinese without punctuation) is cut anywhere but inside
 * a surrogate pair, which changes the count by about one token per cut (at most one per PIECE_CHARS / 2
 * characters of such a run).
 */
import type { AbortedFlag } from '../contract/family.js'
import { gatewayError } from '../errors.js'

/** The longest piece handed to a tokenizer: ~1 ms of BPE even for a run without any break. */
export const PIECE_CHARS = 256

/** Counting work between two yields to the event loop (a piece may add ~1-3 ms more). */
const SLICE_MS = 8

const WHITESPACE = /\s/
const LETTER = /[\p{L}\p{M}]/u
const DIGIT = /\p{N}/u

type CharClass = 'space' | 'letter' | 'digit' | 'other'

function charClass(ch: string): CharClass {
  const code = ch.charCodeAt(0)
  if (code < 128) {
    if (code === 32 || (code >= 9 && code <= 13)) return 'space'
    if ((code >= 65 && code <= 90) || (code >= 97 && code <= 122)) return 'letter'
    return code >= 48 && code <= 57 ? 'digit' : 'other'
  }
  if (WHITESPACE.test(ch)) return 'space'
  if (LETTER.test(ch)) return 'letter'
  return DIGIT.test(ch) ? 'digit' : 'other'
}

/**
 * Where to end a piece that starts at `start`: the last place in the piece's back half that a
 * pre-tokenizer cuts at anyway (a word's leading space, a line start, a line end after a word), else the last boundary between
 * letters and digits or punctuation (punctuation before letters may be glued to them, so not there),
 * else the piece's full length, one less if that would split a surrogate pair.
 */
function pieceEnd(text: string, start: number): number {
  const end = start + PIECE_CHARS
  let classBoundary = -1
  for (let i = end - 1; i > start + PIECE_CHARS / 2; i--) {
    const before = charClass(text[i - 1])
    const at = charClass(text[i])
    if (at === 'space' && before !== 'space' && text[i] === ' ' && charClass(text[i + 1] ?? ' ') !== 'space') return i
    if (text[i - 1] === '\n' && at !== 'space') return i
    // A line break after a word or number (after punctuation, o200k glues the break to it).
    if ((text[i] === '\n' || text[i] === '\r') && (before === 'letter' || before === 'digit')) return i
    if (classBoundary < 0 && at !== 'space' && before !== 'space' && at !== before && !(before === 'other' && at === 'letter')) classBoundary = i
  }
  if (classBoundary >= 0) return classBoundary
  const code = text.charCodeAt(end)
  return code >= 0xdc00 && code <= 0xdfff ? end - 1 : end
}

/** The text in pieces of at most PIECE_CHARS characters that concatenate back to it. */
export function* textPieces(text: string): Generator<string> {
  let start = 0
  while (text.length - start > PIECE_CHARS) {
    const end = pieceEnd(text, start)
    yield text.slice(start, end)
    start = end
  }
  if (start < text.length) yield text.slice(start)
}

const yieldToEventLoop = () => new Promise<void>((resolve) => setImmediate(resolve))

export interface SliceOptions {
  /** stop as soon as the count passes this (the answer is then only known to be larger) */
  stopAbove?: number
  /** the client left: stop and reject with 499 `client_closed_request` (billing counts pass none) */
  signal?: AbortedFlag
}

/**
 * Sum of `countPiece` over the pieces of every text, in slices of at most ~SLICE_MS of work with a
 * yield to the event loop between them, so that other requests go on while a huge text is counted.
 */
export async function countInSlices(texts: Iterable<string>, countPiece: (piece: string) => number, options: SliceOptions = {}): Promise<number> {
  const stopAbove = options.stopAbove ?? Infinity
  let total = 0
  let sliceStart = performance.now()
  for (const text of texts) {
    for (const piece of textPieces(text)) {
      total += countPiece(piece)
      if (total > stopAbove) return total
      if (performance.now() - sliceStart < SLICE_MS) continue
      await yieldToEventLoop()
      if (options.signal?.aborted) throw gatewayError('client_closed_request', 'client_closed_request')
      sliceStart = performance.now()
    }
  }
  return total
}
