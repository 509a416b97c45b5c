import type { Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { createAdminAuth } from './admin/admin-auth.js'
import { databaseSessionTable } from './admin/db-session-table.js'
import { issueLoginCode, loginCodeMinutes } from './admin/login-codes.js'
import { SessionDownloads } from './access/session-downloads.js'
import { DEFAULT_SESSION_LIMITS, type SessionLimits } from './admin/session-table.js'
import { defaultRendererDir } from './admin/static-files.js'
import { createBodyBudget, DEFAULT_BODY_BYTES, keyBodyBytes } from './client/body-budget.js'
import { createBodyCapture } from './client/capture.js'
import { bodySettingsOf, readSettings } from './data-dir/settings.js'
import { MAX_BODY_BYTES } from './client/body.js'
import { clientTimeoutsOf } from './client/client-timeouts.js'
import { applyConfig } from './config/apply-config.js'
import { createFirstKey, seedDefaultGroups } from './config/defaults.js'
import { upgradeSealedKeys } from './store/key-hashing.js'
import type { GatewayConfig } from './config/load-config.js'
import { createHttp, DEFAULT_TIMEOUTS } from './upstreams/http.js'
import { createRouting } from './relay/failover.js'
import { Prober } from './relay/probe.js'
import { KeyRequests } from './access/key-requests.js'
import { ReplayTickets } from './access/replay-tickets.js'
import { createConcurrencyLimiter } from './limits.js'
import type { ResolveHost } from './guards/link-guard.js'
import { mediaFilesFor } from './media/media-files.js'
import { createRedactor } from './secrets/redact.js'
import { Registry } from './registry.js'
import { ROUTES } from './routes/index.js'
import { fileSecretBox, type SecretBox } from './secrets/secrets.js'
import { createGatewayMetrics, METRICS_TOKEN_ENV } from './metrics/gateway-metrics.js'
import { createGatewayServer } from './server.js'
import { otlpSettings } from './telemetry/otlp-settings.js'
import { startTracing, type Tracing } from './telemetry/tracing.js'
import type { Services } from './services.js'
import { failInterruptedImageTasks } from './tasks/image-tasks.js'
import { newReplicaId, reposOver, type Store } from './store/index.js'
import { databaseUrlSecrets, redactDatabaseUrl, withoutSecrets } from './store/database-url.js'
import { openStore } from './store/open-store.js'
import { STARTUP_LOCK } from './store/pg-schema.js'
import { createLeaseLimiter } from './team/lease-limiter.js'
import { checkSecretKey, SECRET_KEY_ENV, teamSecretBox } from './team/secret-key.js'
import { DEFAULT_LEASE_SECONDS, startTeamMode, type TeamMode } from './team/team-mode.js'
import { startVideoPoller } from './tasks/video-poller.js'
import { videoPollOptions, type VideoPollOptions } from './tasks/video-runtime.js'
import { prepareCounting } from './tokens/tokens.js'
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
  /** how the host names of links (reference images, vendors' result links) are resolved; dns.lookup by default */
  resolveLinkHost?: ResolveHost
  /**
   * Team mode: the store is this PostgreSQL database (`postgres://USER:PASS@HOST:PORT/DB`), shared with the other
   * replicas; the data dir stays this replica's own. Secrets are sealed with the shared key: `secrets` if given, else
   * the key in `secretKeyFile`, else GATEHOUSE_SECRET_KEY.
   */
  databaseUrl?: string
  secretKeyFile?: string
  /** the token that opens GET /metrics besides the admin API's proofs; default GATEHOUSE_METRICS_TOKEN, else none */
  metricsToken?: string
  /**
   * Once listening, builds the token counter's tables in the background (tokens.ts prepareCounting), so that the
   * first message after a start does not wait for them: the headless run and the app do; off by default.
   */
  prepareCounting?: boolean
}

export interface RunningGateway {
  url: string
  host: string
  port: number
  /** set when a new data dir got its first key; show it once */
  firstKey?: string
  services: Services
  /** the HTTP server (its open connections: `server.getConnections`) */
  server: Server
  /** the admin API's token for this run (the desktop window gets it from the preload) */
  adminToken: string
  /** a new one-time address that signs a browser in to the app, good for `loginCodeMinutes` */
  loginUrl(): Promise<string>
  /** how long a sign-in code works: GATEHOUSE_LOGIN_CODE_MINUTES, else config `admin.loginCodeMinutes`, else 10 */
  loginCodeMinutes: number
  close(graceMs?: number): Promise<void>
}

/** Opens the store, applies the config, and starts listening. Free of Electron: the desktop app and the CLI both call it. */
export async function startGateway(options: GatewayOptions): Promise<RunningGateway> {
  // One redactor per gateway, told every upstream secret by the registry at each reload; every log line passes it.
  const redactor = createRedactor()
  const sink = options.log ?? ((line: string) => process.stderr.write(`${line}\n`))
  const team = options.databaseUrl !== undefined
  const codeMinutes = loginCodeMinutes(options.config?.admin?.loginCodeMinutes)
  // The database URL's passwords never reach a log line, whatever quotes them.
  const databaseSecrets = team ? databaseUrlSecrets(options.databaseUrl!) : []
  const log = (line: string) => sink(withoutSecrets(redactor.redact(line), databaseSecrets))
  // Team mode refuses to start without the shared key before it connects anywhere.
  const teamSecrets = team ? (options.secrets ?? teamSecretBox({ file: options.secretKeyFile, env: process.env[SECRET_KEY_ENV] })) : undefined
  const { store, pool } = await openStore({ dataDir: options.dataDir, databaseUrl: options.databaseUrl, poolSize: options.config?.team?.poolSize, replica: newReplicaId(), log })
  let teamMode: TeamMode | undefined
  let tracing: Tracing | undefined
  try {
    let secrets: SecretBox
    if (teamSecrets) {
      secrets = teamSecrets
      await checkSecretKey(store, secrets)
      log(`[gatehouse] team mode: replica ${store.replica} on ${redactDatabaseUrl(options.databaseUrl!)}`)
    } else {
      // Streams cut short by a dead process are billed for what their checkpoints counted, before balances are read.
      const settled = await store.ledger.settleInterrupted()
      if (settled > 0) log(`[gatehouse] settled ${settled} stream(s) interrupted by the last stop (status 499, interrupted_by_restart)`)
      // What the last run held for requests it never finished is given back (their rows, if any, are written).
      const released = await store.holds.releaseAll()
      if (released > 0) log(`[gatehouse] released ${released} hold(s) of requests the last stop cut`)
      secrets = options.secrets ?? fileSecretBox(options.dataDir)
    }
    const registry = await Registry.open(store, secrets, redactor, log)
    const firstKey = await prepareStore(store, registry, secrets, options.config)
    await registry.reload()

    const http = createHttp({ ...DEFAULT_TIMEOUTS, ...options.config?.timeouts }, { allowPrivateAddresses: options.config?.network?.allowPrivateAddresses, resolveLinkHost: options.resolveLinkHost })
    // A key withdrawn (here or, in team mode, by another replica: a change notice reloads) ends its requests.
    const keyRequests = new KeyRequests(registry)
    registry.afterReload = () => keyRequests.reloaded()
    const sessionDownloads = new SessionDownloads()
    const sessionLimits = { ...DEFAULT_SESSION_LIMITS, ...options.adminSessions }
    const sessionEnded = (id: string) => sessionDownloads.ended(id)
    // Team mode: sessions in the shared database, so any replica serves a browser signed in on another.
    const admin = createAdminAuth(sessionLimits, undefined, sessionEnded, pool ? databaseSessionTable(store.sql, secrets, sessionLimits, undefined, sessionEnded) : undefined)
    const app = { mode: options.mode ?? 'headless', version: GATEHOUSE_VERSION, baseUrl: '', rendererDir: options.rendererDir === null ? undefined : (options.rendererDir ?? defaultRendererDir()) } as const
    const ttlMs = (options.config?.team?.leaseSeconds ?? DEFAULT_LEASE_SECONDS) * 1000
    const leases = pool ? createLeaseLimiter({ sql: store.sql, replica: store.replica, registry, ttlMs, log, giveBack: store.ledger.releaseLeases }) : undefined
    const bodies = createBodyBudget(options.config?.limits?.bodyBytes ?? DEFAULT_BODY_BYTES, (key) => keyBodyBytes(key, registry.account.concurrency, MAX_BODY_BYTES))
    const routing = createRouting(options.config?.routing)
    routing.prober = new Prober(routing.breakers, http, (id) => registry.upstreams.get(id), log)
    const limiter = leases ?? createConcurrencyLimiter(registry)
    // Off unless a collector is named: then OpenTelemetry is never loaded, and the request path checks one hook.
    const traces = otlpSettings(options.config?.telemetry, process.env)
    if (traces !== undefined) {
      tracing = await startTracing(traces, { vendorOf: (id) => registry.upstreams.get(id)?.vendor })
      routing.observe = tracing.attemptRecorded
      log(`[gatehouse] tracing: spans go to ${traces.shown} over OTLP/HTTP (service ${traces.serviceName})`)
    }
    const metrics = createGatewayMetrics({
      inFlight: () => ({ total: limiter.inFlight(), byKey: limiter.inFlightByKey() }),
      breakers: () => [...registry.upstreams.keys()].map((account) => ({ account, state: routing.breakers.state(account) })),
    }, options.metricsToken ?? process.env[METRICS_TOKEN_ENV])
    const services: Services = { store, registry, http, routing, limiter, metrics, bodies, replays: new ReplayTickets(), capture: createBodyCapture(store, bodySettingsOf(readSettings(options.dataDir), app.mode), log), dataDir: options.dataDir, media: mediaFilesFor(store.sql, options.dataDir, store.replica), secrets, admin, keyRequests, sessionDownloads, app: { ...app }, log, ...(tracing === undefined ? {} : { tracing }) }
    // One process: what the last run left is failed now. Team mode: only what stopped replicas left, now and every few seconds.
    if (pool && leases) teamMode = await startTeamMode(services, { pool, limiter: leases, ttlMs })
    else await failInterruptedImageTasks(services)
    const gateway = createGatewayServer(services, ROUTES, {
      allowedHosts: options.config?.allowedHosts ?? [],
      timeouts: clientTimeoutsOf(options.config?.timeouts),
      maxConnections: options.config?.limits?.maxConnections,
      maxConnectionsPerAddress: options.config?.limits?.maxConnectionsPerAddress,
    })
    const host = options.host ?? '127.0.0.1'
    await new Promise<void>((resolve, reject) => {
      gateway.server.once('error', reject)
      gateway.server.listen(options.port ?? 0, host, () => resolve())
    })
    const { port } = gateway.server.address() as AddressInfo
    if (options.prepareCounting) void prepareCounting().catch((err: Error) => log(`[gatehouse] token counter: ${err.message}`))
    // Unfinished video tasks are resumed, not failed: their vendor jobs run on without us.
    // In team mode a claimed poll may be a live replica's: a dead one's claims come back with the sweep, not at start.
    const videoPoller = await startVideoPoller(services, videoPollOptions({ ...(team ? { resumeOnStart: false } : {}), ...options.videoPoll }), log)
    const urlHost = host.includes(':') ? `[${host}]` : host
    const url = `http://${urlHost}:${port}`
    services.app.baseUrl = url
    return {
      url,
      host,
      port,
      firstKey,
      services,
      server: gateway.server,
      adminToken: admin.token,
      loginUrl: async () => `${url}/admin/login?code=${await issueLoginCode(store, codeMinutes * 60_000)}`,
      loginCodeMinutes: codeMinutes,
      async close(graceMs = 10_000) {
        await gateway.close(graceMs)
        // Bodies still waiting for their batch are stored before the store closes.
        await services.capture.flush()
        await routing.prober?.stop()
        await videoPoller.stop()
        await teamMode?.stop()
        await http.close(graceMs)
        await store.close()
        // The last spans (the requests just finished) leave within the flush deadline, collector or not.
        await tracing?.close()
      },
    }
  } catch (err) {
    await tracing?.close()
    await teamMode?.stop()
    await store.close()
    throw err
  }
}

/**
 * What a start does to the store, in one transaction: a fresh store's default groups, keys sealed by the app
 * upgraded, the config applied, a fresh store's first key (answered, to be shown once). In team mode it first
 * takes a lock, so replicas starting together with one config apply it one after the other and never twice (the
 * balance is set, not added), and the change notice reaches the replicas already running.
 */
async function prepareStore(store: Store, registry: Registry, secrets: SecretBox, config: GatewayConfig | undefined): Promise<string | undefined> {
  return store.sql.transaction(async (sql) => {
    if (sql.dialect === 'postgres') await sql.get(`SELECT pg_advisory_xact_lock(${STARTUP_LOCK})`)
    const tx = reposOver(sql, store.replica)
    const fresh = await tx.groups.isEmpty()
    if (fresh) await seedDefaultGroups(tx, registry.builtinModels)
    await upgradeSealedKeys(tx, secrets, registry.keyHasher)
    if (config) await applyConfig(config, tx, secrets, registry.builtinModels, registry.keyHasher)
    const firstKey = fresh && (await tx.apiKeys.count()) === 0 ? await createFirstKey(tx, registry.keyHasher) : undefined
    await tx.changes.announce()
    return firstKey
  })
}
