import type { GroupSummary } from '../../../shared/admin.js'
import { groupCreate, groupPatch } from '../../../shared/schemas/admin.js'
import { applyConfig } from '../config/apply-config.js'
import type { GatewayConfig } from '../config/load-config.js'
import type { RequestContext } from '../context.js'
import { gatewayError } from '../errors.js'
import { generateKey, keyHint, keyId } from '../secrets/keys.js'
import { sendJson } from '../respond.js'
import type { Services } from '../services.js'
import type { GroupRecord } from '../store/groups.js'
import { applyChange, bodyReader, noContent, notFound, segment } from './admin-io.js'

type GroupBody = NonNullable<GatewayConfig['groups']>[number]
const readCreate = bodyReader<GroupBody>(groupCreate)
const readPatch = bodyReader<Partial<GroupBody>>(groupPatch)

/** The group's image limits (its options less continuation). */
const imagesOf = ({ continuation: _, ...images }: GroupRecord['options']) => images

async function summary(services: Services, g: GroupRecord): Promise<GroupSummary> {
  return {
    id: g.id, name: g.name, protocol: g.protocol, models: g.models, upstreams: g.upstreams, images: imagesOf(g.options),
    continuation: g.options.continuation === true, keyCount: await services.store.apiKeys.countInGroup(g.id),
  }
}

async function findGroup(services: Services, raw: string): Promise<GroupRecord> {
  const id = segment(raw, 'group')
  const group = (await services.store.groups.all()).find((g) => g.id === id)
  if (!group) throw notFound('group', id)
  return group
}

const saveGroup = (services: Services, group: GroupBody) =>
  applyChange(services, (tx) => applyConfig({ groups: [group] }, tx, services.secrets, services.registry.builtinModels, services.registry.keyHasher))

const reread = async (services: Services, id: string) => summary(services, await findGroup(services, id))

/** GET /admin/v1/groups */
export async function listGroups(ctx: RequestContext, services: Services): Promise<void> {
  sendJson(ctx.res, 200, await Promise.all((await services.store.groups.all()).map((g) => summary(services, g))))
}

/** POST /admin/v1/groups: a new group (409 when the id is taken). */
export async function createGroup(ctx: RequestContext, services: Services): Promise<void> {
  const body = await readCreate(ctx)
  if ((await services.store.groups.all()).some((g) => g.id === body.id)) throw gatewayError('conflict', 'already_exists', { what: 'group', id: body.id })
  await saveGroup(services, body)
  sendJson(ctx.res, 201, await reread(services, body.id))
}

/** PATCH /admin/v1/groups/{id}: name, models, upstream order, image limits, continuation; the protocol stays. */
export async function updateGroup(ctx: RequestContext, services: Services, params: string[]): Promise<void> {
  const current = await findGroup(services, params[0])
  const patch = await readPatch(ctx)
  await saveGroup(services, {
    id: current.id,
    protocol: current.protocol,
    name: patch.name ?? current.name ?? undefined,
    models: patch.models ?? current.models,
    upstreams: patch.upstreams ?? current.upstreams,
    images: patch.images ?? imagesOf(current.options),
    continuation: patch.continuation ?? current.options.continuation,
  })
  sendJson(ctx.res, 200, await reread(services, current.id))
}

/** DELETE /admin/v1/groups/{id}: refused while keys other than the app's own use the group. */
export async function deleteGroup(ctx: RequestContext, services: Services, params: string[]): Promise<void> {
  const group = await findGroup(services, params[0])
  const keys = (await services.store.apiKeys.all()).filter((k) => k.group_id === group.id)
  const userKeys = keys.filter((k) => k.app_secret_enc === null).length
  if (userKeys > 0) throw gatewayError('conflict', 'group_in_use', { id: group.id, count: userKeys })
  await applyChange(services, async (tx) => {
    for (const k of keys) await tx.apiKeys.remove(k.id)
    await tx.groups.remove(group.id)
  })
  noContent(ctx)
}

/**
 * POST /admin/v1/groups/{id}/app-key: the app's own key for the group, so the app's panels call the gateway
 * like any client. Made on first use and kept sealed; revoking it makes the next call mint a new one.
 */
export async function appKey(ctx: RequestContext, services: Services, params: string[]): Promise<void> {
  const group = await findGroup(services, params[0])
  const { key, made } = await appKeyOf(services, group.id)
  sendJson(ctx.res, made ? 201 : 200, { key })
}

/** The app's own key of a group (sealed in the store), made when it has none. */
export async function appKeyOf(services: Services, groupId: string): Promise<{ key: string; made: boolean }> {
  const existing = await services.store.apiKeys.appKeyOf(groupId)
  if (existing) return { key: services.secrets.decrypt(existing.app_secret_enc!), made: false }
  const key = generateKey()
  const hash = services.registry.keyHasher.hash(key)
  await applyChange(services, (tx) =>
    tx.apiKeys.upsert({
      id: keyId(hash), hash, hint: keyHint(key), group_id: groupId, name: 'Gatehouse app', concurrency: null, quota_nano: null,
      expires_at: null, disabled: 0, created_at: Math.floor(Date.now() / 1000), app_secret_enc: services.secrets.encrypt(key),
    }),
  )
  return { key, made: true }
}
