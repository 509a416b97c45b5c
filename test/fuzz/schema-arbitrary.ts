import fc from 'fast-check'

/**
 * fast-check arbitraries derived from the JSON Schemas the gateway validates with, so a new field of a request
 * schema is fuzzed without a test change. Understands the subset the project's schemas use: type (one or a list),
 * enum, const, properties/required, items, minItems/maxItems, anyOf/oneOf, minimum/maximum/exclusiveMinimum,
 * minLength/maxLength and pattern. allOf/if/then/not only narrow what is valid and are left to the gateway to check.
 */
export type Schema = Record<string, unknown> | boolean

/**
 * Per-field arbitraries by property name, for values a schema cannot say are safe (model ids, URLs to fetch): an
 * arbitrary, or a function of the one the schema gives (e.g. to send a field less often: undefined is left out).
 */
export type Overrides = Record<string, fc.Arbitrary<unknown> | ((derived: fc.Arbitrary<unknown>) => fc.Arbitrary<unknown>)>

function fieldArbitrary(key: string, schema: Schema, overrides: Overrides, depth: number): fc.Arbitrary<unknown> {
  const override = overrides[key]
  if (override === undefined) return schemaArbitrary(schema, overrides, depth)
  return typeof override === 'function' ? override(schemaArbitrary(schema, overrides, depth)) : override
}

const obj = (s: Schema): Record<string, unknown> => (typeof s === 'object' ? s : {})

/** Text of every kind: ascii, full unicode (astral, combining, RTL), control characters and escapes. */
export const anyText = (maxLength = 40): fc.Arbitrary<string> =>
  fc.oneof(
    fc.string({ maxLength }),
    fc.string({ unit: 'grapheme', maxLength }),
    fc.string({ unit: 'binary', maxLength }),
    fc.constantFrom('\u0000', '\ud83d\ude00\u200d\u202e', 'e\u0301', '</script>', '%00', '\\u0000', '${x}', '\r\n\r\n'),
  )

function stringArbitrary(s: Record<string, unknown>): fc.Arbitrary<string> {
  const minLength = typeof s.minLength === 'number' ? s.minLength : 0
  const maxLength = typeof s.maxLength === 'number' ? Math.min(s.maxLength, minLength + 60) : minLength + 60
  if (typeof s.pattern === 'string') {
    const pattern = new RegExp(s.pattern)
    const limit = typeof s.maxLength === 'number' ? s.maxLength : Infinity
    return fc.stringMatching(pattern).filter((v) => v.length >= minLength && v.length <= limit)
  }
  return fc.oneof(fc.string({ minLength, maxLength }), fc.string({ unit: 'grapheme', minLength, maxLength }))
}

function numberArbitrary(s: Record<string, unknown>, integer: boolean): fc.Arbitrary<number> {
  const exclusive = typeof s.exclusiveMinimum === 'number' ? s.exclusiveMinimum : undefined
  const min = typeof s.minimum === 'number' ? s.minimum : exclusive !== undefined ? exclusive + (integer ? 1 : 1e-6) : undefined
  const max = typeof s.maximum === 'number' ? s.maximum : undefined
  if (integer) {
    const inRange = fc.integer({ min: min ?? -1_000, max: max ?? 100_000 })
    return fc.oneof({ arbitrary: inRange, weight: 4 }, fc.constantFrom(...[0, 1, 2, 16, 4096].filter((v) => (min ?? -Infinity) <= v && v <= (max ?? Infinity))))
  }
  return fc.double({ min: min ?? -1e6, max: max ?? 1e6, noNaN: true, noDefaultInfinity: true })
}

function typedArbitrary(type: string, s: Record<string, unknown>, overrides: Overrides, depth: number): fc.Arbitrary<unknown> {
  switch (type) {
    case 'string': return stringArbitrary(s)
    case 'integer': return numberArbitrary(s, true)
    case 'number': return numberArbitrary(s, false)
    case 'boolean': return fc.boolean()
    case 'null': return fc.constant(null)
    case 'array': return arrayArbitrary(s, overrides, depth)
    case 'object': return objectArbitrary(s, overrides, depth)
    default: return fc.jsonValue({ maxDepth: 2 })
  }
}

function arrayArbitrary(s: Record<string, unknown>, overrides: Overrides, depth: number): fc.Arbitrary<unknown[]> {
  const minLength = typeof s.minItems === 'number' ? s.minItems : 0
  const maxLength = typeof s.maxItems === 'number' ? Math.min(s.maxItems, minLength + 3) : minLength + 3
  const items = s.items === undefined ? fc.jsonValue({ maxDepth: 2 }) : schemaArbitrary(s.items as Schema, overrides, depth + 1)
  return fc.array(items, { minLength, maxLength })
}

function objectArbitrary(s: Record<string, unknown>, overrides: Overrides, depth: number): fc.Arbitrary<Record<string, unknown>> {
  const properties = obj(s.properties as Schema)
  const required = new Set(Array.isArray(s.required) ? (s.required as string[]) : [])
  const fields = Object.entries(properties).filter(([, p]) => p !== false)
  if (fields.length === 0) return fc.dictionary(fc.string({ maxLength: 8 }), fc.jsonValue({ maxDepth: 1 }), { maxKeys: 3 })
  const model = Object.fromEntries(fields.map(([k, p]) => [k, fieldArbitrary(k, p as Schema, overrides, depth + 1)]))
  const requiredKeys = fields.map(([k]) => k).filter((k) => required.has(k))
  return fc.record(model, { requiredKeys })
}

/** Values valid for `schema` as far as its own keywords go (depth-capped so recursive shapes stay small). */
export function schemaArbitrary(schema: Schema, overrides: Overrides = {}, depth = 0): fc.Arbitrary<unknown> {
  if (schema === false) return fc.constant(undefined)
  const s = obj(schema)
  if ('const' in s) return fc.constant(s.const)
  if (Array.isArray(s.enum)) return fc.constantFrom(...(s.enum as unknown[]))
  const branches = (s.anyOf ?? s.oneOf) as Schema[] | undefined
  if (branches) return fc.oneof(...branches.map((b) => schemaArbitrary({ ...s, anyOf: undefined, oneOf: undefined, ...obj(b) }, overrides, depth)))
  const types = Array.isArray(s.type) ? (s.type as string[]) : typeof s.type === 'string' ? [s.type] : s.properties ? ['object'] : []
  if (types.length === 0 || depth > 6) return fc.jsonValue({ maxDepth: 2 })
  return fc.oneof(...types.map((t) => typedArbitrary(t, s, overrides, depth)))
}

/** Values of a wrong type or out of range for any field: what a careless or hostile client sends. */
export const wrongValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom<unknown>(
    'yes', 'true', '2', '-1', '1e309', 'NaN', 'Infinity', '-Infinity', '', ' ', 'null', '[]', '{}', '0x10',
    null, true, false, 0, -1, -0, 1.5, 2 ** 53 + 1, -(2 ** 53), 1e308, -1e308, 5e-324,
    [], [null], {}, { '': '' }, [[[]]], { type: 7 },
  ),
  fc.integer(),
  fc.double(),
  anyText(),
  fc.string({ minLength: 5_000, maxLength: 20_000 }),
  fc.jsonValue({ maxDepth: 3 }),
)
