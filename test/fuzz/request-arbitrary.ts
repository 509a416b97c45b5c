import fc from 'fast-check'
import { anyText, schemaArbitrary, wrongValue, type Overrides, type Schema } from './schema-arbitrary.js'

/** One generated request body: the bytes sent, and what kind of input it is (shown in a counterexample). */
export interface FuzzBody {
  kind: string
  bytes: Buffer
}

type Json = Record<string, unknown>
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v)
const PROTO_KEYS = ['__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty', 'valueOf']

/** The object sub-schema of a field (first object or array branch of an anyOf/oneOf), for walking a body with it. */
function branchSchema(schema: unknown, want: 'object' | 'array'): Json | undefined {
  if (!isObject(schema)) return undefined
  const branches = (schema.anyOf ?? schema.oneOf) as unknown[] | undefined
  if (branches) return branches.map((b) => branchSchema(b, want)).find(Boolean)
  const types = Array.isArray(schema.type) ? schema.type : [schema.type ?? (schema.properties ? 'object' : undefined)]
  return types.includes(want) ? schema : undefined
}

/** Sets an own property (so `__proto__` becomes a key of the JSON text, as a client can send it). */
function setOwn(target: Json | unknown[], key: string | number, value: unknown): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true })
}

interface Mutation { picks: number[]; op: 'set' | 'delete' | 'extra'; key: string; value: unknown }

/** Walks `picks` into the body (keys from the value and its schema), then replaces, deletes or adds one field. */
function applyMutation(body: Json, schema: Schema, m: Mutation): void {
  let node: Json | unknown[] = body
  let nodeSchema: unknown = schema
  for (const [i, pick] of m.picks.entries()) {
    const last = i === m.picks.length - 1
    if (Array.isArray(node)) {
      if (node.length === 0) return void (m.op !== 'delete' && node.push(m.value))
      const index = pick % node.length
      const child: unknown = node[index]
      const childSchema: unknown = branchSchema(nodeSchema, 'array')?.items
      if (last || (!isObject(child) && !Array.isArray(child))) return void (m.op === 'delete' ? node.splice(index, 1) : (node[index] = m.value))
      node = child as Json | unknown[]
      nodeSchema = childSchema
      continue
    }
    const properties = (branchSchema(nodeSchema, 'object')?.properties ?? {}) as Json
    const keys = [...new Set([...Object.keys(node), ...Object.keys(properties)])]
    if (keys.length === 0 || m.op === 'extra') return setOwn(node, m.op === 'extra' ? m.key : 'x', m.value)
    const key = keys[pick % keys.length]
    const child: unknown = node[key]
    if (last || (!isObject(child) && !Array.isArray(child))) return void (m.op === 'delete' ? delete node[key] : setOwn(node, key, m.value))
    node = child as Json | unknown[]
    nodeSchema = properties[key]
  }
}

const mutation: fc.Arbitrary<Mutation> = fc.record({
  picks: fc.array(fc.nat(), { minLength: 1, maxLength: 4 }),
  op: fc.constantFrom<Mutation['op']>('set', 'set', 'set', 'delete', 'extra'),
  key: fc.oneof(fc.constantFrom(...PROTO_KEYS), anyText(12)),
  value: wrongValue,
})

const text = (kind: string, body: string | Buffer): FuzzBody => ({ kind, bytes: Buffer.isBuffer(body) ? body : Buffer.from(body, 'utf8') })

/** Bodies valid by the schema's own keywords. */
export const validBody = (schema: Schema, overrides: Overrides): fc.Arbitrary<FuzzBody> =>
  schemaArbitrary(schema, overrides).map((v) => text('valid', JSON.stringify(v)))

/** Valid bodies with one to three fields replaced by wrong types, deleted, or joined by extra (prototype) keys. */
export const mutatedBody = (schema: Schema, overrides: Overrides): fc.Arbitrary<FuzzBody> =>
  fc.tuple(schemaArbitrary(schema, overrides), fc.array(mutation, { minLength: 1, maxLength: 3 })).map(([value, mutations]) => {
    const body = isObject(value) ? structuredClone(value) : {}
    // Each mutation gets its own copy of its value: a value shared by two mutations could otherwise nest in itself.
    for (const m of mutations) applyMutation(body, schema, { ...m, value: structuredClone(m.value) })
    return text('mutated', JSON.stringify(body))
  })

/** `[[[…]]]` or `{"a":{"a":…}}` `depth` levels deep, as JSON text. */
const nested = (depth: number, objects: boolean) => (objects ? '{"a":'.repeat(depth) + '1' + '}'.repeat(depth) : '['.repeat(depth) + ']'.repeat(depth))

const RAW_MARKER = '@@fuzz-raw-value@@'

/** Puts raw JSON text in place of one top-level field of a valid body. */
function withRawField(value: unknown, field: string, raw: string): string {
  const body = isObject(value) ? { ...value } : {}
  return JSON.stringify({ ...body, [field]: RAW_MARKER }).replace(`"${RAW_MARKER}"`, raw)
}

/** Hostile bodies: deep nesting, big arrays, prototype keys, invalid UTF-8, truncated and non-object JSON. */
export const hostileBody = (schema: Schema, overrides: Overrides): fc.Arbitrary<FuzzBody> => {
  const valid = schemaArbitrary(schema, overrides)
  const fields = [...Object.keys((branchSchema(schema, 'object')?.properties ?? {}) as Json), 'extra']
  const field = fc.constantFrom(...fields)
  return fc.oneof(
    fc.tuple(valid, field, fc.integer({ min: 1, max: 400 }), fc.boolean()).map(([v, f, depth, objects]) => text(`nested ${depth}`, withRawField(v, f, nested(depth, objects)))),
    fc.tuple(valid, field, fc.integer({ min: 1_000, max: 200_000 }), fc.constantFrom('0', '""', '{}', '[]', '{"role":"user","content":"x"}')).map(([v, f, n, item]) =>
      text(`array of ${n}`, withRawField(v, f, `[${Array(n).fill(item).join(',')}]`))),
    fc.tuple(valid, fc.constantFrom(
      '{"polluted":"yes"}',
      '{"__proto__":{"polluted":"yes"}}',
      '{"constructor":{"prototype":{"polluted":"yes"}}}',
    ), fc.constantFrom('__proto__', 'constructor', 'prototype')).map(([v, raw, key]) => text('prototype keys', withRawField(v, key, raw))),
    fc.tuple(valid, fc.nat(), fc.constantFrom([0xff], [0xc3], [0xed, 0xa0, 0x80], [0xf8, 0x88, 0x80, 0x80, 0x80], [0xc0, 0xaf], [0xef, 0xbb, 0xbf])).map(([v, at, bytes]) => {
      const json = Buffer.from(JSON.stringify(v))
      const cut = at % (json.length + 1)
      return text('invalid utf-8', Buffer.concat([json.subarray(0, cut), Buffer.from(bytes), json.subarray(cut)]))
    }),
    fc.tuple(valid, fc.nat()).map(([v, at]) => {
      const json = JSON.stringify(v)
      return text('truncated', json.slice(0, at % Math.max(json.length, 1)))
    }),
    fc.constantFrom('', ' ', '[]', '1', '"x"', 'null', 'true', '[{"model":"x"}]', '{', '}', '{"a":1}{"a":2}', '\ufeff{}', '{"model":"x",}', "{'model':'x'}", 'NaN', '1e999')
      .map((raw) => text('not an object', raw)),
    fc.tuple(valid, field, fc.constantFrom('1e999', '-1e999', '123456789012345678901234567890', '-0', '0.0000000000000000000001', '1E400'))
      .map(([v, f, raw]) => text('extreme number', withRawField(v, f, raw))),
    fc.tuple(valid, field, wrongValue).map(([v, f, w]) => {
      const json = JSON.stringify(isObject(v) ? v : {})
      const first = `${JSON.stringify(f)}:${JSON.stringify(w) ?? 'null'}`
      return text('duplicate key', json === '{}' ? `{${first}}` : json.replace(/^\{/, `{${first},`))
    }),
  )
}

/** Every kind of body, mostly mutated ones, the kind that finds validation gaps. */
export const anyBody = (schema: Schema, overrides: Overrides): fc.Arbitrary<FuzzBody> =>
  fc.oneof(
    { arbitrary: validBody(schema, overrides), weight: 2 },
    { arbitrary: mutatedBody(schema, overrides), weight: 5 },
    { arbitrary: hostileBody(schema, overrides), weight: 3 },
  )

/** One multipart part: a text field, or a file with its bytes. */
type Part = { name: string; text: string } | { name: string; file: Buffer; type: string }

function formText(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value) ?? ''
}

function encodeParts(parts: Part[], boundary: string): Buffer {
  const chunks = parts.map((p) => {
    const head = 'file' in p
      ? `--${boundary}\r\ncontent-disposition: form-data; name="${p.name}"; filename="f.png"\r\ncontent-type: ${p.type}\r\n\r\n`
      : `--${boundary}\r\ncontent-disposition: form-data; name="${p.name}"\r\n\r\n`
    return Buffer.concat([Buffer.from(head), 'file' in p ? p.file : Buffer.from(p.text), Buffer.from('\r\n')])
  })
  return Buffer.concat([...chunks, Buffer.from(`--${boundary}--\r\n`)])
}

/**
 * multipart/form-data bodies (what SDKs send to /v1/images/edits): the schema's fields as text parts (arrays
 * repeated), image and mask files that are PNGs, cut PNGs or random bytes, and sometimes a cut-off end.
 * Returns the body with its content type.
 */
export function multipartBody(schema: Schema, overrides: Overrides, png: Buffer): fc.Arbitrary<FuzzBody & { contentType: string }> {
  const fileBytes = fc.oneof(fc.constant(png), fc.nat({ max: png.length }).map((n) => png.subarray(0, n)), fc.uint8Array({ maxLength: 64 }).map((b) => Buffer.from(b)))
  const file = fc.record({ name: fc.constantFrom('image', 'image[]', 'mask', 'images', 'other'), file: fileBytes, type: fc.constantFrom('image/png', 'image/jpeg', 'application/octet-stream', '') })
  const fields = mutatedBody(schema, overrides).map((b) => JSON.parse(b.bytes.toString('utf8')) as unknown)
  return fc.tuple(fields, fc.array(file, { maxLength: 4 }), fc.constantFrom('whole', 'whole', 'whole', 'cut', 'no end')).map(([value, files, ending]) => {
    const texts: Part[] = Object.entries(isObject(value) ? value : {}).flatMap(([name, v]) =>
      (Array.isArray(v) ? v : [v]).map((item) => ({ name, text: formText(item) })))
    const boundary = 'fuzz-boundary-7MA4YWxkTrZu0gW'
    const bytes = encodeParts([...texts, ...files], boundary)
    const body = ending === 'whole' ? bytes : ending === 'cut' ? bytes.subarray(0, Math.floor(bytes.length / 2)) : bytes.subarray(0, bytes.length - boundary.length - 6)
    return { kind: `multipart ${ending}`, bytes: body, contentType: `multipart/form-data; boundary=${boundary}` }
  })
}
