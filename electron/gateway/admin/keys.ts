import type { CreatedKey, KeySummary } from '../../../shared/admin.js'
import { keyCreate, keyPatch } from '../../../shared/schemas/admin.js'
import { applyConfig, toUnixSeconds } from '../config/apply-config.js'
import type { RequestContext } from '../context.js'
import { generateKey } from '../secrets/keys.js'
import { nanoToUsd, usdToNano } from '../money/money.js'
import { sendJson } from '../respond.js'
import type { Services } from '../services.js'
import type { ApiKeyChanges, ApiKeyRow } from '../store/api-keys.js'
import { applyChange, bodyReader, noContent, notFound, queryOf, segment } from './admin-io.js'

interface KeyBody {
  group: string
  name?: string
  concurrency?: number
  quota?: number
  expiresAt?: string | number | null
}
type KeyPatch = { name?: string | null; disabled?: boolean; concurrency?: number | null; quota?: number | null; expiresAt?: string | number | null }
const readCreate = bodyReader<KeyBody>(keyCreate)
const readPatch = bodyReader<KeyPatch>(keyPatch)

/** A key as the app lists it: the hint, never the key; `reserved`, what its work under way holds (store/holds.ts). */
export function keySummary(k: ApiKeyRow, reserved: ReadonlyMap<string, number>): KeySummary {
  return {
    id: k.id, hint: k.hint, group: k.group_id, name: k.name, concurrency: k.concurrency,
    quota: k.quota_nano === null ? null : nanoToUsd(k.quota_nano), used: nanoToUsd(k.used_nano), reserved: nanoToUsd(reserved.get(k.id) ?? 0), expiresAt: k.expires_at,
    disabled: k.disabled === 1, createdAt: k.created_at, app: k.app_secret_enc !== null,
  }
}

async function findKey(services: Services, raw: string): Promise<ApiKeyRow> {
  const id = segment(raw, 'key')
  await services.store.ledger.flush()
  const row = await services.store.apiKeys.get(id)
  if (!row) throw notFound('key', id)
  return row
}

/** GET /admin/v1/keys[?group=] */
export async function listKeys(ctx: RequestContext, services: Services): Promise<void> {
  const group = queryOf(ctx).get('group')
  await services.store.ledger.flush()
  const keys = (await services.store.apiKeys.all()).filter((k) => !group || k.group_id === group)
  const reserved = await services.store.holds.reservedByKey()
  sendJson(ctx.res, 200, keys.map((k) => keySummary(k, reserved)))
}

/** POST /admin/v1/keys: a new key; its secret is in this answer and nowhere else, ever. */
export async function createKey(ctx: RequestContext, services: Services): Promise<void> {
  const { expiresAt, ...body } = await readCreate(ctx)
  const key = generateKey()
  await applyChange(services, (tx) =>
    applyConfig({ keys: [{ ...body, key, ...(expiresAt == null ? {} : { expiresAt }) }] }, tx, services.secrets, services.registry.builtinModels, services.registry.keyHasher),
  )
  const created: CreatedKey = { ...keySummary((await services.store.apiKeys.all()).find((k) => k.hash === services.registry.keyHasher.hash(key))!, new Map()), key }
  sendJson(ctx.res, 201, created, { 'cache-control': 'no-store' })
}

/** PATCH /admin/v1/keys/{id}: rename, disable or enable, expiry, concurrency cap, quota (null clears a limit). */
export async function updateKey(ctx: RequestContext, services: Services, params: string[]): Promise<void> {
  const key = await findKey(services, params[0])
  const patch = await readPatch(ctx)
  const changes: ApiKeyChanges = {}
  if (patch.name !== undefined) changes.name = patch.name
  if (patch.disabled !== undefined) changes.disabled = patch.disabled ? 1 : 0
  if (patch.concurrency !== undefined) changes.concurrency = patch.concurrency
  if (patch.quota !== undefined) changes.quota_nano = patch.quota === null ? null : usdToNano(patch.quota)
  if (patch.expiresAt !== undefined) changes.expires_at = patch.expiresAt === null ? null : toUnixSeconds(patch.expiresAt)
  await applyChange(services, (tx) => tx.apiKeys.update(key.id, changes))
  sendJson(ctx.res, 200, keySummary(await findKey(services, key.id), await services.store.holds.reservedByKey(key.id)))
}

/** DELETE /admin/v1/keys/{id}: revoked at once; its past requests stay in the log. */
export async function revokeKey(ctx: RequestContext, services: Services, params: string[]): Promise<void> {
  const key = await findKey(services, params[0])
  await applyChange(services, (tx) => tx.apiKeys.remove(key.id))
  noContent(ctx)
}
