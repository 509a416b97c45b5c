import { FAMILY_TYPE } from '../../../shared/types.js'
import type { CatalogModel } from '../../../shared/types.js'
import { keyHint, keyId, legacyKeyHash, type KeyHasher } from '../secrets/keys.js'
import { usdToNano } from '../money/money.js'
import type { SecretBox } from '../secrets/secrets.js'
import type { Repos } from '../store/index.js'
import { ConfigError, modelIdsOf, type GatewayConfig } from './load-config.js'

/** Checks every cross-reference of the config against itself, the store and the catalog; throws ConfigError. */
export async function checkReferences(config: GatewayConfig, store: Repos, builtin: CatalogModel[]): Promise<void> {
  const models = new Set([...builtin.map((m) => m.id), ...(await store.modelOverrides.all()).map((m) => m.id)])
  const builtinIds = new Set(builtin.map((m) => m.id))
  config.models?.forEach((m, i) => {
    if (!builtinIds.has(m.id)) {
      for (const field of ['vendor', 'family', 'pricing'] as const) {
        if (m[field] === undefined) throw new ConfigError(`models[${i}].${field}`, 'is required for a model that is not in the built-in catalog')
      }
    }
    models.add(m.id)
  })
  config.models?.forEach((m, i) => {
    m.fallbacks?.forEach((f, j) => {
      if (f.model === m.id) throw new ConfigError(`models[${i}].fallbacks[${j}].model`, `"${m.id}" cannot fall back to itself`)
      if (!models.has(f.model)) throw new ConfigError(`models[${i}].fallbacks[${j}].model`, `unknown model "${f.model}"`)
    })
  })
  const upstreams = new Set((await store.upstreams.all()).map((u) => u.id))
  config.upstreams?.forEach((u, i) => {
    if (config.upstreams!.findIndex((o) => o.id === u.id) !== i) throw new ConfigError(`upstreams[${i}].id`, `duplicate id "${u.id}"`)
    if (u.models !== undefined) {
      modelIdsOf(u.models).forEach((m, j) => {
        if (!models.has(m)) throw new ConfigError(Array.isArray(u.models) ? `upstreams[${i}].models[${j}]` : `upstreams[${i}].models.${m}`, `unknown model "${m}"`)
      })
    }
    upstreams.add(u.id)
  })
  const groups = new Set((await store.groups.all()).map((g) => g.id))
  config.groups?.forEach((g, i) => {
    g.upstreams.forEach((u, j) => {
      if (!upstreams.has(u)) throw new ConfigError(`groups[${i}].upstreams[${j}]`, `unknown upstream "${u}"`)
    })
    g.models.forEach((m, j) => {
      if (!models.has(m)) throw new ConfigError(`groups[${i}].models[${j}]`, `unknown model "${m}"`)
    })
    groups.add(g.id)
  })
  config.keys?.forEach((k, i) => {
    if (!groups.has(k.group)) throw new ConfigError(`keys[${i}].group`, `unknown group "${k.group}"`)
  })
}

export const toUnixSeconds = (value: string | number | undefined): number | null =>
  value === undefined ? null : typeof value === 'number' ? value : Math.floor(Date.parse(value) / 1000)

/**
 * Upserts the whole config into the store in one transaction: it is applied entirely or not at all. Keys are upserted
 * by their keyed hash; a key still stored with its legacy SHA-256 is upgraded first, so it keeps its row and id.
 */
export async function applyConfig(config: GatewayConfig, store: Repos, secrets: SecretBox, builtin: CatalogModel[], hasher: KeyHasher): Promise<void> {
  const now = Math.floor(Date.now() / 1000)
  await store.transaction(async (tx) => {
    // Checked inside the transaction: what it checks against cannot change before the upserts.
    await checkReferences(config, tx, builtin)
    if (config.account?.concurrency !== undefined) await tx.account.setConcurrency(config.account.concurrency)
    if (config.account?.balance !== undefined) await tx.account.applyConfigBalance(usdToNano(config.account.balance))
    for (const m of config.models ?? []) {
      const builtinEntry = builtin.find((b) => b.id === m.id)
      // A row naming only a built-in model's fallbacks (or any other field) keeps the rest of its entry.
      await tx.modelOverrides.upsert({ created: builtinEntry?.created ?? now, ...m, type: FAMILY_TYPE[(m.family ?? builtinEntry?.family)!] })
    }
    for (const u of config.upstreams ?? []) {
      await tx.upstreams.upsert({
        id: u.id,
        vendor: u.vendor,
        base_url: u.baseUrl,
        api_key_enc: secrets.encrypt(u.apiKey),
        models: u.models ? JSON.stringify(u.models) : null,
        priority: u.priority ?? 0,
        budget_nano: u.budget === undefined ? null : usdToNano(u.budget),
      })
    }
    for (const g of config.groups ?? []) {
      await tx.groups.upsert({ id: g.id, name: g.name ?? null, protocol: g.protocol, models: g.models, upstreams: g.upstreams, options: { ...g.images, ...(g.continuation === undefined ? {} : { continuation: g.continuation }) } })
    }
    for (const k of config.keys ?? []) {
      const hash = hasher.hash(k.key)
      await tx.apiKeys.rehashLegacy(legacyKeyHash(k.key), hash)
      await tx.apiKeys.upsert({
        id: keyId(hash),
        hash,
        hint: keyHint(k.key),
        group_id: k.group,
        name: k.name ?? null,
        concurrency: k.concurrency ?? null,
        quota_nano: k.quota === undefined ? null : usdToNano(k.quota),
        expires_at: toUnixSeconds(k.expiresAt),
        disabled: k.disabled ? 1 : 0,
        created_at: now,
      })
    }
  })
}
