/**
 * o200k_base token counts (the GPT-4o family's byte-pair encoding, as tiktoken defines it), held compactly:
 * every token's bytes in one Buffer, their ends in a Uint32Array and an open-addressing hash table of ranks,
 * ~5 MB in all where a JS string and Map entry per token cost ~50 MB. Special-token text ("<|endoftext|>")
 * counts as the plain text it is, never as the special token. The counts are gpt-tokenizer's but for U+FEFF, which
 * its UTF-8 decoding drops as a byte order mark while merging (it counts "\ufeff" as 2; tiktoken, and this, as 1).
 *
 * Ranks come from the `<base64 bytes> <rank>` lines of gpt-tokenizer's packaged `data/o200k_base.tiktoken`.
 */
import { readFileSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { createRequire } from 'node:module'

/** The ranks file: found from this module both in the sources and beside a bundle (the package stays external). */
export const O200K_RANKS_FILE = createRequire(import.meta.url).resolve('gpt-tokenizer/data/o200k_base.tiktoken')

/** o200k_base's pre-tokenizer (tiktoken's pattern; its case-insensitive contractions spelt out, as JS has no `(?i:)`). */
const CONTRACTION = String.raw`(?:'(?:[sS]|[dD]|[mM]|[tT]|[lL][lL]|[vV][eE]|[rR][eE]))?`
const PRE_TOKEN = new RegExp(
  String.raw`[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+${CONTRACTION}` +
    String.raw`|[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*${CONTRACTION}` +
    String.raw`|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n/]*|\s*[\r\n]+|\s+(?!\S)|\s+`,
  'gu',
)

/** What `rankOf` answers for bytes that are no token (above every rank, so merging never picks it). */
export const NO_RANK = 0x7fffffff

/** Pre-tokens whose count took merging, remembered up to this many (then forgotten all at once). */
const CACHE_ENTRIES = 4096

/** 32-bit FNV-1a of `bytes[start, end)`. */
function hashBytes(bytes: Uint8Array, start: number, end: number): number {
  let h = 0x811c9dc5
  for (let i = start; i < end; i++) h = Math.imul(h ^ bytes[i], 0x01000193)
  return h >>> 0
}

const BASE64 = new Int8Array(128).fill(-1)
for (const [i, ch] of [...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/'].entries()) BASE64[ch.charCodeAt(0)] = i

/** Lines read, or tokens placed in the hash table, between two pauses of a build in steps (`buildTables`). */
const LINES_PER_STEP = 8_192

/** A build in steps: it pauses (yields) every LINES_PER_STEP lines, so that it can run in slices. */
type Steps<T> = Generator<void, T, void>

/** Runs `steps` to the end at once. */
function finish<T>(steps: Steps<T>): T {
  for (;;) {
    const step = steps.next()
    if (step.done) return step.value
  }
}

/**
 * Every token's bytes, one after the other, and where each ends, from `<base64 bytes> <rank>` lines. Two passes: the
 * first sizes the arrays, so that nothing is allocated twice.
 */
function* parseRanksFile(file: Uint8Array): Steps<{ bytes: Buffer; ends: Uint32Array }> {
  let lines = 0
  let totalBytes = 0
  for (let i = 0; i < file.length; i++, lines++) {
    if (lines % LINES_PER_STEP === 0) yield
    const lineStart = i
    while (i < file.length && file[i] !== 32 && file[i] !== 10) i++
    let padding = 0
    while (padding < 2 && i - padding > lineStart && file[i - 1 - padding] === 61) padding++
    totalBytes += Math.max(0, Math.floor(((i - lineStart) * 3) / 4) - padding)
    while (i < file.length && file[i] !== 10) i++
  }
  const bytes = Buffer.alloc(totalBytes)
  const ends = new Uint32Array(lines)
  let written = 0
  let i = 0
  for (let rank = 0; rank < lines; rank++, i++) {
    if (rank % LINES_PER_STEP === 0) yield
    const fail = (why: string) => new Error(`o200k ranks: line ${rank + 1} ${why}`)
    // The token, in base64 ('=' is padding).
    let acc = 0
    let bits = 0
    for (; i < file.length && file[i] !== 32 && file[i] !== 10; i++) {
      if (file[i] === 61) continue
      const value = file[i] < 128 ? BASE64[file[i]] : -1
      if (value < 0 || written === totalBytes) throw fail('has a token that is not base64')
      acc = ((acc << 6) | value) & 0xffffff
      bits += 6
      if (bits >= 8) {
        bits -= 8
        bytes[written++] = (acc >> bits) & 0xff
      }
    }
    if (file[i] !== 32) throw fail('has no rank')
    let value = 0
    let digits = 0
    for (i++; i < file.length && file[i] >= 48 && file[i] <= 57; i++, digits++) value = value * 10 + (file[i] - 48)
    if (digits === 0 || value !== rank || (i < file.length && file[i] !== 10)) throw fail(`is not "<base64> ${rank}"`)
    ends[rank] = written
  }
  return { bytes, ends }
}

/** A ranks table's arrays. */
export interface RankTables {
  bytes: Uint8Array
  ends: Uint32Array
  slots: Int32Array
}

/** A `.tiktoken` file's tables, built in steps: its lines parsed, then each token placed in the hash table. */
function* buildTables(file: Uint8Array): Steps<RankTables> {
  const { bytes, ends } = yield* parseRanksFile(file)
  const count = ends.length
  // At most half full: probes stay short.
  let size = 1
  while (size < count * 2) size *= 2
  const mask = size - 1
  const slots = new Int32Array(size).fill(-1)
  for (let r = 0; r < count; r++) {
    if (r % LINES_PER_STEP === 0) yield
    const start = r === 0 ? 0 : ends[r - 1]
    let slot = hashBytes(bytes, start, ends[r]) & mask
    while (slots[slot] !== -1) slot = (slot + 1) & mask
    slots[slot] = r
  }
  return { bytes, ends, slots }
}

/** The ranks, keyed by token bytes. */
export class O200kRanks {
  /** All tokens' bytes, token r at [ends[r-1] (0 for r = 0), ends[r]). */
  private readonly bytes: Uint8Array
  private readonly ends: Uint32Array
  /** Open addressing, linear probing: rank, or -1 for an empty slot. */
  private readonly slots: Int32Array
  private readonly mask: number

  /**
   * From the contents of a `.tiktoken` file, whose ranks must be 0, 1, 2… in line order (tiktoken's own are), or
   * from the arrays of a table built already (`buildTables`).
   */
  constructor(source: Uint8Array | RankTables) {
    const tables = source instanceof Uint8Array ? finish(buildTables(source)) : source
    this.bytes = tables.bytes
    this.ends = tables.ends
    this.slots = tables.slots
    this.mask = tables.slots.length - 1
  }

  /** How many tokens there are. */
  get size(): number {
    return this.ends.length
  }

  /** The rank of the token made of `bytes[start, end)`, or NO_RANK if there is none. */
  rankOf(bytes: Uint8Array, start: number, end: number): number {
    const length = end - start
    for (let slot = hashBytes(bytes, start, end) & this.mask; ; slot = (slot + 1) & this.mask) {
      const r = this.slots[slot]
      if (r === -1) return NO_RANK
      const tokenEnd = this.ends[r]
      const tokenStart = r === 0 ? 0 : this.ends[r - 1]
      if (tokenEnd - tokenStart !== length) continue
      let same = true
      for (let k = 0; k < length; k++) {
        if (this.bytes[tokenStart + k] !== bytes[start + k]) {
          same = false
          break
        }
      }
      if (same) return r
    }
  }
}

/** Counts tokens, with scratch buffers and a bounded cache of its own. */
export class O200kCounter {
  private readonly encoder = new TextEncoder()
  private utf8 = new Uint8Array(1024)
  private starts = new Int32Array(1025)
  private pairRanks = new Int32Array(1025)
  private readonly cache = new Map<string, number>()

  constructor(readonly ranks: O200kRanks) {}

  /** The number of o200k_base tokens of `text`. */
  count(text: string): number {
    let total = 0
    for (const [preToken] of text.matchAll(PRE_TOKEN)) total += this.countPreToken(preToken)
    return total
  }

  private countPreToken(preToken: string): number {
    const cached = this.cache.get(preToken)
    if (cached !== undefined) return cached
    if (this.utf8.length < preToken.length * 3) this.utf8 = new Uint8Array(preToken.length * 3)
    const { written } = this.encoder.encodeInto(preToken, this.utf8)
    if (written === 1) return 1
    // A lone surrogate is written as U+FFFD's bytes. A pre-token that is a token is one (merging its bytes would
    // give that token back: true of every o200k token, so this only saves time).
    if (this.ranks.rankOf(this.utf8, 0, written) !== NO_RANK) return 1
    const count = this.mergedParts(written)
    if (this.cache.size >= CACHE_ENTRIES) this.cache.clear()
    this.cache.set(preToken, count)
    return count
  }

  /**
   * Byte-pair merging of `utf8[0, length)`: merge the adjacent pair of parts whose joined bytes have the lowest rank
   * (the leftmost of equals) until no pair is a token; the count is the number of parts left.
   */
  private mergedParts(length: number): number {
    if (this.starts.length < length + 1) {
      this.starts = new Int32Array(length + 1)
      this.pairRanks = new Int32Array(length + 1)
    }
    const { utf8, starts, pairRanks, ranks } = this
    // Part i is utf8[starts[i], starts[i + 1]); pairRanks[i] is the rank of parts i and i + 1 joined.
    for (let i = 0; i <= length; i++) starts[i] = i
    for (let i = 0; i < length - 1; i++) pairRanks[i] = ranks.rankOf(utf8, i, i + 2)
    pairRanks[length - 1] = NO_RANK
    let parts = length
    while (parts > 1) {
      let lowest = NO_RANK
      let at = -1
      for (let i = 0; i < parts - 1; i++) {
        if (pairRanks[i] < lowest) {
          lowest = pairRanks[i]
          at = i
        }
      }
      if (at < 0) break
      // Parts `at` and `at + 1` become one.
      starts.copyWithin(at + 1, at + 2, parts + 1)
      pairRanks.copyWithin(at + 1, at + 2, parts)
      parts--
      pairRanks[at] = at + 1 < parts ? ranks.rankOf(utf8, starts[at], starts[at + 2]) : NO_RANK
      if (at > 0) pairRanks[at - 1] = ranks.rankOf(utf8, starts[at - 1], starts[at + 1])
    }
    return parts
  }
}

/** The counter over the packaged ranks file (~3.6 MB read once; the file's contents are not kept). */
export function loadO200kCounter(file = O200K_RANKS_FILE): O200kCounter {
  return new O200kCounter(new O200kRanks(readFileSync(file)))
}

/**
 * `loadO200kCounter` on the event loop without holding it: the file read asynchronously, the tables built in slices
 * of about `sliceMs` each, the loop turning between them (the whole build is ~60–100 ms of work).
 */
export async function loadO200kCounterInSlices(sliceMs: number, file = O200K_RANKS_FILE): Promise<O200kCounter> {
  const steps = buildTables(await readFile(file))
  for (;;) {
    const until = performance.now() + sliceMs
    let step = steps.next()
    while (!step.done && performance.now() < until) step = steps.next()
    if (step.done) return new O200kCounter(new O200kRanks(step.value))
    await new Promise<void>((resolve) => setImmediate(resolve))
  }
}
