import { hash } from 'node:crypto'

/**
 * The counts of pieces already counted (token-slices.ts), by their text's SHA-1: an agent sends its whole conversation
 * again with every request, and the pieces of what it sent before are cut the same way again (cuts depend on the text
 * from the start only), so a second count of a longer prompt counts only the pieces it has not seen. A hit costs a
 * hash, ~16 times less than a piece's BPE. Keyed by hash, not by the piece: a piece is a slice of its whole text, which
 * it would keep alive. At most `size` pieces, the least recently used dropped first.
 */
export class PieceMemo {
  readonly #counts = new Map<string, number>()

  constructor(
    private readonly count: (piece: string) => number,
    private readonly size: number,
  ) {}

  /** The piece's count: remembered, else counted and remembered. */
  countPiece(piece: string): number {
    const key = hash('sha1', piece, 'base64')
    const known = this.#counts.get(key)
    if (known !== undefined) {
      // Used again: to the back of the line.
      this.#counts.delete(key)
      this.#counts.set(key, known)
      return known
    }
    const counted = this.count(piece)
    if (this.#counts.size >= this.size) this.#counts.delete(this.#counts.keys().next().value!)
    this.#counts.set(key, counted)
    return counted
  }

  /** How many pieces are remembered. */
  get remembered(): number {
    return this.#counts.size
  }
}
