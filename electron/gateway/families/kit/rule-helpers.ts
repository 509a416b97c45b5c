/**
 * Building blocks of the family request rules (spec §4.1). Every limit is read from the catalog
 * entry (`input`, `reasoningEffort`, `thinkingAlwaysOn`, `limits.*`), never from a model id, so a
 * new model needs only a catalog entry.
 */
import type { CatalogModel } from '../../../../shared/types.js'
import type { MessageId } from '../../../../shared/messages.js'
import { gatewayError } from '../../errors.js'
import type { ChatRule } from '../../contract/family.js'

type Obj = Record<string, unknown>

const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v)

/** A content part with its location in the body. */
export interface PartRef {
  part: Obj
  /** Index of the message in `messages`. */
  i: number
  /** Index of the part in the message's `content`. */
  j: number
  /** Field path of the part, e.g. `messages[2].content[1]`. */
  path: string
}

/** Every object part of every array `content` (string contents have no parts). */
export function* contentParts(body: Obj): Generator<PartRef> {
  if (!Array.isArray(body.messages)) return
  for (let i = 0; i < body.messages.length; i++) {
    const message: unknown = body.messages[i]
    if (!isObj(message) || !Array.isArray(message.content)) continue
    for (let j = 0; j < message.content.length; j++) {
      const part: unknown = message.content[j]
      if (isObj(part)) yield { part, i, j, path: `messages[${i}].content[${j}]` }
    }
  }
}

/**
 * Content kinds of the catalog's `input` field (text, image, video, file), by the part types that
 * carry them (OpenAI's and vendors' names). Audio is no catalog kind: `input_audio` parts are of an
 * unknown type here (refused by strict rules, else left to the upstream, e.g. Qwen Omni reads audio).
 */
const KIND_OF_TYPE: Record<string, string> = {
  text: 'text',
  image_url: 'image', image: 'image', input_image: 'image',
  video_url: 'video', video: 'video',
  file: 'file', input_file: 'file',
}

/** The content kind a part type carries, or `undefined` for a type the gateway does not know. */
export const partKind = (type: unknown): string | undefined => (typeof type === 'string' ? KIND_OF_TYPE[type] : undefined)

/**
 * Parts of a kind the model does not read (catalog `input`) answer 400. `strict`: parts of an unknown
 * type are refused too (a text-only model reads nothing but text); otherwise they are forwarded and
 * the upstream decides. Models without `input` are not checked.
 */
export function contentKindRule(strict: boolean): ChatRule {
  return (body, model) => {
    const input = model.input
    if (!Array.isArray(input)) return body
    for (const { part, path } of contentParts(body)) {
      const kind = partKind(part.type)
      if (kind === undefined ? !strict : input.includes(kind)) continue
      throw gatewayError(
        'invalid_request',
        'content_part_unsupported',
        { model: model.id, type: String(part.type), allowed: input.join(', ') },
        { param: `${path}.type` },
      )
    }
    return body
  }
}

export const MAX_TOKEN_FIELDS = ['max_tokens', 'max_completion_tokens'] as const

/**
 * `max_tokens` and `max_completion_tokens` must be integers in [1, limits.maxOutputTokens]; the
 * message (family wording) gets `field` and `max`. Absent or null fields, and models without the
 * limit, are not checked.
 */
export function maxTokensRule(messageId: MessageId): ChatRule {
  return (body, model) => {
    const max = model.limits?.maxOutputTokens
    if (max === undefined) return body
    for (const field of MAX_TOKEN_FIELDS) {
      const value = body[field]
      if (value === undefined || value === null) continue
      if (typeof value === 'number' && Number.isInteger(value) && value >= 1 && value <= max) continue
      throw gatewayError('invalid_request', messageId, { field, max }, { param: field })
    }
    return body
  }
}

/** reasoning_effort values that turn thinking off. */
const THINKING_OFF_EFFORTS = new Set(['none', 'minimal'])

const allowedEfforts = (model: CatalogModel): string[] =>
  Array.isArray(model.reasoningEffort) ? (model.reasoningEffort as unknown[]).map(String) : []

/**
 * `reasoning_effort` must be one of the model's `reasoningEffort` values (absent list: not checked).
 * On a `thinkingAlwaysOn` model, values that would disable thinking (`none`, `minimal`) and Zhipu's
 * own `thinking: {type: "disabled"}` answer 400 saying thinking cannot be turned off.
 */
export const reasoningEffortRule: ChatRule = (body, model) => {
  const allowed = allowedEfforts(model)
  const effort = body.reasoning_effort
  const alwaysOn = model.thinkingAlwaysOn === true
  if (alwaysOn && isObj(body.thinking) && body.thinking.type === 'disabled') {
    throw gatewayError(
      'invalid_request',
      'thinking_cannot_be_disabled',
      { model: model.id, field: 'thinking.type', value: 'disabled', allowed: allowed.join(', ') },
      { param: 'thinking.type' },
    )
  }
  if (effort === undefined || effort === null || !Array.isArray(model.reasoningEffort)) return body
  if (typeof effort === 'string' && allowed.includes(effort)) return body
  if (alwaysOn && typeof effort === 'string' && THINKING_OFF_EFFORTS.has(effort)) {
    throw gatewayError(
      'invalid_request',
      'thinking_cannot_be_disabled',
      { model: model.id, field: 'reasoning_effort', value: effort, allowed: allowed.join(', ') },
      { param: 'reasoning_effort' },
    )
  }
  throw gatewayError(
    'invalid_request',
    'reasoning_effort_invalid',
    { model: model.id, value: typeof effort === 'string' ? effort : JSON.stringify(effort), allowed: allowed.join(', ') },
    { param: 'reasoning_effort' },
  )
}
