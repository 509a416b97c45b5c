/**
 * Field checks shared by the image families (spec §4.2). A field that is absent or `null` counts as
 * "not sent" (SDKs send null for unset options) unless a family rule says otherwise.
 */
import type { CatalogModel } from '../../../../shared/types.js'
import type { MessageId, MessageParam } from '../../../../shared/messages.js'
import { catalogNumber } from '../../../../shared/schemas/images.js'
import { gatewayError, type GatewayError } from '../../errors.js'
import type { ImageCheckOptions } from '../../contract/image-request.js'

export type Obj = Record<string, unknown>

export const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v)
export const isAbsent = (v: unknown): v is undefined | null => v === undefined || v === null

/** A 400 `invalid_request` naming `param`. */
export const invalid = (id: MessageId, params: Record<string, MessageParam>, param: string): GatewayError =>
  gatewayError('invalid_request', id, params, { param })

/** The generic "<field>: <detail>" 400 for a wrong type. */
export const badField = (field: string, en: string, zh: string): GatewayError =>
  invalid('invalid_field', { field, detail: { en, zh } }, field)

/** How a value reads in a message. */
export const show = (v: unknown): string => (typeof v === 'string' ? v : JSON.stringify(v))

/** Length in code points, as JSON Schema's maxLength counts. */
const codePoints = (s: string): number => [...s].length

/**
 * `prompt` must be a string that is non-empty once trimmed; `emptyId` is the family's wording
 * (`prompt must not be empty`, or Seedream's `missing prompt`). `max`: longest prompt in characters.
 */
export function readPrompt(body: Obj, model: CatalogModel, emptyId: 'image_prompt_empty' | 'image_prompt_missing', max?: number): string {
  const prompt = body.prompt
  if (isAbsent(prompt)) {
    // Seedream's one wording covers absence too; elsewhere absence reads like the schema's "missing prompt field".
    throw emptyId === 'image_prompt_missing' ? invalid(emptyId, {}, 'prompt') : invalid('missing_field', { field: 'prompt' }, 'prompt')
  }
  if (typeof prompt !== 'string') throw badField('prompt', 'must be a string', '必须是字符串')
  if (prompt.trim() === '') throw invalid(emptyId, {}, 'prompt')
  if (max !== undefined) checkLength(prompt, 'prompt', max, model)
  return prompt
}

export function checkLength(text: string, field: string, max: number, model: CatalogModel): void {
  const length = codePoints(text)
  if (length > max) throw invalid('image_prompt_too_long', { field, length, max, model: model.id }, field)
}

/**
 * `n`: an integer (default 1) in 1..maxN of the catalog. `nonPositiveIsOne`: GPT's rule that values
 * <= 0 mean 1. A group limited to one image refuses n > 1.
 */
export function readN(body: Obj, model: CatalogModel, opts: ImageCheckOptions, nonPositiveIsOne = false): number {
  const raw = body.n
  if (isAbsent(raw)) return 1
  if (typeof raw !== 'number' || !Number.isInteger(raw)) throw badField('n', 'must be an integer', '必须是整数')
  const n = nonPositiveIsOne && raw <= 0 ? 1 : raw
  const max = catalogNumber(model, 'maxN') ?? Infinity
  if (max === 1 && n !== 1) throw invalid('image_n_only_one', { model: model.id, n }, 'n')
  if (n < 1 || n > max) throw invalid('image_n_range', { model: model.id, n, max: String(max) }, 'n')
  if (opts.singleImageGroup && n > 1) throw invalid('image_n_group_single', { n }, 'n')
  return n
}

/** `stream`: a boolean, default false. */
export function readStream(body: Obj): boolean {
  const stream = body.stream
  if (isAbsent(stream)) return false
  if (typeof stream !== 'boolean') throw badField('stream', 'must be a boolean (true or false)', '必须是布尔值（true 或 false）')
  return stream
}

/** An optional string field that must be one of `allowed` (an empty list: any string). */
export function readChoice(body: Obj, field: string, allowed: readonly string[], model: CatalogModel, param = field): string | undefined {
  const value = body[field]
  if (isAbsent(value)) return undefined
  if (typeof value === 'string' && (allowed.length === 0 || allowed.includes(value))) return value
  throw invalid('image_value_unsupported', { field, value: show(value), model: model.id, allowed: allowed.join(', ') }, param)
}

/** An optional string field, unchecked beyond its type (forwarded values such as quality). */
export function readString(body: Obj, field: string): string | undefined {
  const value = body[field]
  if (isAbsent(value)) return undefined
  if (typeof value !== 'string') throw badField(field, 'must be a string', '必须是字符串')
  return value
}

/** An optional number in [min, max]; `integer` refuses fractions. */
export function readNumber(body: Obj, field: string, min: number, max: number, integer: boolean): number | undefined {
  const value = body[field]
  if (isAbsent(value)) return undefined
  const ok = typeof value === 'number' && (!integer || Number.isInteger(value)) && value >= min && value <= max
  if (ok) return value
  const kind = integer ? { en: 'an integer', zh: '整数' } : { en: 'a number', zh: '数字' }
  throw badField(field, `must be ${kind.en} from ${min} to ${max}`, `必须是 ${min} 到 ${max} 之间的${kind.zh}`)
}

/** `mask` sent at all (even null, Seedream's rule) or as a multipart file part. */
export const maskSent = (body: Obj, opts: ImageCheckOptions): boolean => 'mask' in body || opts.maskFile === true

/** Models without mask support: any mask answers 400 rather than an unmasked edit the caller did not ask for. */
export function refuseMask(body: Obj, model: CatalogModel, opts: ImageCheckOptions): void {
  if (maskSent(body, opts)) throw invalid('image_mask_unsupported', { model: model.id }, 'mask')
}

/** A copy of `body` without `keys` (the fields the rules consumed or dropped). */
export function omit(body: Obj, keys: readonly string[]): Obj {
  const drop = new Set(keys)
  return Object.fromEntries(Object.entries(body).filter(([k]) => !drop.has(k)))
}

const FORM_INTEGERS = ['n', 'output_compression']
const FORM_NUMBERS = ['image_fidelity', 'human_fidelity']

/** Multipart text fields are strings: numeric and boolean ones are read as JSON would carry them. */
export function coerceFormFields(body: Obj): Obj {
  const out = { ...body }
  for (const key of [...FORM_INTEGERS, ...FORM_NUMBERS]) {
    const v = out[key]
    if (typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v))) out[key] = Number(v)
  }
  if (out.stream === 'true' || out.stream === 'false') out.stream = out.stream === 'true'
  return out
}
