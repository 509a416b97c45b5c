import type { UpstreamBreaker, UpstreamSummary } from '../../../shared/admin.js'
import { upstreamCreate, upstreamPatch } from '../../../shared/schemas/admin.js'
import { applyConfig } from '../config/apply-config.js'
import type { GatewayConfig, UpstreamModels } from '../config/load-config.js'
import type { RequestContext } from '../context.js'
import { gatewayError } from '../errors.js'
import { keyHint } from '../secrets/keys.js'
import { sendJson } from '../respond.js'
import type { Services } from '../services.js'
import { nanoToUsd } from '../money/money.js'
import { probedInBackground } from '../relay/probe.js'
import type { GroupRecord } from '../store/groups.js'
import type { Repos } from '../store/index.js'
import type { StoredUpstream } from '../store/upstreams.js'
import { applyChange, bodyReader, noContent, notFound, segment } from './admin-io.js'

type UpstreamBody = NonNullable<GatewayConfig['upstreams']>[number]
const readCreate = bodyReader<UpstreamBody & { groups?: string[] }>(upstreamCreate)
const readPatch = bodyReader<Partial<Omit<UpstreamBody, 'models' | 'budget'>> & { models?: UpstreamModels | null; budget?: number | null }>(upstreamPatch)

/** The account as the app sees it: the secret only as a hint (never decrypted for display beyond that). */
function summary(services: Services, u: StoredUpstream, groups: GroupRecord[]): UpstreamSummary {
  const secret = services.secrets.decrypt(u.api_key_enc)
  return {
    id: u.id, vendor: u.vendor, baseUrl: u.base_url, apiKeyHint: secret.length <= 12 ? `${secret.slice(0, 2)}…` : keyHint(secret),
    models: u.models === null ? null : (JSON.parse(u.models) as UpstreamModels), priority: u.priority,
    groups: groups.filter((g) => g.upstreams.includes(u.id)).map((g) => g.id),
    budget: u.budget_nano === null ? null : nanoToUsd(u.budget_nano), spent: nanoToUsd(u.spent_nano),
    breaker: breakerOf(services, u),
  }
}

/** The account's breaker as this process holds it, and how it is tried when half-open (relay/probe.ts). */
function breakerOf(services: Services, u: StoredUpstream): UpstreamBreaker {
  const { breakers } = services.routing
  return {
    state: breakers.state(u.id),
    probing: breakers.probing(u.id),
    trial: probedInBackground(u.vendor) ? 'probe' : 'request',
    transitions: breakers.transitions(u.id).map((t) => ({ ...t })),
  }
}

async function findUpstream(services: Services, raw: string): Promise<StoredUpstream> {
  const id = segment(raw, 'upstream account')
  const row = (await services.store.upstreams.all()).find((u) => u.id === id)
  if (!row) throw notFound('upstream account', id)
  return row
}

const reread = async (services: Services, id: string) => summary(services, await findUpstream(services, id), await services.store.groups.all())

const saveUpstream = (services: Services, tx: Repos, upstream: UpstreamBody) =>
  applyConfig({ upstreams: [upstream] }, tx, services.secrets, services.registry.builtinModels, services.registry.keyHasher)

/** GET /admin/v1/upstreams */
export async function listUpstreams(ctx: RequestContext, services: Services): Promise<void> {
  const [upstreams, groups] = await Promise.all([services.store.upstreams.all(), services.store.groups.all()])
  sendJson(ctx.res, 200, upstreams.map((u) => summary(services, u, groups)))
}

/** POST /admin/v1/upstreams: a new account, sealed at rest, optionally added to groups' failover lists. */
export async function createUpstream(ctx: RequestContext, services: Services): Promise<void> {
  const { groups = [], ...body } = await readCreate(ctx)
  if ((await services.store.upstreams.all()).some((u) => u.id === body.id)) throw gatewayError('conflict', 'already_exists', { what: 'upstream account', id: body.id })
  await applyChange(services, async (tx) => {
    await saveUpstream(services, tx, body)
    const all = await tx.groups.all()
    for (const [i, id] of groups.entries()) {
      const group = all.find((g) => g.id === id)
      if (!group) throw gatewayError('invalid_request', 'config_problem', { field: `groups[${i}]`, problem: `unknown group "${id}"` }, { param: `groups[${i}]` })
      if (!group.upstreams.includes(body.id)) await tx.groups.upsert({ ...group, upstreams: [...group.upstreams, body.id] })
    }
  })
  sendJson(ctx.res, 201, await reread(services, body.id))
}

/**
 * PATCH /admin/v1/upstreams/{id}: an absent apiKey keeps the stored one; `models` (ids, or ids mapped to the account's own
 * names) replaces the list, `null` serves every model of the vendor again;
 * `budget` sets a cap counted from now, null removes it.
 */
export async function updateUpstream(ctx: RequestContext, services: Services, params: string[]): Promise<void> {
  const current = await findUpstream(services, params[0])
  const patch = await readPatch(ctx)
  await applyChange(services, (tx) =>
    saveUpstream(services, tx, {
      id: current.id,
      vendor: current.vendor,
      baseUrl: patch.baseUrl ?? current.base_url,
      apiKey: patch.apiKey ?? services.secrets.decrypt(current.api_key_enc),
      models: patch.models === null ? undefined : (patch.models ?? (current.models === null ? undefined : (JSON.parse(current.models) as UpstreamModels))),
      priority: patch.priority ?? current.priority,
      budget: patch.budget === null ? undefined : (patch.budget ?? (current.budget_nano === null ? undefined : nanoToUsd(current.budget_nano))),
    }),
  )
  sendJson(ctx.res, 200, await reread(services, current.id))
}

/** DELETE /admin/v1/upstreams/{id}: the account leaves every group's failover list too. */
export async function deleteUpstream(ctx: RequestContext, services: Services, params: string[]): Promise<void> {
  const upstream = await findUpstream(services, params[0])
  await applyChange(services, async (tx) => {
    for (const g of await tx.groups.all()) {
      if (g.upstreams.includes(upstream.id)) await tx.groups.upsert({ ...g, upstreams: g.upstreams.filter((id) => id !== upstream.id) })
    }
    await tx.upstreams.remove(upstream.id)
  })
  noContent(ctx)
}
