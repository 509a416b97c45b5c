import { readJson } from '../client/body.js'
import { ConfigError } from '../config/load-config.js'
import type { RequestContext } from '../context.js'
import { gatewayError } from '../errors.js'
import type { Services } from '../services.js'
import type { Repos } from '../store/index.js'
import { compileValidator } from '../validate.js'

/** A compiled body check: the body, or the schema's 400. */
export function bodyReader<T>(schema: object) {
  const validate = compileValidator(schema)
  return async (ctx: RequestContext): Promise<T> => {
    const value = readJson(ctx)
    const problem = validate(value)
    if (problem) throw problem
    return value as T
  }
}

/** The query string of the request. */
export const queryOf = (ctx: RequestContext) => new URLSearchParams((ctx.req.url ?? '').split('?')[1] ?? '')

export const notFound = (what: string, id: string) => gatewayError('not_found', 'admin_not_found', { what, id })

/** A path segment, decoded; a bad escape is a 404 like any unknown id. */
export function segment(raw: string, what: string): string {
  try {
    return decodeURIComponent(raw)
  } catch {
    throw notFound(what, raw)
  }
}

/**
 * Applies a configuration change and reloads what requests read. A ConfigError names the config field
 * (`groups[0].models[2]`); the admin API names the body's field (`models[2]`).
 */
export async function applyChange(services: Services, change: (tx: Repos) => Promise<unknown>): Promise<void> {
  // Charges still queued belong before the change: a budget set now counts from after them.
  await services.store.ledger.flush()
  try {
    // The other replicas of a shared database reload when it commits (team mode).
    await services.store.transaction(async (tx) => {
      await change(tx)
      await tx.changes.announce()
    })
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err
    const field = err.field.replace(/^(groups|upstreams|keys)\[\d+\]\.?/, '') || 'body'
    const problem = err.message.replace(/^invalid config: [^:]*: /, '')
    throw gatewayError('invalid_request', 'config_problem', { field, problem }, { param: field })
  }
  await services.registry.reload()
}

export const noContent = (ctx: RequestContext) => void ctx.res.writeHead(204).end()
