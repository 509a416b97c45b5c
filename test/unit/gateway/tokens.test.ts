import fc from 'fast-check'
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base'
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { GatewayError } from '../../../electron/gateway/errors.js'
import { ClientAbort } from '../../../electron/gateway/client/client-abort.js'
import { countQwenTokens, loadQwenTokenizer } from '../../../electron/gateway/families/qwen-tokens.js'
import { PIECE_CHARS, textPieces } from '../../../electron/gateway/tokens/token-slices.js'
import { countingInline, countTextTokens, INLINE_COUNT_CHARS, TOKEN_WORKER_IDLE_MS, tokenCounterRunning, tokenThreadRunning } from '../../../electron/gateway/tokens/tokens.js'
import { longestBlock } from '../../helpers/event-loop-probe.js'
import { until } from '../../helpers/until.js'

/** A deterministic string of `n` lowercase letters with no space or punctuation (built in one buffer: no garbage to collect). */
function spaceless(n: number, seed = 7): string {
  const bytes = Buffer.alloc(n)
  let x = seed
  for (let i = 0; i < n; i++) {
    x = (x * 1103515245 + 12345) % 2147483648
    bytes[i] = 97 + (x % 26)
  }
  return bytes.toString('latin1')
}

beforeAll(async () => {
  // Loading Qwen's tables is a one-time block (on the first Qwen request); it is not what is measured here.
  await loadQwenTokenizer()
}, 60_000)

/** Prose longer than INLINE_COUNT_CHARS: counted by the thread. */
const LONG = 'The first count of a fresh thread. '.repeat(40)

describe('the counter thread', () => {
  afterEach(() => vi.useRealTimers())

  it('is kept through a conversation\'s pauses: every held request counts its prompt, and a new counter makes it wait', () => {
    expect(TOKEN_WORKER_IDLE_MS).toBeGreaterThanOrEqual(5 * 60_000)
  })

  it('starts on the first long count, loading the tokenizer without holding the event loop, and ends once idle', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })
    expect(LONG.length).toBeGreaterThan(INLINE_COUNT_CHARS)
    const { result, blockedMs } = await longestBlock(() => countTextTokens(LONG))
    expect(result).toBe([...textPieces(LONG)].reduce((sum, piece) => sum + countTokens(piece), 0))
    expect(blockedMs).toBeLessThan(100)
    expect([tokenThreadRunning(), countingInline()]).toEqual([true, false])
    vi.advanceTimersByTime(TOKEN_WORKER_IDLE_MS - 1)
    expect(tokenCounterRunning()).toBe(true)
    vi.advanceTimersByTime(1)
    expect(tokenCounterRunning()).toBe(false)
    // A long count after that starts a new thread, which ends in its turn.
    expect(await countTextTokens(`again ${LONG}`)).toBe([...textPieces(`again ${LONG}`)].reduce((sum, piece) => sum + countTokens(piece), 0))
    expect(tokenThreadRunning()).toBe(true)
    vi.advanceTimersByTime(TOKEN_WORKER_IDLE_MS)
    expect(tokenThreadRunning()).toBe(false)
  }, 60_000)
})

describe('short texts on the event loop', () => {
  afterEach(() => vi.useRealTimers())

  it('the first short count builds the tables on the event loop in slices, while it turns, and starts no thread', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })
    expect([tokenCounterRunning(), countingInline()]).toEqual([false, false])
    // The build is 60–100 ms of work: in slices of ~4 ms, the event loop is never held for long.
    const { result: [first, second], blockedMs } = await longestBlock(() => Promise.all([countTextTokens('The first short count.'), countTextTokens('And one asked meanwhile.')]))
    expect([first, second]).toEqual([countTokens('The first short count.'), countTokens('And one asked meanwhile.')])
    expect(blockedMs).toBeLessThan(40)
    expect([tokenThreadRunning(), countingInline()]).toEqual([false, true])
    // Kept while short counts come (those since the last look), let go at the first look that finds none.
    vi.advanceTimersByTime(TOKEN_WORKER_IDLE_MS)
    expect(countingInline()).toBe(true)
    vi.advanceTimersByTime(TOKEN_WORKER_IDLE_MS - 1)
    expect(countingInline()).toBe(true)
    vi.advanceTimersByTime(1)
    expect(countingInline()).toBe(false)
    // The next short count builds them again.
    expect(await countTextTokens('Built again.')).toBe(countTokens('Built again.'))
    expect([tokenThreadRunning(), countingInline()]).toEqual([false, true])
  }, 60_000)

  it('a short text is counted on the event loop, exactly as the thread counts it', async () => {
    await countTextTokens('Builds the tables.')
    expect(countingInline()).toBe(true)
    // Counted before this function returns: no trip to the thread.
    let counted: number | undefined
    void countTextTokens('Hello, world!').then((n) => (counted = n))
    await Promise.resolve()
    expect(counted).toBe(countTokens('Hello, world!'))
    // The same pieces as the thread's (token-slices.ts), so the same count.
    await fc.assert(
      fc.asyncProperty(fc.oneof(fc.string({ unit: 'grapheme', maxLength: INLINE_COUNT_CHARS }), fc.constantFrom(spaceless(INLINE_COUNT_CHARS), spaceless(300, 3))), async (text) => {
        expect(await countTextTokens(text)).toBe([...textPieces(text)].reduce((sum, piece) => sum + countTokens(piece), 0))
      }),
      { numRuns: 200 },
    )
    expect([countingInline(), tokenThreadRunning()]).toEqual([true, false])
  })

  it('a short count reads only the client\'s flag: no AbortSignal is made for it, and a client gone is a 499', async () => {
    await countTextTokens('Builds the tables.')
    let signalsAsked = 0
    const client = { aborted: false, get signal() { signalsAsked++; return new AbortController().signal } }
    expect(await countTextTokens('Hello, world!', { client })).toBe(countTokens('Hello, world!'))
    expect(signalsAsked).toBe(0)
    const gone = new ClientAbort()
    gone.abort()
    const err = await countTextTokens('Hello, world!', { client: gone }).then(() => undefined, (e: unknown) => e)
    expect((err as GatewayError).status).toBe(499)
    expect((err as GatewayError).code).toBe('client_closed_request')
  })
})

describe('textPieces', () => {
  it('pieces concatenate back to the text, are at most PIECE_CHARS long and never split a surrogate pair', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 3000 }), (text) => {
        const pieces = [...textPieces(text)]
        expect(pieces.join('')).toBe(text)
        for (const piece of pieces) {
          expect(piece.length).toBeLessThanOrEqual(PIECE_CHARS)
          expect(piece.length).toBeGreaterThan(0)
          expect(/[\uD800-\uDBFF]$/.test(piece) && text.length > piece.length).toBe(false)
        }
      }),
      { numRuns: 200 },
    )
  })

  it('prose is cut only before the space that starts a word', () => {
    const text = 'The quick brown fox jumps over the lazy dog. '.repeat(40)
    for (const piece of [...textPieces(text)].slice(1)) expect(piece).toMatch(/^ \S/)
  })
})

describe('countTextTokens', () => {
  it.each<[string, string]>([
    ['prose', 'The quick brown fox jumps over the lazy dog; it was not amused. '.repeat(500)],
    ['lines of code', 'export function add(a: number, b: number): number {\n  return a + b // sum\n}\n\n'.repeat(400)],
    ['minified JSON', JSON.stringify(Array.from({ length: 800 }, (_, i) => ({ id: i, name: `item-${i}`, price: i * 1.5, tags: ['x', 'y'] })))],
    ['Chinese and English with punctuation', '人工智能正在改变世界，AI is changing the world. 这是一个测试。\n'.repeat(400)],
    ['markdown', '## Heading\n\n- item one\n- item two with `code`\n\n> quote, and **bold** text.\n\n'.repeat(300)],
    ['short text', 'Hello!'],
  ])('ordinary text (%s) counts exactly as the tokenizer counts the whole text', async (_, text) => {
    expect(await countTextTokens(text)).toBe(countTokens(text))
  })

  it('a run without any break is within one token per cut (a cut every PIECE_CHARS / 2 at most)', async () => {
    const text = spaceless(20_000)
    const whole = countTokens(text)
    expect(Math.abs((await countTextTokens(text)) - whole)).toBeLessThanOrEqual(Math.ceil(text.length / (PIECE_CHARS / 2)))
  })

  it('text that looks like a special token is counted as plain text, never refused', async () => {
    expect(await countTextTokens('say <|endoftext|> twice')).toBe(countTokens('say <|endoftext|> twice', { disallowedSpecial: new Set() }))
    expect(await countTextTokens('')).toBe(0)
  })

  it.each([['160 KB', 160 * 1024], ['1 MB', 1024 * 1024]])('a %s string without spaces is counted holding the event loop under 100 ms at a time', async (_, size) => {
    const text = spaceless(size)
    const { result, blockedMs } = await longestBlock(() => countTextTokens(text))
    expect(result).toBeGreaterThan(size / 10)
    expect(blockedMs).toBeLessThan(100)
  }, 120_000)

  it('a fired signal stops the count with 499 client_closed_request', async () => {
    const abort = new ClientAbort()
    const counting = countTextTokens(spaceless(1024 * 1024), { client: abort })
    setImmediate(() => abort.abort())
    const err = await counting.then(() => undefined, (e: unknown) => e)
    expect(err).toBeInstanceOf(GatewayError)
    expect((err as GatewayError).status).toBe(499)
    expect((err as GatewayError).code).toBe('client_closed_request')
  })
})

describe('countQwenTokens (the Qwen input cap)', () => {
  it('a 160 KB string without spaces is counted holding the event loop under 100 ms at a time', async () => {
    const text = spaceless(160 * 1024)
    const { result, blockedMs } = await longestBlock(() => countQwenTokens([`<|im_start|>user\n${text}<|im_end|>\n`]))
    expect(result).toBeGreaterThan(16 * 1024)
    expect(blockedMs).toBeLessThan(100)
  }, 120_000)
})
