// The counter thread's memo of counted pieces (tokens/piece-memo.ts): a conversation sent again with one more turn
// is counted by its new pieces only, with the same total; the memo is bounded, least recently used out first, and
// keeps no text alive.
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base'
import { describe, expect, it } from 'vitest'
import { PieceMemo } from '../../../electron/gateway/tokens/piece-memo.js'
import { textPieces } from '../../../electron/gateway/tokens/token-slices.js'
import { collectGarbage } from '../../helpers/collect-garbage.js'

/** A memo over o200k that records every piece it had to count. */
function memoCounting(size: number) {
  const counted: string[] = []
  const memo = new PieceMemo((piece) => (counted.push(piece), countTokens(piece)), size)
  const count = (text: string) => [...textPieces(text)].reduce((sum, piece) => sum + memo.countPiece(piece), 0)
  return { memo, counted, count }
}

const turn = (i: number) => `user\nStep ${i}: read src/module${i}.ts and explain what compute() returns for ${i} items.\nassistant\n` +
  `It returns the sum of the ${i} values, each weighted by its position; the function also caches the result per input.\n`

describe('the memo of counted pieces', () => {
  it('a conversation sent again with one more turn: the same total as counting it whole, its new pieces alone counted', () => {
    const { counted, count } = memoCounting(8192)
    const before = Array.from({ length: 60 }, (_, i) => turn(i)).join('')
    const after = before + turn(60)
    const first = count(before)
    expect(first).toBe([...textPieces(before)].reduce((sum, piece) => sum + countTokens(piece), 0))
    const countedFirst = counted.length
    expect(countedFirst).toBeGreaterThan(20)
    counted.length = 0
    expect(count(after)).toBe([...textPieces(after)].reduce((sum, piece) => sum + countTokens(piece), 0))
    // The pieces of `before` are cut the same way inside `after`: only the last one or two of it, and the new turn's.
    expect(counted.length).toBeLessThanOrEqual(3)
    expect(counted.join('').length).toBeLessThan(turn(60).length + 512)
  })

  it('holds at most its size, dropping the least recently used first', () => {
    const { memo, counted } = memoCounting(3)
    for (const piece of ['alpha', 'beta', 'gamma']) memo.countPiece(piece)
    // alpha used again: beta is now the oldest.
    memo.countPiece('alpha')
    memo.countPiece('delta')
    expect(memo.remembered).toBe(3)
    counted.length = 0
    for (const piece of ['alpha', 'gamma', 'delta']) memo.countPiece(piece)
    expect(counted).toEqual([])
    memo.countPiece('beta')
    expect(counted).toEqual(['beta'])
  })

  it('keeps no text alive: the pieces are slices of their prompt, and the memo keeps only their hashes', async () => {
    const memo = new PieceMemo((piece) => piece.length, 8192)
    const heapUsed = async () => (await collectGarbage(), process.memoryUsage().heapUsed)
    const baseline = await heapUsed()
    // 20 MB of text (one byte a character), as one string.
    let prompt: string | undefined = Array.from({ length: 160_000 }, (_, i) => turn(i)).join('').slice(0, 20_000_000)
    expect(prompt.length).toBe(20_000_000)
    for (const piece of textPieces(prompt)) memo.countPiece(piece)
    prompt = undefined
    expect(memo.remembered).toBe(8192)
    // Had the memo kept a piece, it would keep the whole 20 MB prompt.
    expect((await heapUsed()) - baseline).toBeLessThan(5_000_000)
  })
})
