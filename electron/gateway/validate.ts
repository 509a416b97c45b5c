import Ajv2020, { type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js'
import addFormats from 'ajv-formats'
import { createRequire } from 'node:module'
import { gatewayError, type GatewayError } from './errors.js'

// ajv-i18n is CommonJS whose typings claim an ES default export; require() is the honest way in.
const localizeZh = createRequire(import.meta.url)('ajv-i18n/localize/zh') as (errors: ErrorObject[]) => void

const ajv = new Ajv2020.default({ strict: false, allErrors: false, useDefaults: false })
addFormats.default(ajv)

/** Compiles a shared schema once; the validator returns a GatewayError (400) for the first problem, or undefined. */
export function compileValidator(schema: object): (value: unknown) => GatewayError | undefined {
  const validate: ValidateFunction = ajv.compile(schema)
  return (value) => (validate(value) ? undefined : toGatewayError(validate.errors ?? []))
}

/** `/messages/0/role` -> `messages[0].role` */
export function fieldPath(instancePath: string, property?: string): string {
  const parts = instancePath.split('/').slice(1)
  if (property !== undefined) parts.push(property)
  return parts
    .map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce((path, part) => (/^\d+$/.test(part) ? `${path}[${part}]` : path ? `${path}.${part}` : part), '')
}

// Combinators report a summary error after their branches; the branch error names the real problem.
const SUMMARY_KEYWORDS = new Set(['if', 'anyOf', 'oneOf', 'allOf', 'not'])

function pickError(errors: ErrorObject[]): ErrorObject {
  const specific = errors.filter((e) => !SUMMARY_KEYWORDS.has(e.keyword))
  const pool = specific.length > 0 ? specific : errors
  return pool.reduce((best, e) => (e.instancePath.length > best.instancePath.length ? e : best))
}

function toGatewayError(errors: ErrorObject[]): GatewayError {
  const error = pickError(errors)
  if (error.keyword === 'required') {
    const field = fieldPath(error.instancePath, (error.params as { missingProperty: string }).missingProperty)
    return gatewayError('invalid_request', 'missing_field', { field }, { param: field })
  }
  const field = fieldPath(error.instancePath) || 'body'
  if (error.keyword === 'minItems' && (error.params as { limit: number }).limit === 1) {
    return gatewayError('invalid_request', 'empty_array', { field }, { param: field })
  }
  const types = alternativeTypes(errors, error.instancePath)
  const detail = types.length > 1 ? { en: `must be of type ${types.join(' or ')}`, zh: `类型应为 ${types.join(' 或 ')}` } : describe(error)
  return gatewayError('invalid_request', 'invalid_field', { field, detail }, { param: field })
}

/** `anyOf: [string, array, null]` fails with one type error per branch, `type: [string, null]` with one listing both; name them all. */
function alternativeTypes(errors: ErrorObject[], instancePath: string): string[] {
  return errors
    .filter((e) => e.keyword === 'type' && e.instancePath === instancePath)
    .flatMap((e) => String((e.params as { type: string | string[] }).type).split(','))
}

function describe(error: ErrorObject): { en: string; zh: string } {
  const zhError = { ...error }
  localizeZh([zhError])
  const allowed = allowedValues(error)
  return { en: `${error.message ?? 'is invalid'}${allowed}`, zh: `${zhError.message ?? '无效'}${allowed}` }
}

function allowedValues(error: ErrorObject): string {
  const params = error.params as { allowedValues?: unknown[]; allowedValue?: unknown }
  if (params.allowedValues) return ` (${params.allowedValues.map(String).join(', ')})`
  if (params.allowedValue !== undefined) return ` (${String(params.allowedValue)})`
  return ''
}
