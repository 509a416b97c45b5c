import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020.js'
import addFormats from 'ajv-formats'
import { ROUTES } from '../../electron/gateway/routes/index.js'
import { buildOpenApi } from '../../electron/gateway/routes/openapi.js'

/**
 * Checks real answers against /openapi.json (the same document the gateway serves, built from the route table):
 * the status must be documented for the operation, and a JSON body must validate against the schema documented
 * for that status (ajv, JSON Schema 2020-12, the document's `$ref`s resolved against its components).
 */

interface Operation { responses: Record<string, { content?: Record<string, { schema: object }> }> }
interface Document { paths: Record<string, Record<string, Operation>>; components: object }

const DOC = buildOpenApi(ROUTES) as Document
const ajv = new Ajv2020.default({ strict: false, allErrors: true })
addFormats.default(ajv)

const escape = (text: string) => text.replace(/[.*+?^$()|[\]\\]/g, '\\$&')
const TEMPLATES = Object.keys(DOC.paths).map((path) => ({ path, pattern: new RegExp(`^${escape(path).replace(/\{\w+\}/g, '[^/]+')}$`) }))
// Exact paths first: /v1/models must not be read as /v1/models/{model}.
TEMPLATES.sort((a, b) => Number(a.path.includes('{')) - Number(b.path.includes('{')))

/** The documented operation of a request, or undefined for a path the document does not have (a 404 of the router). */
export function operationOf(method: string, url: string): { path: string; operation: Operation } | undefined {
  const pathname = new URL(url, 'http://gateway').pathname
  const template = TEMPLATES.find((t) => t.pattern.test(pathname) && DOC.paths[t.path][method.toLowerCase()] !== undefined)
  return template && { path: template.path, operation: DOC.paths[template.path][method.toLowerCase()] }
}

const validators = new Map<string, ValidateFunction>()
function validatorFor(key: string, schema: object): ValidateFunction {
  let validate = validators.get(key)
  if (!validate) {
    // The schema is compiled with the document's components beside it, so that `#/components/...` resolves.
    validate = ajv.compile({ ...schema, components: DOC.components })
    validators.set(key, validate)
  }
  return validate
}

const mediaType = (res: Response) => (res.headers.get('content-type') ?? '').split(';')[0].trim().toLowerCase()

/**
 * Throws unless the answer is documented: its status for the operation, its media type, and (JSON) its body.
 * Reads a clone of JSON answers only, so the caller still reads the body and streams are never waited for.
 */
export async function assertConforms(method: string, url: string, res: Response): Promise<void> {
  const found = operationOf(method, url)
  if (!found) return
  const where = `${method} ${found.path} → ${res.status}`
  const documented = found.operation.responses[String(res.status)]
  if (!documented) throw new Error(`undocumented status: ${where} (documented: ${Object.keys(found.operation.responses).join(', ')})`)
  const type = mediaType(res)
  const content = documented.content ?? {}
  if (Object.keys(content).length === 0) return
  if (type !== 'application/json') {
    // Media answers (audio, video, the app's files) are documented by one representative type.
    if (Object.keys(content).some((t) => t !== 'application/json')) return
    throw new Error(`undocumented media type ${type || '(none)'}: ${where}`)
  }
  const schema = content['application/json']?.schema
  if (!schema) throw new Error(`JSON is not documented: ${where}`)
  const text = await res.clone().text()
  const validate = validatorFor(`${method} ${found.path} ${res.status}`, schema)
  if (!validate(JSON.parse(text))) throw new Error(`body does not match the documented schema: ${where}: ${ajv.errorsText(validate.errors)}\n${text.slice(0, 500)}`)
}

/** fetch, then the conformance check of the answer. */
export async function fetchConforming(url: string, init: RequestInit = {}): Promise<Response> {
  const res = await fetch(url, init)
  await assertConforms(init.method ?? 'GET', url, res)
  return res
}
