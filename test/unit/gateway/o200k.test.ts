import fc from 'fast-check'
// gpt-tokenizer's own o200k_base tables are the oracle here; the gateway counts with o200k.ts.
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base'
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { loadO200kCounter, NO_RANK, O200K_RANKS_FILE, O200kCounter, O200kRanks } from '../../../electron/gateway/tokens/o200k.js'

// What the counter thread asked gpt-tokenizer for: special-token text counted as plain text.
const PLAIN_TEXT = { disallowedSpecial: new Set<string>() }
const oracle = (text: string) => countTokens(text, PLAIN_TEXT)

const counter = loadO200kCounter()

/** A `.tiktoken` file of the given tokens, ranked in order. */
const ranksFile = (...tokens: string[]) => Buffer.from(tokens.map((t, rank) => `${Buffer.from(t).toString('base64')} ${rank}\n`).join(''))

const lone = (code: number) => String.fromCharCode(code)

const CORPUS: Record<string, string> = {
  english: 'The quick brown fox jumps over the lazy dog. It was the best of times, it was the worst of times.',
  contractions: "I'm sure they'll've done it; she's, we're, you've, he'd, it's, don't, CAN'T, She'S, o'clock 'tis",
  mixedCase: 'HelloWorld XMLHttpRequest getHTTPResponseCode iPhone McDonald ALLCAPS camelCaseIdentifier',
  code: 'export async function main(argv: string[]): Promise<number> {\n\tconst x = argv.map((a) => a.trim()) // why\n\treturn x.length >>> 0\n}\n',
  json: '{"id":"chatcmpl-123","object":"chat.completion","choices":[{"index":0,"message":{"role":"assistant","content":"Hi!"}}],"usage":{"prompt_tokens":9}}',
  chinese: '这是一个中文句子，用于测试分词器。机器学习和自然语言处理。',
  japanese: '日本語のテキストです。カタカナとひらがなと漢字。',
  korean: '한국어 문장입니다. 토크나이저 테스트.',
  arabic: 'مرحبا بالعالم، هذه جملة عربية للاختبار.',
  hindi: 'नमस्ते दुनिया, यह एक परीक्षण है।',
  emoji: '👍 🎉🎉🎉 family 👨‍👩‍👧‍👦 flag 🏳️‍🌈 skin 👋🏽 keycap 1️⃣ ❤️',
  combining: 'e\u0301 a\u0300\u0323 Z\u0351\u0352\u0353\u0354a\u0300\u0301\u0302\u0303\u0304lgo n\u0303',
  whitespace: `a${' '.repeat(40)}b\n\n\n\t\t\t\n   \r\n\r\n${' '.repeat(17)}\n${'\t'.repeat(9)}end   `,
  digits: '1 12 123 1234 12345 3.14159265358979 2026-11-24 0x7fffffff 1,000,000 ١٢٣٤٥ ⅫⅣ',
  longDigits: '9'.repeat(100),
  specialTokens: '<|endoftext|> <|fim_prefix|><|fim_middle|><|fim_suffix|> <|im_start|>user<|im_sep|>hi<|im_end|> <|endofprompt|>',
  loneSurrogates: `a${lone(0xd800)}b ${lone(0xdfff)} ${lone(0xdbff)}${lone(0xdbff)} x${lone(0xdc00)}\uD83D\uDE00${lone(0xd83d)}`,
  replacementChar: '\ufffd \ufffd\ufffd abc\ufffd',
  punctuation: '!!! ??? ... --- /// \\\\ ((( ))) [[[ ]]] {{{ }}} <<< >>> *** ### @@@ $$$ %%% ^^^ &&& ||| ~~~ ``` \'\'\' """',
  urls: 'https://example.com/path/to/page?query=1&b=two#frag mailto:a@b.co ./relative/path.ts C:\\Windows\\System32',
  controls: '\u0000\u0001\u0007\u001b[31mred\u001b[0m\u007f\u0085\u00a0\u2028\u2029\u200b\u200d',
  slashesAfterLineBreaks: 'end.\n// c\nx.\r\n/usr/bin */\n/* c */\r\n//d ;\n\n//\n/ (x)\r\n/',
  repeatedRuns: `${'='.repeat(50)} ${'a'.repeat(77)} ${'ab'.repeat(40)} ${'-'.repeat(33)} ${'ha'.repeat(21)} ${'.'.repeat(19)} ${'😀'.repeat(9)}`,
  longWord: 'pneumonoultramicroscopicsilicovolcanoconiosis'.repeat(6),
  base64: Buffer.from('some bytes that become base64 text, a long run without breaks'.repeat(3)).toString('base64'),
}

describe('o200k_base counts', () => {
  it.each(Object.entries(CORPUS))('equal gpt-tokenizer’s on %s', (_name, text) => {
    expect(counter.count(text)).toBe(oracle(text))
  })

  it('equal gpt-tokenizer’s on the whole corpus as one text', () => {
    const all = Object.values(CORPUS).join('\n')
    expect(counter.count(all)).toBe(oracle(all))
  })

  it('count the empty text as none and special-token text as the plain text it is', () => {
    expect(counter.count('')).toBe(0)
    expect(counter.count('<|endoftext|>')).toBe(oracle('<|endoftext|>'))
    expect(counter.count('<|endoftext|>')).toBeGreaterThan(1)
  })

  it('equal gpt-tokenizer’s on arbitrary Unicode text (U+FEFF aside: see below)', () => {
    const piece = fc.oneof(
      fc.string({ unit: 'binary', maxLength: 40 }),
      fc.string({ unit: 'grapheme', maxLength: 40 }),
      fc.constantFrom(' ', '  ', '\n', '\r\n', '\t', "'s", "'T", "'ll", '123', '4567', 'the', 'The', 'THE', 'é', 'e\u0301', '日本', '👨‍👩‍👧', '<|endoftext|>', '/', lone(0xd800), lone(0xdc00)),
    )
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 12 }), (pieces) => {
        const text = pieces.join('').replaceAll('\ufeff', '')
        expect(counter.count(text)).toBe(oracle(text))
      }),
      { numRuns: 300 },
    )
  })

  it('count U+FEFF as tiktoken does, where gpt-tokenizer’s UTF-8 decoding drops it as a byte order mark', () => {
    // EF BB BF (U+FEFF) is o200k token 5574, and EF BB BF + "using" is token 9251.
    expect(counter.count('\ufeff')).toBe(1)
    expect(counter.count('\ufeffusing')).toBe(1)
    expect(oracle('\ufeff')).toBe(2)
  })

  it('give a long text the same count from a counter that starts with a cold cache as from one that has counted it before', () => {
    const text = Array.from({ length: 6000 }, (_, i) => `w${i.toString(36)}x${(i * 7919).toString(36)}`).join(' ')
    const fresh = loadO200kCounter()
    const first = fresh.count(text)
    expect(fresh.count(text)).toBe(first)
    expect(first).toBe(oracle(text))
  })
})

describe('O200kRanks', () => {
  const ranks = new O200kRanks(readFileSync(O200K_RANKS_FILE))
  const rankOf = (bytes: Uint8Array) => ranks.rankOf(bytes, 0, bytes.length)

  it('holds every token of the packaged file, each at its rank', () => {
    expect(O200K_RANKS_FILE).toMatch(/gpt-tokenizer[\\/]data[\\/]o200k_base\.tiktoken$/)
    const lines = readFileSync(O200K_RANKS_FILE, 'utf8').split('\n').filter(Boolean)
    expect(ranks.size).toBe(lines.length)
    for (const [rank, line] of lines.entries()) {
      const [token, value] = line.split(' ')
      expect(Number(value)).toBe(rank)
      if (rankOf(Buffer.from(token, 'base64')) !== rank) expect.fail(`token ${token} is not at rank ${rank}`)
    }
  })

  it('answers NO_RANK for bytes that are no token, and looks only at the range it is given', () => {
    expect(rankOf(Buffer.from([0xff, 0xfe, 0xfd, 0xfc]))).toBe(NO_RANK)
    expect(rankOf(Buffer.from('zqxjkvbw'))).toBe(NO_RANK)
    expect(rankOf(Buffer.from('!'))).toBe(0)
    expect(ranks.rankOf(Buffer.from('xx cocos!'), 2, 8)).toBe(199_997)
  })

  it('refuses a file whose ranks are not 0, 1, 2… in order, or whose token is not base64', () => {
    expect(() => new O200kRanks(Buffer.from('YQ== 0\nYg== 2\n'))).toThrow('o200k ranks: line 2 is not "<base64> 1"')
    expect(() => new O200kRanks(Buffer.from('YQ== 0\nYg== 1x\n'))).toThrow('o200k ranks: line 2 is not "<base64> 1"')
    expect(() => new O200kRanks(Buffer.from('YQ== 0\nY*== 1\n'))).toThrow('o200k ranks: line 2 has a token that is not base64')
    expect(() => new O200kRanks(Buffer.from('YQ== 0\n\nYg== 1\n'))).toThrow('o200k ranks: line 2 has no rank')
    // The last line's newline is optional.
    expect(new O200kRanks(Buffer.from('YQ== 0\nYg== 1')).size).toBe(2)
  })
})

describe('byte-pair merging', () => {
  it('merges the pair of lowest rank first, not the leftmost pair', () => {
    // "ab" outranks "bc": a|b|c|d → ab|c|d, and "abc" and "cd" are no tokens: 3. Merging "bc" first would reach "bcd": 2.
    const tiny = new O200kCounter(new O200kRanks(ranksFile('a', 'b', 'c', 'd', 'ab', 'bc', 'bcd')))
    expect(tiny.count('abcd')).toBe(3)
    // With no "ab" before it, "bc" is merged and reaches "bcd": bcd|d.
    expect(tiny.count('bcdd')).toBe(2)
  })

  it('keeps merging while a joined pair is a token, and counts each pre-token apart', () => {
    const tiny = new O200kCounter(new O200kRanks(ranksFile('a', 'b', ' ', 'aa', 'aaaa', ' a')))
    expect(tiny.count('aaaaaaa')).toBe(3) // aaaa|aa|a
    // Pre-tokens "aaaa" (a token) and " aaaa": "aa" (rank 3) outranks " a" (rank 5), so " |aaaa", not " a|aaa".
    expect(tiny.count('aaaa aaaa')).toBe(3)
  })
})
