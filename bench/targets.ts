// Starts and stops the benchmark's child processes. Every child is registered before it is ready, so that
// stopAll() also kills one that failed half-way through starting.
import { spawn, type ChildProcess } from 'node:child_process'
import { once } from 'node:events'
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createInterface } from 'node:readline'
import { pathToFileURL } from 'node:url'
import type { GatewayConfig } from '../electron/gateway/config/load-config.js'
import { GATEWAY_NODE_FLAGS } from '../electron/gateway/node-flags.js'
import { bundleFresh } from '../scripts/bundle.mjs'
import { onCore, onTargetCore, type Placement } from './cores.js'
import { countLedger, type LedgerCount } from './ledger.js'
import { ROOT } from './root.js'

export { ROOT }
export const BENCH_KEY = 'sk-bench-0123456789abcdef'
/** A key of the messages-protocol group, for /v1/messages. */
export const BENCH_MESSAGES_KEY = 'sk-bench-messages-0123456789'
export const MODELS = { relay: 'test-gpt', gemini: 'test-gemini', claude: 'test-claude', image: 'bench-image' } as const
/** What Gatehouse sends the fakes, and what the direct measurements send too. */
export const UPSTREAM_KEYS = { openai: 'upstream-secret-bench', gemini: 'upstream-secret-gemini', anthropic: 'upstream-secret-anthropic', images: 'upstream-secret-images' } as const

export interface Child {
  name: string
  /** origin, e.g. http://127.0.0.1:PORT */
  url: string
  /** the child's own pid (node is spawned directly, not through a wrapper), for reading /proc/<pid>/status */
  readonly pid: number | undefined
  /** further origins it printed before that one, as `NAME on URL` lines (the fake upstream's Gemini and Anthropic) */
  origins: Record<string, string>
  /** headers a client adds to its chat requests, beside the content type and the key (a peer's routing headers) */
  requestHeaders: Record<string, string>
  /** the child's last stderr output, for explaining a failure */
  stderrTail(): string
  /** how it ended, if it did (a signal or an exit code); undefined while it runs */
  ended(): string | undefined
  stop(): Promise<void>
}

const running = new Set<Child>()
const START_TIMEOUT_MS = 30_000
const STOP_GRACE_MS = 5_000
const EXIT_WITH_PARENT = pathToFileURL(join(ROOT, 'bench', 'exit-with-parent.mjs')).href

/** Gatehouse: also its ledger, counted once it has stopped and before its data dir is removed. */
export interface GatehouseChild extends Child {
  ledger(): LedgerCount | undefined
}

/** How a child is launched, beyond its script and arguments. */
interface Launch {
  /** the core to pin it to, instead of the target core */
  core?: string
  env?: Record<string, string>
  /** Node flags instead of the default ones (none for TypeScript, the gateway's for a bundle) */
  nodeFlags?: string[]
  /** more modules to preload (`--import`) */
  preload?: string[]
}

/**
 * Runs `script` (TypeScript through tsx's loader; the measured targets as plain JavaScript bundles, as users run the gateway), on the target core when `placement` says so, and resolves once it prints `… listening on URL`; `NAME on URL` lines
 * before that one are kept in `origins`. Node is spawned
 * directly rather than through `npx tsx` so that the pid we signal is the server itself, not a wrapper; stdin is a
 * pipe so that exit-with-parent.mjs can tell when we are gone.
 */
function startChild(name: string, script: string, args: string[], placement?: Placement, afterStop?: () => void, launch: Launch = {}): Promise<Child> {
  const node = [process.execPath]
  const [command, ...argv] = !placement ? node : launch.core === undefined ? onTargetCore(placement, node) : onCore(placement, launch.core, node)
  const loader = script.endsWith('.ts') ? ['--import', 'tsx'] : []
  // The measured proxies (both bare ones and Gatehouse) run with the Node flags `npm run gateway` uses.
  const flags = launch.nodeFlags ?? (script.endsWith('.ts') ? [] : GATEWAY_NODE_FLAGS)
  const preload = [EXIT_WITH_PARENT, ...(launch.preload ?? [])].flatMap((m) => ['--import', m])
  const proc = spawn(command, [...argv, ...flags, ...loader, ...preload, script, ...args], { cwd: ROOT, stdio: ['pipe', 'pipe', 'pipe'], env: { ...process.env, ...launch.env } })
  let tail = ''
  proc.stderr!.setEncoding('utf8').on('data', (s: string) => { tail = (tail + s).slice(-4000) })
  const child: Child = {
    name,
    url: '',
    pid: proc.pid,
    origins: {},
    requestHeaders: {},
    stderrTail: () => tail.trim(),
    ended: () => (proc.signalCode ?? (proc.exitCode === null ? undefined : `exit code ${proc.exitCode}`)) ?? undefined,
    async stop() {
      running.delete(child)
      await stopProcess(proc)
      afterStop?.()
    },
  }
  running.add(child)
  return new Promise((resolve, reject) => {
    const fail = (why: string) => {
      clearTimeout(timer)
      reject(new Error(`${name} ${why}${tail.trim() ? `; its stderr:\n${tail.trim()}` : ''}`))
    }
    const timer = setTimeout(() => fail(`printed no "listening on" line within ${START_TIMEOUT_MS / 1000} s`), START_TIMEOUT_MS)
    // Reading stdout to the end also keeps the pipe from filling up and blocking the child.
    createInterface({ input: proc.stdout! }).on('line', (line) => {
      if (child.url) return
      const other = /^(\w+) on (http:\/\/\S+)$/.exec(line.trim())
      if (other && other[1] !== 'listening') child.origins[other[1]] = other[2].replace(/\/$/, '')
      const match = /listening on (http:\/\/\S+)/.exec(line)
      if (!match) return
      clearTimeout(timer)
      child.url = match[1].replace(/\/$/, '')
      resolve(child)
    })
    proc.once('exit', (code, signal) => { if (!child.url) fail(`exited (${signal ?? `code ${code}`}) before listening`) })
    proc.once('error', (err) => fail(`could not be spawned: ${err.message}`))
  })
}

async function stopProcess(proc: ChildProcess): Promise<void> {
  if (proc.exitCode !== null || proc.signalCode !== null) return
  const exited = once(proc, 'exit')
  proc.kill('SIGTERM')
  const force = setTimeout(() => proc.kill('SIGKILL'), STOP_GRACE_MS)
  await exited
  clearTimeout(force)
}

/** Children that ended while still registered (none stopped them): each with its stderr, to explain a failed run. */
export function endedChildren(): string[] {
  return [...running].flatMap((c) => (c.ended() ? [`${c.name} ended (${c.ended()})${c.stderrTail() ? `; its stderr:\n${c.stderrTail()}` : ''}`] : []))
}

export function stopAll(): Promise<void> {
  return Promise.all([...running].map((c) => c.stop())).then(() => undefined)
}

/**
 * The fakes behind the bare proxy and Gatehouse, beside the load generator; with `placement`, a second copy measured
 * as the "direct" target on the target core.
 */
export function startFakeUpstream(placement?: Placement): Promise<Child> {
  // The fake OpenAI images server checks the key that Gatehouse (and the direct measurement) sends.
  return startChild(placement ? 'fake upstream (direct target)' : 'fake upstream', 'bench/fake-upstream.ts', [UPSTREAM_KEYS.images], placement)
}

/**
 * A bare proxy from a bundle, as Gatehouse runs, so neither pays for a TypeScript loader: `streaming` pipes every
 * answer back as it comes, `buffering` reads a JSON answer whole and sends it in one write (bare-proxy.ts).
 */
export async function startBareProxy(upstreamOrigin: string, placement: Placement, mode: 'streaming' | 'buffering'): Promise<Child> {
  const script = await bundleFresh('bench/bare-proxy.ts', 'dist/bench/bare-proxy.js', ['bench'])
  return startChild(`${mode} bare proxy`, script, [upstreamOrigin, mode], placement)
}

const PORTKEY_DIR = join(ROOT, 'node_modules', '@portkey-ai', 'gateway')
const LISTEN_LOCAL = pathToFileURL(join(ROOT, 'bench', 'listen-local.mjs')).href

/** The installed Portkey gateway's version and its bin (the start-server script); throws if it is not installed. */
export function portkeyPackage(): { version: string; bin: string } {
  const file = join(PORTKEY_DIR, 'package.json')
  if (!existsSync(file)) throw new Error(`@portkey-ai/gateway is not installed (${file} not found; npm install installs the devDependency)`)
  const pkg = JSON.parse(readFileSync(file, 'utf8')) as { version: string; bin: string | Record<string, string> }
  const bin = typeof pkg.bin === 'string' ? pkg.bin : Object.values(pkg.bin)[0]
  if (!bin) throw new Error(`@portkey-ai/gateway ${pkg.version} names no bin in ${file}`)
  return { version: pkg.version, bin: join(PORTKEY_DIR, bin) }
}

/**
 * Portkey's open-source gateway as its package starts it (its bin, `node build/start-server.js`, with no Node flags
 * of ours), headless (no log UI), on the target core. It takes a port but no host: listen-local.mjs binds it to
 * 127.0.0.1 and prints the port it got. Clients route each request to the fake OpenAI upstream with Portkey's
 * headers: provider `openai` at a custom host; the key in Authorization is passed on to the upstream.
 */
export async function startPortkey(upstreamOrigin: string, placement: Placement): Promise<Child> {
  const { version, bin } = portkeyPackage()
  const child = await startChild(`Portkey ${version}`, bin, ['--port=0', '--headless'], placement, undefined, { nodeFlags: [], preload: [LISTEN_LOCAL] })
  child.requestHeaders = { 'x-portkey-provider': 'openai', 'x-portkey-custom-host': `${upstreamOrigin}/v1` }
  return child
}

/** The fake upstream child's four origins (`images` is the fake OpenAI images server; its API is under /v1). */
export interface FakeOrigins { openai: string; gemini: string; anthropic: string; images: string }

export function fakeOrigins(fake: Child): FakeOrigins {
  const { gemini, anthropic, images } = fake.origins
  if (!gemini || !anthropic || !images) throw new Error(`the fake upstream printed no "gemini on" / "anthropic on" / "images on" line (got ${JSON.stringify(fake.origins)})`)
  return { openai: fake.url, gemini, anthropic, images }
}

/**
 * The chat group serves the OpenAI-compatible relay, the Gemini translation and a gpt-image model (images edits, on
 * the fake OpenAI images server); a messages-protocol group with a key of its own serves Claude. Limits sized so that
 * they never answer for the gateway: the benchmark measures the path, not the 429s.
 */
export function gatewayConfig(fakes: FakeOrigins, extraKeys = 0): GatewayConfig {
  const pricing = { unit: 'token', input: 2, output: 8 } as const
  const extras = Array.from({ length: extraKeys }, (_, i) => i)
  return {
    // A balance that never runs out, and that both stores count exactly (PostgreSQL refuses nano-USD beyond 2^53).
    account: { balance: 1e6, concurrency: 512 },
    models: [
      { id: MODELS.relay, family: 'gpt', vendor: 'openai', pricing },
      { id: MODELS.gemini, family: 'gemini', vendor: 'gemini', pricing, endpoints: ['chat.completions'] },
      { id: MODELS.claude, family: 'claude', vendor: 'anthropic', pricing },
      // As a catalog entry of a GPT image 2.5 model would be: no size tiers, up to 16 reference images.
      { id: MODELS.image, family: 'gpt-image', vendor: 'openai', pricing: { unit: 'image', price: 0.04 }, variant: '2.5', sizeTiers: [], maxN: 10, maxReferenceImages: 16 },
    ],
    upstreams: [
      // Both OpenAI accounts name their model: an OpenAI account without a list would serve every OpenAI model.
      { id: 'fake', vendor: 'openai', baseUrl: `${fakes.openai}/v1`, apiKey: UPSTREAM_KEYS.openai, models: [MODELS.relay] },
      { id: 'fake-gemini', vendor: 'gemini', baseUrl: fakes.gemini, apiKey: UPSTREAM_KEYS.gemini },
      { id: 'fake-anthropic', vendor: 'anthropic', baseUrl: fakes.anthropic, apiKey: UPSTREAM_KEYS.anthropic },
      { id: 'fake-images', vendor: 'openai', baseUrl: `${fakes.images}/v1`, apiKey: UPSTREAM_KEYS.images, models: [MODELS.image] },
    ],
    groups: [
      // The extra groups come first, so that a lookup that walks the list walks all of them before the bench's own.
      ...extras.map((i) => ({ id: `extra-${i}`, protocol: 'chat' as const, models: [MODELS.relay], upstreams: ['fake'] })),
      { id: 'bench', protocol: 'chat', models: [MODELS.relay, MODELS.gemini, MODELS.image], upstreams: ['fake', 'fake-gemini', 'fake-images'] },
      { id: 'bench-messages', protocol: 'messages', models: [MODELS.claude], upstreams: ['fake-anthropic'] },
    ],
    keys: [
      ...extras.map((i) => ({ key: `sk-bench-extra-${i}-0123456789abcdef`, group: `extra-${i}`, name: `extra ${i}` })),
      { key: BENCH_KEY, group: 'bench', name: 'bench' },
      { key: BENCH_MESSAGES_KEY, group: 'bench-messages', name: 'bench messages' },
    ],
  }
}

/** Keys and groups in the benchmark's own config: one chat and one messages group, each with its key. */
export const OWN_KEYS = 2

/**
 * Gatehouse through its headless CLI contract, with a throw-away config and data dir; `keys` keys and as many groups
 * in its config (at least OWN_KEYS: the extra ones each have a group of their own); `moreNodeFlags` after its own
 * (a profiler's).
 */
export async function startGatehouse(fakes: FakeOrigins, placement: Placement, keys = OWN_KEYS, moreNodeFlags: string[] = []): Promise<GatehouseChild> {
  const dir = mkdtempSync(join(tmpdir(), 'gatehouse-bench-'))
  const configFile = join(dir, 'config.json')
  const dataDir = join(dir, 'data')
  writeFileSync(configFile, JSON.stringify(gatewayConfig(fakes, Math.max(0, keys - OWN_KEYS)), null, 2))
  const args = ['--config', configFile, '--port', '0', '--data-dir', dataDir, '--host', '127.0.0.1']
  let ledger: LedgerCount | undefined
  const child = await startChild(keys === OWN_KEYS ? 'gatehouse' : `gatehouse (${keys} keys)`, 'scripts/gateway.mjs', args, placement, () => {
    ledger = countLedger(dataDir)
    rmSync(dir, { recursive: true, force: true })
  }, { nodeFlags: [...GATEWAY_NODE_FLAGS, ...moreNodeFlags] })
  return Object.assign(child, { ledger: () => ledger })
}

/**
 * A Gatehouse replica in team mode: the team's config file and database, the team's secret key, a data dir of its
 * own (removed when it stops), on `core` when the placement pins.
 */
export function startReplica(name: string, configFile: string, databaseUrl: string, secretKey: string, placement: Placement, core: string): Promise<Child> {
  const dir = mkdtempSync(join(tmpdir(), 'gatehouse-bench-replica-'))
  const args = ['--config', configFile, '--port', '0', '--data-dir', dir, '--host', '127.0.0.1']
  // The database URL carries the cluster's password: in the environment, not the command line every local user sees.
  return startChild(name, 'scripts/gateway.mjs', args, placement, () => rmSync(dir, { recursive: true, force: true }), { core, env: { GATEHOUSE_SECRET_KEY: secretKey, GATEHOUSE_DATABASE_URL: databaseUrl } })
}
