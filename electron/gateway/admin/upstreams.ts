import type { UpstreamSummary } from '../../../shared/admin.js'
import { upstreamCreate, upstreamPatch } from '../../../shared/schemas/admin.js'
import { applyConfig } from '../config/apply-config.js'
import type { GatewayConfig } from '../config/load-config.js'
import type { RequestContext } from '../context.js'
import { gatewayError } from '../errors.js'
import { keyHint } from '../keys.js'
import { sendJson } from '../respond.js'
import type { Services } from '../services.js'
import { nanoToUsd } from '../money.js'
import type { StoredUpstream } from '../store/upstreams.js'
import { applyChange, bodyReader, noContent, notFound, segment } from './admin-io.js'

type UpstreamBody = NonNullable<GatewayConfig['upstreams']>[number]
const readCreate = bodyReader<UpstreamBody & { groups?: string[] }>(upstreamCreate)
const readPatch = bodyReader<Partial<Omit<UpstreamBody, 'models' | 'budget'>> & { models?: string[] | null; budget?: number | null }>(upstreamPatch)

/** The account as the app sees it: the secret only as a hint (never decrypted for display beyond that). */
function summary(services: Services, u: StoredUpstream): UpstreamSummary {
  const secret = services.secrets.decrypt(u.api_key_enc)
  return {
    id: u.id, vendor: u.vendor, baseUrl: u.base_url, apiKeyHint: secret.length <= 12 ? `${secret.slice(0, 2)}…` : keyHint(secret),
    models: u.models === null ? null : (JSON.parse(u.models) as string[]), priority: u.priority,
    groups: services.store.groups.all().filter((g) => g.upstreams.includes(u.id)).map((g) => g.id),
    budget: u.budget_nano === null ? null : nanoToUsd(u.budget_nano), spent: nanoToUsd(u.spent_nano),
  }
}

function findUpstream(services: Services, raw: string): StoredUpstream {
  const id = segment(raw, 'upstream account')
  const row = services.store.upstreams.all().find((u) => u.id === id)
  if (!row) throw notFound('upstream account', id)
  return row
}

const saveUpstream = (services: Services, upstream: UpstreamBody) =>
  applyConfig({ upstreams: [upstream] }, services.store, services.secrets, services.registry.builtinModels, services.registry.keyHasher)

/** GET /admin/v1/upstreams */
export async function listUpstreams(ctx: RequestContext, services: Services): Promise<void> {
  sendJson(ctx.res, 200, services.store.upstreams.all().map((u) => summary(services, u)))
}

/** POST /admin/v1/upstreams: a new account, sealed at rest, optionally added to groups' failover lists. */
export async function createUpstream(ctx: RequestContext, services: Services): Promise<void> {
  const { groups = [], ...body } = await readCreate(ctx)
  if (services.store.upstreams.all().some((u) => u.id === body.id)) throw gatewayError('conflict', 'already_exists', { what: 'upstream account', id: body.id })
  applyChange(services, () => {
    saveUpstream(services, body)
    const all = services.store.groups.all()
    groups.forEach((id, i) => {
      const group = all.find((g) => g.id === id)
      if (!group) throw gatewayError('invalid_request', 'config_problem', { field: `groups[${i}]`, problem: `unknown group "${id}"` }, { param: `groups[${i}]` })
      if (!group.upstreams.includes(body.id)) services.store.groups.upsert({ ...group, upstreams: [...group.upstreams, body.id] })
    })
  })
  sendJson(ctx.res, 201, summary(services, findUpstream(services, body.id)))
}

/**
 * PATCH /admin/v1/upstreams/{id}: an absent apiKey keeps the stored one; `models: null` serves every model of the vendor again;
 * `budget` sets a cap counted from now, null removes it.
 */
export async function updateUpstream(ctx: RequestContext, services: Services, params: string[]): Promise<void> {
  const current = findUpstream(services, params[0])
  const patch = await readPatch(ctx)
  applyChange(services, () =>
    saveUpstream(services, {
      id: current.id,
      vendor: current.vendor,
      baseUrl: patch.baseUrl ?? current.base_url,
      apiKey: patch.apiKey ?? services.secrets.decrypt(current.api_key_enc),
      models: patch.models === null ? undefined : (patch.models ?? (current.models === null ? undefined : (JSON.parse(current.models) as string[]))),
      priority: patch.priority ?? current.priority,
      budget: patch.budget === null ? undefined : (patch.budget ?? (current.budget_nano === null ? undefined : nanoToUsd(current.budget_nano))),
    }),
  )
  sendJson(ctx.res, 200, summary(services, findUpstream(services, current.id)))
}

/** DELETE /admin/v1/upstreams/{id}: the account leaves every group's failover list too. */
export async function deleteUpstream(ctx: RequestContext, services: Services, params: string[]): Promise<void> {
  const upstream = findUpstream(services, params[0])
  applyChange(services, () => {
    for (const g of services.store.groups.all()) {
      if (g.upstreams.includes(upstream.id)) services.store.groups.upsert({ ...g, upstreams: g.upstreams.filter((id) => id !== upstream.id) })
    }
    services.store.upstreams.remove(upstream.id)
  })
  noContent(ctx)
}
