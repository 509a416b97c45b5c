import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, beforeEach } from 'vitest'
import type { GatewayConfig } from '../../electron/gateway/config/load-config.js'
import { startGateway, type GatewayOptions, type RunningGateway } from '../../electron/gateway/gateway.js'
import { fileSecretBox } from '../../electron/gateway/secrets/secrets.js'
import { startFakeOpenAI } from '../fakes/openai.js'
import { fetchConforming } from './openapi-conformance.js'
import { freshDatabase } from './pg-database.js'

export const TEST_KEY = 'sk-test-0123456789abcdef'

/** A data dir of its own for each test gateway, removed by the returned cleanup. */
export function tempDataDir(): { dir: string; remove(): void } {
  const dir = mkdtempSync(join(tmpdir(), 'gatehouse-test-'))
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) }
}

/** A config with one OpenAI-compatible upstream at `baseUrl`, one chat group with test models, and TEST_KEY. */
export function chatConfig(upstreams: Array<{ id: string; baseUrl: string }>, extra: Partial<GatewayConfig> = {}): GatewayConfig {
  return {
    account: { balance: 100, concurrency: 5 },
    models: [
      // An output limit, as every real model has: a request without max_tokens holds it as its worst case (0.033 USD).
      { id: 'test-gpt', family: 'gpt', vendor: 'openai', pricing: { unit: 'token', input: 2, output: 8 }, limits: { maxOutputTokens: 4096 } },
      { id: 'test-image', family: 'gpt-image', vendor: 'openai', pricing: { unit: 'image', price: 0.04 } },
    ],
    upstreams: upstreams.map((u) => ({ id: u.id, vendor: 'openai' as const, baseUrl: u.baseUrl, apiKey: `upstream-secret-${u.id}` })),
    groups: [
      { id: 'main', protocol: 'chat', models: ['test-gpt', 'test-image'], upstreams: upstreams.map((u) => u.id) },
      { id: 'anthropic-only', protocol: 'messages', models: ['test-gpt'], upstreams: upstreams.map((u) => u.id) },
    ],
    keys: [
      { key: TEST_KEY, group: 'main', name: 'test' },
      { key: 'sk-messages-0123456789', group: 'anthropic-only' },
    ],
    ...extra,
  }
}

export interface TestGateway extends RunningGateway {
  /** the gateway's data dir (removed by stop()) */
  dataDir: string
  stop(): Promise<void>
  post(path: string, body: unknown, headers?: Record<string, string>): Promise<Response>
  get(path: string, headers?: Record<string, string>): Promise<Response>
}

/**
 * The fake vendors listen on 127.0.0.1, so their result links are private addresses: test gateways allow them
 * unless the config says otherwise (the link-guard tests do).
 */
export const withLocalLinks = (config: GatewayConfig): GatewayConfig => ({ ...config, network: { allowPrivateAddresses: true, ...config.network } })

/** The store test gateways run on: `GATEHOUSE_TEST_STORE=postgres` (the node-pg project) or the embedded SQLite. */
export const TEST_STORE: 'postgres' | 'sqlite' = process.env.GATEHOUSE_TEST_STORE === 'postgres' ? 'postgres' : 'sqlite'

/** Each data dir's database on PostgreSQL, so a gateway restarted on a data dir finds its data again. */
const databases = new Map<string, Promise<string>>()

/**
 * Starts a gateway on the suite's store: as given on SQLite, or when the options name a database; otherwise, on
 * PostgreSQL, on the data dir's own database (fresh on first use), sealing with the data dir's key file as on SQLite
 * (so the key is the same for a data dir).
 */
export async function startGatewayOnTestStore(options: GatewayOptions): Promise<RunningGateway> {
  if (TEST_STORE === 'sqlite' || options.databaseUrl !== undefined) return startGateway(options)
  let database = databases.get(options.dataDir)
  if (!database) databases.set(options.dataDir, (database = freshDatabase()))
  const gateway = await startGateway({ ...options, databaseUrl: await database, secrets: options.secrets ?? fileSecretBox(options.dataDir) })
  // The matrix must not pass on the wrong store.
  if (gateway.services.store.sql.dialect !== 'postgres') {
    await gateway.close(0)
    throw new Error(`GATEHOUSE_TEST_STORE=postgres, but the gateway opened a ${gateway.services.store.sql.dialect} store`)
  }
  return gateway
}

/** Starts a real gateway on an ephemeral port of 127.0.0.1 (`options` adds to or overrides the start options). */
export async function startTestGateway(config: GatewayConfig, dataDir = tempDataDir(), options: Partial<GatewayOptions> = {}): Promise<TestGateway> {
  const logs: string[] = []
  const gateway = await startGatewayOnTestStore({ dataDir: dataDir.dir, config: withLocalLinks(config), port: 0, log: (l) => logs.push(l), ...options })
  const auth = { authorization: `Bearer ${TEST_KEY}` }
  return {
    ...gateway,
    dataDir: dataDir.dir,
    async stop() {
      await gateway.close(1_000)
      dataDir.remove()
    },
    // Every answer is checked against /openapi.json: a documented status, and a body that fits its schema.
    post: (path, body, headers = {}) =>
      fetchConforming(`${gateway.url}${path}`, {
        method: 'POST',
        headers: { ...auth, 'content-type': 'application/json', ...headers },
        body: typeof body === 'string' ? body : JSON.stringify(body),
      }),
    get: (path, headers = {}) => fetchConforming(`${gateway.url}${path}`, { headers: { ...auth, ...headers } }),
  }
}

/** A fake vendor, or any server a file starts for its gateway: closed after the file's tests, reset if it can be. */
export interface TestServer {
  close(): Promise<void>
  reset?(): void
}
export type FakeStarters = Record<string, () => Promise<TestServer>>
export type StartedFakes<F extends FakeStarters> = { [K in keyof F]: Awaited<ReturnType<F[K]>> }

export interface GatewayFixture<F extends FakeStarters> {
  /** the fakes to start first, by name: each a function that starts one (`startFakeOpenAI`, `() => startFakeAnthropic({ apiKey })`) */
  fakes?: F
  /** the gateway's config, built from the started fakes (their URLs) */
  config(fakes: StartedFakes<F>): GatewayConfig | Promise<GatewayConfig>
  /** start options added to or overriding a test gateway's (`videoPoll`, `log` …) */
  options?: Partial<GatewayOptions>
  /** before each test, every fake is reset (its calls, queued and default scenarios), and the gateway's circuit breakers */
  resetFakes?: boolean
}

/**
 * The integration files' setup: in the file's (or, called inside a describe, that block's) beforeAll, starts the
 * named fakes, builds the config from them and starts one test gateway that the tests share; afterAll stops the
 * gateway, then closes the fakes. The handles it answers can be kept at once (`const { gw, fakes } = withGateway(...)`)
 * and used from the hooks and tests that follow it.
 */
export function withGateway<F extends FakeStarters = Record<never, never>>(fixture: GatewayFixture<F>): { gw: TestGateway; fakes: StartedFakes<F> } {
  const fakes = fileFakes('withGateway', fixture.fakes)
  let gateway: TestGateway | undefined
  beforeAll(async () => {
    gateway = await startTestGateway(await fixture.config(await fakes.start()), tempDataDir(), fixture.options)
  })
  afterAll(async () => {
    try {
      await gateway?.stop()
    } finally {
      await fakes.close()
    }
  })
  // The gateway's circuit breakers forget the fakes' failures with them: each test starts on closed breakers.
  if (fixture.resetFakes) beforeEach(() => {
    fakes.reset()
    gateway?.services.routing.breakers.reset()
  })
  return { gw: late('withGateway: the gateway', () => gateway), fakes: fakes.handles }
}

/**
 * A fixture's fakes (withGateway, e2e's withApp): `start` starts them all at once in its beforeAll (each kept as soon
 * as it is up, so that `close` in its afterAll closes those that started when another failed); `handles` stand for
 * them from the start.
 */
export function fileFakes<F extends FakeStarters>(owner: string, starters: F = {} as F) {
  const names = Object.keys(starters) as Array<keyof F & string>
  const started: Record<string, TestServer> = {}
  return {
    async start(): Promise<StartedFakes<F>> {
      const starts = await Promise.allSettled(names.map(async (name) => (started[name] = await starters[name]())))
      const failed = starts.find((s) => s.status === 'rejected')
      if (failed) throw failed.reason
      return started as StartedFakes<F>
    },
    close: () => Promise.all(Object.values(started).map((fake) => fake.close())),
    reset: () => Object.values(started).forEach((fake) => fake.reset?.()),
    handles: Object.fromEntries(names.map((name) => [name, late(`${owner}: fake "${name}"`, () => started[name])])) as StartedFakes<F>,
  }
}

/**
 * The most common setup: one fake OpenAI as upstream `a` of chatConfig; `extra` adds to the config (or replaces its
 * parts), `moreKeys` are keys beside chatConfig's two.
 */
export function fakeOpenAIChat(extra: Partial<GatewayConfig> = {}, moreKeys: NonNullable<GatewayConfig['keys']> = []): GatewayFixture<{ openai: typeof startFakeOpenAI }> {
  return {
    fakes: { openai: startFakeOpenAI },
    config({ openai }) {
      const config = chatConfig([{ id: 'a', baseUrl: openai.url }], extra)
      config.keys!.push(...moreKeys)
      return config
    },
  }
}

/** Stands for the object `get` answers once a fixture's beforeAll made it (withGateway, e2e's withApp): every property read goes to it. */
export function late<T extends object>(what: string, get: () => T | undefined): T {
  const target = () => {
    const value = get()
    if (value === undefined) throw new Error(`${what} is used before the beforeAll that starts it`)
    return value
  }
  return new Proxy({} as T, {
    get(_, key) {
      const value = Reflect.get(target(), key)
      return typeof value === 'function' ? value.bind(target()) : value
    },
    set: (_, key, value) => Reflect.set(target(), key, value),
    has: (_, key) => Reflect.has(target(), key),
    ownKeys: () => Reflect.ownKeys(target()),
    getOwnPropertyDescriptor(_, key) {
      const descriptor = Reflect.getOwnPropertyDescriptor(target(), key)
      return descriptor && { ...descriptor, configurable: true }
    },
  })
}
