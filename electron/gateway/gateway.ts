import type { AddressInfo } from 'node:net'
import { createAdminAuth } from './admin/admin-auth.js'
import { DEFAULT_SESSION_LIMITS, type SessionLimits } from './admin/session-table.js'
import { defaultRendererDir } from './admin/static-files.js'
import { clientTimeoutsOf } from './client-timeouts.js'
import { applyConfig } from './config/apply-config.js'
import { createFirstKey, seedDefaultGroups } from './config/defaults.js'
import { upgradeSealedKeys } from './key-hashing.js'
import type { GatewayConfig } from './config/load-config.js'
import { createHttp, DEFAULT_TIMEOUTS } from './http.js'
import { createConcurrencyLimiter } from './limits.js'
import { mediaFilesFor } from './media-files.js'
import { createRedactor } from './redact.js'
import { Registry } from './registry.js'
import { ROUTES } from './routes/index.js'
import { fileSecretBox, type SecretBox } from './secrets.js'
import { createGatewayServer } from './server.js'
import type { Services } from './services.js'
import { failInterruptedImageTasks } from './tasks/image-tasks.js'
import { createStore } from './store/index.js'
import { startVideoPoller } from './tasks/video-poller.js'
import { videoPollOptions, type VideoPollOptions } from './tasks/video-runtime.js'
import { GATEHOUSE_VERSION } from './version.js'

export interface GatewayOptions {
  dataDir: string
  config?: GatewayConfig
  host?: string
  port?: number
  /** how secrets are sealed at rest; defaults to the 0600 key file in the data dir */
  secrets?: SecretBox
  /** where log lines go (stderr by default); every line has its secrets removed first */
  log?: (line: string) => void
  /** video task polling (intervals, timeouts, concurrency); `GATEHOUSE_VIDEO_POLL_MS` sets the first interval too */
  videoPoll?: Partial<VideoPollOptions>
  /** `desktop` inside the Electron window, `headless` otherwise (what the app's session says) */
  mode?: 'desktop' | 'headless'
  /** the built renderer to serve at `/`; defaults to dist/renderer of this checkout; null: none */
  rendererDir?: string | null
  /** admin sessions' idle timeout, lifetime and cap (defaults: 30 minutes, 12 hours, 32; see session-table.ts) */
  adminSessions?: Partial<SessionLimits>
}

export interface RunningGateway {
  url: string
  host: string
  port: number
  /** set when a new data dir got its first key; show it once */
  firstKey?: string
  services: Services
  /** the admin API's token for this run (the desktop window gets it from the preload) */
  adminToken: string
  /** a new one-time address that signs a browser in to the app */
  loginUrl(): string
  close(graceMs?: number): Promise<void>
}

/** Opens the store, applies the config, and starts listening. Free of Electron: the desktop app and the CLI both call it. */
export async function startGateway(options: GatewayOptions): Promise<RunningGateway> {
  // One redactor per gateway, told every upstream secret by the registry at each reload; every log line passes it.
  const redactor = createRedactor()
  const sink = options.log ?? ((line: string) => process.stderr.write(`${line}\n`))
  const log = (line: string) => sink(redactor.redact(line))
  const store = createStore(options.dataDir, log)
  try {
    // Streams cut short by a dead process are billed for what their checkpoints counted, before balances are read.
    const settled = await store.ledger.settleInterrupted()
    if (settled > 0) log(`[gatehouse] settled ${settled} stream(s) interrupted by the last stop (status 499, interrupted_by_restart)`)
    const secrets = options.secrets ?? fileSecretBox(options.dataDir)
    const registry = await Registry.open(store, secrets, redactor, log)
    const fresh = await store.groups.isEmpty()
    if (fresh) await seedDefaultGroups(store, registry.builtinModels)
    await upgradeSealedKeys(store, secrets, registry.keyHasher)
    if (options.config) await applyConfig(options.config, store, secrets, registry.builtinModels, registry.keyHasher)
    const firstKey = fresh && (await store.apiKeys.count()) === 0 ? await createFirstKey(store, registry.keyHasher) : undefined
    await registry.reload()

    const http = createHttp({ ...DEFAULT_TIMEOUTS, ...options.config?.timeouts }, { allowPrivateAddresses: options.config?.network?.allowPrivateAddresses })
    const admin = createAdminAuth({ ...DEFAULT_SESSION_LIMITS, ...options.adminSessions })
    const app = { mode: options.mode ?? 'headless', version: GATEHOUSE_VERSION, baseUrl: '', rendererDir: options.rendererDir === null ? undefined : (options.rendererDir ?? defaultRendererDir()) } as const
    const services: Services = { store, registry, http, limiter: createConcurrencyLimiter(registry), dataDir: options.dataDir, media: mediaFilesFor(store.sql, options.dataDir), secrets, admin, app: { ...app }, log }
    await failInterruptedImageTasks(services)
    const gateway = createGatewayServer(services, ROUTES, {
      allowedHosts: options.config?.allowedHosts ?? [],
      timeouts: clientTimeoutsOf(options.config?.timeouts),
      maxConnections: options.config?.limits?.maxConnections,
    })
    const host = options.host ?? '127.0.0.1'
    await new Promise<void>((resolve, reject) => {
      gateway.server.once('error', reject)
      gateway.server.listen(options.port ?? 0, host, () => resolve())
    })
    const { port } = gateway.server.address() as AddressInfo
    // Unfinished video tasks are resumed, not failed: their vendor jobs run on without us.
    const videoPoller = await startVideoPoller(services, videoPollOptions(options.videoPoll), log)
    const urlHost = host.includes(':') ? `[${host}]` : host
    const url = `http://${urlHost}:${port}`
    services.app.baseUrl = url
    return {
      url,
      host,
      port,
      firstKey,
      services,
      adminToken: admin.token,
      loginUrl: () => `${url}/admin/login?code=${admin.newLoginCode()}`,
      async close(graceMs = 10_000) {
        await gateway.close(graceMs)
        await videoPoller.stop()
        await http.close(graceMs)
        await store.close()
      },
    }
  } catch (err) {
    await store.close()
    throw err
  }
}
