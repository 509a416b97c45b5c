import { describe, expect, it } from 'vitest'
import { translatePlaceholders } from '../../../../electron/gateway/store/pg-sql.js'

describe('placeholders for PostgreSQL', () => {
  it.each([
    ['SELECT * FROM t WHERE a = ? AND b = ?', 'SELECT * FROM t WHERE a = $1 AND b = $2', 2],
    [`SELECT '?', 'it''s ?', "odd?name" FROM t WHERE a = ?`, `SELECT '?', 'it''s ?', "odd?name" FROM t WHERE a = $1`, 1],
    ['SELECT ? -- why?\n, ? /* and ? here */', 'SELECT $1 -- why?\n, $2 /* and ? here */', 2],
    ['SELECT $$ ? $$, $fn$ ? $fn$, ?', 'SELECT $$ ? $$, $fn$ ? $fn$, $1', 1],
    ['SELECT @a, ?', 'SELECT @a, $1', 1],
  ])('positional: %s', (text, expected, count) => {
    expect(translatePlaceholders(text, false)).toEqual({ text: expected, names: [], count })
  })

  it.each([
    ['UPDATE t SET a = @a, b = @b WHERE id = @id AND a < @a', 'UPDATE t SET a = $1, b = $2 WHERE id = $3 AND a < $1', ['a', 'b', 'id']],
    [`SELECT '@a', "@b", @c_1 -- @d`, `SELECT '@a', "@b", $1 -- @d`, ['c_1']],
    [`SELECT data @> '{}' , @x, ?`, `SELECT data @> '{}' , $1, ?`, ['x']],
  ])('named: %s', (text, expected, names) => {
    expect(translatePlaceholders(text, true)).toEqual({ text: expected, names, count: names.length })
  })

  it('translates a statement once and reuses the translation', () => {
    const text = 'SELECT ? AS cached_once'
    expect(translatePlaceholders(text, false)).toBe(translatePlaceholders(text, false))
    expect(translatePlaceholders(text, true)).not.toBe(translatePlaceholders(text, false))
  })
})
