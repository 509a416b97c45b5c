import type { CatalogModel, GroupProtocol, Vendor } from '../../shared/types.js'
import { createCatalog, loadBuiltinModels, type Catalog } from './catalog/catalog.js'
import { installKeyHasher } from './store/key-hashing.js'
import { legacyKeyHash, type KeyHasher } from './secrets/keys.js'
import { createRedactor, type Redactor } from './secrets/redact.js'
import type { SecretBox } from './secrets/secrets.js'
import type { Account, ApiKey, Group, UpstreamAccount } from './contract/accounts.js'
import type { Store } from './store/index.js'
import type { UncommittedCharges } from './store/ledger.js'

/**
 * What the request path reads on every call, held in memory and rebuilt from the store
 * whenever configuration changes, so that a request never waits on a query to authorize.
 */
export class Registry {
  catalog!: Catalog
  groups = new Map<string, Group>()
  upstreams = new Map<string, UpstreamAccount>()
  /** keys by their keyed hash */
  keysByHash = new Map<string, ApiKey>()
  /** keys of an older store by their plain SHA-256, until they are next presented */
  legacyKeys = new Map<string, ApiKey>()
  keysById = new Map<string, ApiKey>()
  account!: Account
  readonly builtinModels: CatalogModel[] = loadBuiltinModels()

  /** `redactor` learns every upstream account's key at each reload. Use `Registry.open`, which loads it. */
  private constructor(
    private readonly store: Store,
    private readonly secrets: SecretBox,
    readonly redactor: Redactor,
    readonly keyHasher: KeyHasher,
    private readonly log: (line: string) => void,
  ) {}

  /** The registry of the store, loaded; `log` takes the errors of work done in the background (a key's rehash). */
  static async open(store: Store, secrets: SecretBox, redactor: Redactor = createRedactor(), log: (line: string) => void = () => {}): Promise<Registry> {
    const registry = new Registry(store, secrets, redactor, await installKeyHasher(store, secrets), log)
    await registry.reload()
    return registry
  }

  /**
   * Reads balances from the store with every charge mirrored in memory counted once: queued charges are committed
   * first, and `apply` (synchronous) gets the charges queued during the read, which the read does not include
   * (store/ledger.ts readCommitted).
   */
  readBalances<T>(read: () => Promise<T>, apply?: (result: T, queued: UncommittedCharges) => void): Promise<T> {
    return this.store.ledger.readCommitted(read, apply)
  }

  /** The end of the last reload asked for (never rejects). */
  private reloading: Promise<void> = Promise.resolve()

  /** Called after each reload, with the new maps in place (gateway.ts: requests of keys withdrawn end). */
  afterReload: () => void = () => {}

  /**
   * Rebuilds everything from the store; the maps are swapped in at the end, so requests never see half of it.
   * Reloads run one at a time, in the order asked (an admin change's and a change notice's), so an older read
   * never replaces a newer one.
   */
  reload(): Promise<void> {
    const run = this.reloading.then(() => this.load())
    this.reloading = run.catch(() => {})
    return run
  }

  private async load(): Promise<void> {
    const { store } = this
    await this.readBalances(
      () => Promise.all([store.modelOverrides.all(), store.groups.all(), store.upstreams.all(), store.apiKeys.all(), store.account.get()]),
      (rows, queued) => this.install(...rows, queued),
    )
    this.afterReload()
  }

  /**
   * The maps swapped in from what the store holds, with the charges queued since its read counted on top (run in the
   * ledger's turn: no charge is mirrored on the maps it replaces meanwhile).
   */
  private install(
    overrides: Awaited<ReturnType<Store['modelOverrides']['all']>>,
    groups: Awaited<ReturnType<Store['groups']['all']>>,
    upstreams: Awaited<ReturnType<Store['upstreams']['all']>>,
    keys: Awaited<ReturnType<Store['apiKeys']['all']>>,
    account: Awaited<ReturnType<Store['account']['get']>>,
    queued: UncommittedCharges,
  ): void {
    this.candidateCache = new Map()
    this.catalog = createCatalog(this.builtinModels, overrides)
    this.groups = new Map(groups.map((g) => [g.id, { ...g, modelSet: new Set(g.models) }]))
    this.upstreams = new Map(
      upstreams.map((u) => [
        u.id,
        {
          id: u.id,
          vendor: u.vendor,
          baseUrl: u.base_url.replace(/\/+$/, ''),
          apiKey: this.secrets.decrypt(u.api_key_enc),
          ...accountModels(u.models),
          priority: u.priority,
          budgetNano: u.budget_nano,
          spentNano: u.spent_nano + (queued.upstreams.get(u.id) ?? 0),
        },
      ]),
    )
    this.redactor.setSecrets([...this.upstreams.values()].map((u) => u.apiKey))
    this.keysByHash = new Map()
    this.legacyKeys = new Map()
    this.keysById = new Map()
    for (const k of keys) {
      const key: ApiKey = {
        id: k.id,
        hint: k.hint,
        groupId: k.group_id,
        name: k.name,
        concurrency: k.concurrency,
        quotaNano: k.quota_nano,
        usedNano: k.used_nano + (queued.keys.get(k.id) ?? 0),
        expiresAt: k.expires_at,
        disabled: k.disabled === 1,
      }
      ;(k.legacy_sha256 === 1 ? this.legacyKeys : this.keysByHash).set(k.hash, key)
      this.keysById.set(k.id, key)
    }
    this.account = { budgetNano: account.budget_nano, balanceNano: account.balance_nano - queued.account, reservedNano: account.reserved_nano, concurrency: account.concurrency }
  }

  /**
   * Team mode: the money other replicas moved (the account's balance and reservations, keys' and upstream accounts'
   * spend) read back in three light queries, so pre-call checks see it; charges mirrored here meanwhile are kept.
   */
  async refreshMoney(): Promise<void> {
    const { store } = this
    await this.readBalances(
      () => Promise.all([store.account.get(), store.apiKeys.spending(), store.upstreams.spending()]),
      ([account, keys, upstreams], queued) => this.mirrorStored({ account, keys, upstreams }, queued),
    )
  }

  /**
   * Money read from the store (`readBalances`' read) set in memory, with the charges still queued counted on top: the
   * account's balance and reservations, and the spend of the keys and upstream accounts read.
   */
  mirrorStored(
    stored: {
      account: { balance_nano: number; reserved_nano: number }
      keys?: ReadonlyArray<{ id: string; used_nano: number }>
      upstreams: ReadonlyArray<{ id: string; spent_nano: number }>
    },
    queued: UncommittedCharges,
  ): void {
    this.account.balanceNano = stored.account.balance_nano - queued.account
    this.account.reservedNano = stored.account.reserved_nano
    for (const k of stored.keys ?? []) {
      const key = this.keysById.get(k.id)
      if (key) key.usedNano = k.used_nano + (queued.keys.get(k.id) ?? 0)
    }
    for (const u of stored.upstreams) {
      const upstream = this.upstreams.get(u.id)
      if (upstream) upstream.spentNano = u.spent_nano + (queued.upstreams.get(u.id) ?? 0)
    }
  }

  /**
   * The key a client presented, if it exists. A key of an older store (plain SHA-256) is found too, and its row gets
   * the keyed hash then, keeping its id. Hashing costs more than the rest of auth, so the keyed hashes of recently
   * presented keys are remembered, by the SHA-256 of the key (a plaintext key is never kept).
   */
  findKey(presented: string): ApiKey | undefined {
    const legacy = legacyKeyHash(presented)
    let hash = this.hashMemo.get(legacy)
    if (hash === undefined) {
      if (this.hashMemo.size >= HASH_MEMO_SIZE) this.hashMemo.delete(this.hashMemo.keys().next().value!)
      hash = this.keyHasher.hash(presented)
      this.hashMemo.set(legacy, hash)
    }
    const key = this.keysByHash.get(hash)
    if (key !== undefined || this.legacyKeys.size === 0) return key
    const old = this.legacyKeys.get(legacy)
    if (old !== undefined) {
      // Not awaited: the request goes on with the key found; the maps already know its new hash.
      this.store.apiKeys.rehash(old.id, hash).catch((err: unknown) => this.log(`[gatehouse] could not upgrade the hash of key ${old.id}: ${(err as Error).message}`))
      this.legacyKeys.delete(legacy)
      this.keysByHash.set(hash, old)
    }
    return old
  }

  /** Does this upstream account serve the model? */
  serves(upstream: UpstreamAccount, model: CatalogModel): boolean {
    if (upstream.models) return upstream.models.has(model.id)
    return upstream.vendor === 'gateway' || upstream.vendor === model.vendor
  }

  /**
   * The group's accounts that serve the model with a capability, in failover order (higher priority first,
   * then the group's order). Cached until the next reload: every request asks.
   */
  candidates(group: Group, model: CatalogModel, capability: string, usable: (u: UpstreamAccount) => boolean): UpstreamAccount[] {
    const cacheKey = `${group.id}\u0000${model.id}\u0000${capability}`
    let found = this.candidateCache.get(cacheKey)
    if (found === undefined) {
      found = group.upstreams
        .map((id) => this.upstreams.get(id))
        .filter((u): u is UpstreamAccount => u !== undefined && this.serves(u, model) && usable(u))
        .sort((a, b) => b.priority - a.priority)
      this.candidateCache.set(cacheKey, found)
    }
    return found
  }

  private candidateCache = new Map<string, UpstreamAccount[]>()
  /** SHA-256 of a presented key → its keyed hash; oldest dropped first */
  private readonly hashMemo = new Map<string, string>()
}

const HASH_MEMO_SIZE = 1024

/**
 * An account's stored `models`: absent (every model of its vendor), an array of ids served under their own names, or
 * an object mapping each id to the account's own name for it (kept only where the name differs, so an account
 * serving ids under their own names pays nothing per request).
 */
function accountModels(stored: string | null): Pick<UpstreamAccount, 'models' | 'modelNames'> {
  if (stored === null) return {}
  const parsed = JSON.parse(stored) as string[] | Record<string, string>
  if (Array.isArray(parsed)) return { models: new Set(parsed) }
  const renamed = Object.entries(parsed).filter(([id, name]) => id !== name)
  return { models: new Set(Object.keys(parsed)), ...(renamed.length > 0 ? { modelNames: new Map(renamed) } : {}) }
}
