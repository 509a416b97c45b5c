import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { exceedsJsonDepth, MAX_JSON_DEPTH } from '../../../electron/gateway/guards/json-depth.js'

/** The nesting depth of a parsed value, by recursion (fine for the small values generated here). */
function depthOf(value: unknown): number {
  if (value === null || typeof value !== 'object') return 0
  const children = Array.isArray(value) ? value : Object.values(value)
  return 1 + children.reduce((max: number, child) => Math.max(max, depthOf(child)), 0)
}

const nested = (levels: number) => '['.repeat(levels) + ']'.repeat(levels)

describe('exceedsJsonDepth', () => {
  it.each([
    ['128 levels of arrays', nested(MAX_JSON_DEPTH), false],
    ['129 levels of arrays', nested(MAX_JSON_DEPTH + 1), true],
    ['100,000 levels of arrays', nested(100_000), true],
    ['brackets inside a string', `{"a":"${'['.repeat(1000)}"}`, false],
    ['an escaped quote does not end the string', `{"a":"\\"${'{'.repeat(1000)}"}`, false],
    ['an escaped backslash before the closing quote', `{"a":"\\\\","b":${nested(200)}}`, true],
    ['an unclosed string', `{"a":"${'['.repeat(1000)}`, false],
    ['multi-byte characters', `{"名前":"${'[{'.repeat(100)}","b":[["é"]]}`, false],
  ])('%s', (_name, text, expected) => {
    expect(exceedsJsonDepth(text)).toBe(expected)
    expect(exceedsJsonDepth(Buffer.from(text))).toBe(expected)
  })

  it('agrees with the depth of any JSON value, as text and as bytes', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 8 }), fc.integer({ min: 0, max: 9 }), (value, max) => {
        const text = JSON.stringify(value)
        const expected = depthOf(value) > max
        return exceedsJsonDepth(text, max) === expected && exceedsJsonDepth(Buffer.from(text), max) === expected
      }),
      { numRuns: 500 },
    )
  })
})
