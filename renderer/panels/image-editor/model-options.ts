/**
 * What the panel offers for a model, read from its request-body schema at GET /spec/models/index.json
 * (built by the gateway from its family module's imageSchema) and the group's options: sizes, tiers,
 * ratios, quality, formats, the most images per request, whether a mask or reference images are
 * accepted, and how the answer is awaited.
 */
import { WXH_PATTERN, type PixelSizeRule } from '../../../shared/schemas/images'
import type { ModelEntry } from '../../api/gateway'
import { sizePresets } from './size-presets'

type Schema = Record<string, unknown>
export type ImageEndpoint = 'generations' | 'edits'

export type Delivery = 'async' | 'stream' | 'sync'
const DELIVERIES: readonly string[] = ['async', 'stream', 'sync']

/** One entry of the index's `models`. */
export interface ModelSpecEntry {
  family: string
  endpoints: ImageEndpoint[]
  /** how the model answers, in the order a client should prefer */
  delivery: Delivery[]
  deprecated?: { replacement: string }
  generations?: Schema
  edits?: Schema
}

/** A closed list for one body field (empty value in the form: leave the field out, the model's default applies). */
export interface ChoiceControl {
  field: string
  values: string[]
  default?: string
}

export interface SizeControl {
  /** named sizes (`auto`, tiers) and, when the model takes `<W>x<H>`, presets its rule accepts */
  options: string[]
  /** the model takes `<W>x<H>`: a custom size may be typed */
  custom: boolean
  rule?: PixelSizeRule
  default: string
}

/** The controls of one model on one endpoint. */
export interface EndpointControls {
  size?: SizeControl
  choices: ChoiceControl[]
  nMax: number
  /** caps on n by the value of `image_size` (or a tier-named size), from the schema's conditional rules */
  nByTier: Record<string, number>
  mask: boolean
  /** `dataUrlMax`: the longest data URL one reference may be (the schema's `maxLength`), when the model caps it */
  references: { accepted: boolean; max?: number; dataUrlMax?: number }
  stream: boolean
  /** `response_format` offers `b64_json`: inline images that the app keeps without a vendor link */
  b64: boolean
}

export interface ImageModelOption {
  id: string
  family: string
  delivery: Delivery[]
  generations?: EndpointControls
  edits?: EndpointControls
}

// The fields offered as closed lists, in display order; size is handled apart (it also takes <W>x<H>).
export const CHOICE_FIELDS = ['image_size', 'resolution', 'aspect_ratio', 'quality', 'output_format'] as const
// These win over `size` (spec §4.2 Gemini-style; Kling/Grok map size onto them), so size is not offered with them.
const SIZE_OVERRIDES = new Set(['image_size', 'resolution', 'aspect_ratio'])

const isSchema = (v: unknown): v is Schema => typeof v === 'object' && v !== null && !Array.isArray(v)
const strings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [])
const propsOf = (schema: Schema): Record<string, unknown> => (isSchema(schema.properties) ? schema.properties : {})

/** The values of a closed-list field: its `enum` (without null), else its `examples` (forwarded, unvalidated lists). */
function choiceOf(field: string, prop: unknown): ChoiceControl | undefined {
  if (!isSchema(prop)) return undefined
  const values = strings(prop.enum).length ? strings(prop.enum) : strings(prop.examples)
  if (values.length === 0) return undefined
  return { field, values, ...(typeof prop.default === 'string' ? { default: prop.default } : {}) }
}

function sizeOf(prop: unknown): SizeControl | undefined {
  if (!isSchema(prop)) return undefined
  const branches = Array.isArray(prop.anyOf) ? prop.anyOf.filter(isSchema) : [prop]
  const names = branches.flatMap((b) => strings(b.enum))
  const wxh = branches.find((b) => b.pattern === WXH_PATTERN)
  const rule = wxh && isSchema(wxh['x-image-size']) ? (wxh['x-image-size'] as PixelSizeRule) : undefined
  const options = [...names, ...(wxh ? sizePresets(rule) : [])]
  if (options.length === 0) return undefined
  return { options, custom: wxh !== undefined, ...(rule ? { rule } : {}), default: names.includes('auto') ? 'auto' : options[0] }
}

/** Whether a boolean-ish property allows `true`. */
function allowsTrue(prop: unknown): boolean {
  if (!isSchema(prop)) return false
  if (Array.isArray(prop.enum)) return prop.enum.includes(true)
  return prop.type === 'boolean' || (Array.isArray(prop.type) && prop.type.includes('boolean'))
}

/** The first string `const` anywhere inside a schema (the tier a conditional rule tests). */
function firstConst(node: unknown): string | undefined {
  if (Array.isArray(node)) return node.map(firstConst).find((v) => v !== undefined)
  if (!isSchema(node)) return undefined
  if (typeof node.const === 'string') return node.const
  return Object.values(node).map(firstConst).find((v) => v !== undefined)
}

/** Per-tier caps on n: `allOf: [{ if: <tier is T>, then: { properties: { n: { maximum } } } }]`. */
function tierCaps(schema: Schema): Record<string, number> {
  const caps: Record<string, number> = {}
  for (const rule of Array.isArray(schema.allOf) ? schema.allOf.filter(isSchema) : []) {
    const n = isSchema(rule.then) ? propsOf(rule.then).n : undefined
    const tier = firstConst(rule.if)
    if (isSchema(n) && typeof n.maximum === 'number' && tier) caps[tier] = n.maximum
  }
  return caps
}

function referencesOf(prop: unknown): EndpointControls['references'] {
  if (!isSchema(prop)) return { accepted: false }
  const array = (Array.isArray(prop.anyOf) ? prop.anyOf.filter(isSchema) : []).find((b) => b.type === 'array')
  const items = isSchema(array?.items) && Array.isArray(array.items.anyOf) ? array.items.anyOf.filter(isSchema) : []
  const dataUrlMax = items.find((b) => typeof b.maxLength === 'number')?.maxLength
  return {
    accepted: true,
    ...(typeof array?.maxItems === 'number' ? { max: array.maxItems } : {}),
    ...(typeof dataUrlMax === 'number' ? { dataUrlMax } : {}),
  }
}

/** The controls one endpoint schema allows; `singleImage`: the group makes one image per request. */
export function endpointControls(schema: Schema, singleImage = false): EndpointControls {
  const props = propsOf(schema)
  const choices = CHOICE_FIELDS.map((f) => choiceOf(f, props[f])).filter((c): c is ChoiceControl => c !== undefined)
  const n = props.n
  const nMax = singleImage || !isSchema(n) ? 1 : typeof n.maximum === 'number' ? n.maximum : 10
  const responseFormats = isSchema(props.response_format) ? strings(props.response_format.enum) : []
  return {
    ...(choices.some((c) => SIZE_OVERRIDES.has(c.field)) ? {} : { size: sizeOf(props.size) }),
    choices,
    nMax,
    nByTier: tierCaps(schema),
    // `mask: false` in a schema means "must not be sent".
    mask: isSchema(props.mask),
    references: referencesOf(props.image),
    stream: allowsTrue(props.stream),
    b64: responseFormats.includes('b64_json'),
  }
}

/** The most images one request may ask for with the chosen tier (`image_size`, else a tier-named size). */
export function effectiveNMax(controls: EndpointControls, params: Record<string, string>): number {
  const tierChoice = controls.choices.find((c) => c.field === 'image_size')
  const tier = params.image_size || tierChoice?.default || params.size
  const cap = tier !== undefined ? controls.nByTier[tier] : undefined
  return Math.min(controls.nMax, cap ?? Infinity)
}

/**
 * How an answer is awaited: the first of the model's delivery modes (from the index) that the endpoint
 * allows (the images SSE only where its schema lets `stream` be true); one plain request otherwise.
 */
export function deliveryOf(delivery: readonly Delivery[], controls: EndpointControls): Delivery {
  return delivery.find((mode) => mode !== 'stream' || controls.stream) ?? 'sync'
}

/**
 * The group's image models that the schema index describes, with their controls. Deprecated ids are left
 * out (spec §9: rejected with 400 naming the replacement). An official-direct group has no edits endpoint.
 */
export function imageModelOptions(listed: ModelEntry[], index: unknown, group: { singleImage?: boolean; officialDirect?: boolean }): ImageModelOption[] {
  const models = isSchema(index) && isSchema(index.models) ? index.models : {}
  return listed
    .filter((m) => m.type === 'image')
    .flatMap((m) => {
      const spec = models[m.id] as ModelSpecEntry | undefined
      if (!isSchema(spec) || spec.deprecated) return []
      const endpoints = strings(spec.endpoints)
      const gen = endpoints.includes('generations') && isSchema(spec.generations) ? endpointControls(spec.generations, group.singleImage) : undefined
      const edits = endpoints.includes('edits') && isSchema(spec.edits) && !group.officialDirect ? endpointControls(spec.edits, group.singleImage) : undefined
      const delivery = strings(spec.delivery).filter((d): d is Delivery => DELIVERIES.includes(d))
      return gen || edits ? [{ id: m.id, family: spec.family, delivery, ...(gen ? { generations: gen } : {}), ...(edits ? { edits } : {}) }] : []
    })
}

/** The params a model's controls still accept (a newly chosen model may lack a field or a value): the rest fall back to defaults. */
export function fitParams(params: Record<string, string>, controls: EndpointControls | undefined): Record<string, string> {
  const out: Record<string, string> = {}
  if (!controls) return out
  if (controls.size && params.size && controls.size.options.includes(params.size)) out.size = params.size
  for (const choice of controls.choices) {
    const value = params[choice.field]
    if (value && choice.values.includes(value)) out[choice.field] = value
  }
  return out
}
