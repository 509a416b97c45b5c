import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { GatewayConfig } from '../../electron/gateway/config/load-config.js'
import { startGateway, type GatewayOptions, type RunningGateway } from '../../electron/gateway/gateway.js'
import { fileSecretBox } from '../../electron/gateway/secrets/secrets.js'
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
      { id: 'test-gpt', family: 'gpt', vendor: 'openai', pricing: { unit: 'token', input: 2, output: 8 } },
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
