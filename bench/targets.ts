// Starts and stops the benchmark's child processes. Every child is registered before it is ready, so that
// stopAll() also kills one that failed half-way through starting.
import { spawn, type ChildProcess } from 'node:child_process'
import { once } from 'node:events'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createInterface } from 'node:readline'
import { fileURLToPath, pathToFileURL } from 'node:url'
import type { GatewayConfig } from '../electron/gateway/config/load-config.js'

export const ROOT = fileURLToPath(new URL('..', import.meta.url))
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
  /** the child's last stderr output, for explaining a failure */
  stderrTail(): string
  stop(): Promise<void>
}

const running = new Set<Child>()
const START_TIMEOUT_MS = 30_000
const STOP_GRACE_MS = 5_000
const EXIT_WITH_PARENT = pathToFileURL(join(ROOT, 'bench', 'exit-with-parent.ts')).href

/**
 * Runs `script` (TypeScript, through tsx's loader) and resolves once it prints `… listening on URL`; `NAME on URL` lines
 * before that one are kept in `origins`. Node is spawned
 * directly rather than through `npx tsx` so that the pid we signal is the server itself, not a wrapper; stdin is a
 * pipe so that exit-with-parent.ts can tell when we are gone.
 */
function startChild(name: string, script: string, args: string[], afterStop?: () => void): Promise<Child> {
  const proc = spawn(process.execPath, ['--import', 'tsx', '--import', EXIT_WITH_PARENT, script, ...args], { cwd: ROOT, stdio: ['pipe', 'pipe', 'pipe'] })
  let tail = ''
  proc.stderr!.setEncoding('utf8').on('data', (s: string) => { tail = (tail + s).slice(-4000) })
  const child: Child = {
    name,
    url: '',
    pid: proc.pid,
    origins: {},
    stderrTail: () => tail.trim(),
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

export function stopAll(): Promise<void> {
  return Promise.all([...running].map((c) => c.stop())).then(() => undefined)
}

export function startFakeUpstream(): Promise<Child> {
  // The fake OpenAI images server checks the key that Gatehouse (and the direct measurement) sends.
  return startChild('fake upstream', 'bench/fake-upstream.ts', [UPSTREAM_KEYS.images])
}

export function startBareProxy(upstreamOrigin: string): Promise<Child> {
  return startChild('bare proxy', 'bench/bare-proxy.ts', [upstreamOrigin])
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
function gatewayConfig(fakes: FakeOrigins): GatewayConfig {
  const pricing = { unit: 'token', input: 2, output: 8 } as const
  return {
    account: { balance: 1e9, concurrency: 512 },
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
      { id: 'bench', protocol: 'chat', models: [MODELS.relay, MODELS.gemini, MODELS.image], upstreams: ['fake', 'fake-gemini', 'fake-images'] },
      { id: 'bench-messages', protocol: 'messages', models: [MODELS.claude], upstreams: ['fake-anthropic'] },
    ],
    keys: [
      { key: BENCH_KEY, group: 'bench', name: 'bench' },
      { key: BENCH_MESSAGES_KEY, group: 'bench-messages', name: 'bench messages' },
    ],
  }
}

/** Gatehouse through its headless CLI contract, with a throw-away config and data dir. */
export function startGatehouse(fakes: FakeOrigins): Promise<Child> {
  const dir = mkdtempSync(join(tmpdir(), 'gatehouse-bench-'))
  const configFile = join(dir, 'config.json')
  writeFileSync(configFile, JSON.stringify(gatewayConfig(fakes), null, 2))
  const args = ['--config', configFile, '--port', '0', '--data-dir', join(dir, 'data'), '--host', '127.0.0.1']
  return startChild('gatehouse', 'electron/gateway/cli.ts', args, () => rmSync(dir, { recursive: true, force: true }))
}
