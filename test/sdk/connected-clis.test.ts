import { spawn } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startFakeAnthropic, type FakeAnthropic } from '../fakes/anthropic.js'
import { startFakeOpenAI, type FakeOpenAI } from '../fakes/openai.js'
import { startTestGateway, tempDataDir, type TestGateway } from '../helpers/gateway.js'
import { adminClient } from '../integration/admin/admin-helpers.js'

const ROOT = join(import.meta.dirname, '../..')
const BIN = join(ROOT, 'node_modules', '.bin')
const CLAUDE = join(BIN, 'claude')
const CODEX = join(BIN, 'codex')

/** Runs a CLI to its end within `ms` (then SIGKILL): its exit code, stdout and stderr. */
function run(command: string, args: string[], env: Record<string, string>, cwd: string, ms = 90_000): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { env, cwd, stdio: ['ignore', 'pipe', 'pipe'] })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()))
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()))
    const timer = setTimeout(() => child.kill('SIGKILL'), ms)
    child.on('close', (code) => {
      clearTimeout(timer)
      resolve({ code, stdout, stderr })
    })
  })
}

// The tools' homes of this test; the CLIs get only these (and PATH), never the machine's own settings or keys.
const homes = tempDataDir()
const env = {
  HOME: join(homes.dir, 'home'),
  CLAUDE_CONFIG_DIR: join(homes.dir, 'claude'),
  CODEX_HOME: join(homes.dir, 'codex'),
  PATH: process.env.PATH ?? '/usr/bin:/bin',
}
Object.assign(process.env, { CLAUDE_CONFIG_DIR: env.CLAUDE_CONFIG_DIR, CODEX_HOME: env.CODEX_HOME })

let anthropic: FakeAnthropic
let openai: FakeOpenAI
let gw: TestGateway
beforeAll(async () => {
  mkdirSync(env.HOME, { recursive: true })
  anthropic = await startFakeAnthropic({ apiKey: 'anthropic-account-secret' })
  openai = await startFakeOpenAI({ apiKey: 'openai-account-secret' })
  gw = await startTestGateway({
    account: { balance: 10, concurrency: 5 },
    models: [
      { id: 'claude-opus-4-8', family: 'claude', vendor: 'anthropic', pricing: { unit: 'token', input: 3, output: 15 }, limits: { maxOutputTokens: 4096 } },
      { id: 'test-gpt', family: 'gpt', vendor: 'openai', pricing: { unit: 'token', input: 2, output: 8 }, limits: { maxOutputTokens: 4096 } },
    ],
    upstreams: [
      { id: 'anthropic', vendor: 'anthropic', baseUrl: anthropic.url, apiKey: 'anthropic-account-secret' },
      { id: 'openai', vendor: 'openai', baseUrl: openai.url, apiKey: 'openai-account-secret' },
    ],
    groups: [
      { id: 'claude-code', protocol: 'messages', models: ['claude-opus-4-8'], upstreams: ['anthropic'] },
      { id: 'codex', protocol: 'chat', models: ['test-gpt'], upstreams: ['openai'] },
    ],
  })
})
afterAll(async () => {
  await gw?.stop()
  await anthropic?.close()
  await openai?.close()
  homes.remove()
})

/**
 * Claude Code and Codex from npm (devDependencies), each given only its home with what POST /admin/v1/connect wrote
 * (no ANTHROPIC_* or OPENAI_* variable). Claude Code runs on the newest Claude id, for which it sends `role: "system"`
 * messages mid-conversation: the gateway forwards them.
 */
describe('the real CLIs, through the gateway, with only the configuration Connect tools wrote', () => {
  it('Claude Code (@anthropic-ai/claude-code) answers one prompt from the fake Anthropic account', async () => {
    expect(existsSync(CLAUDE)).toBe(true)
    const admin = adminClient(gw)
    const connected = await admin.post('/admin/v1/connect/claude-code', { group: 'claude-code' })
    expect(connected.status).toBe(201)
    anthropic.setScenario({ kind: 'ok', text: 'Hello from the connected gateway' })
    const out = await run(CLAUDE, ['-p', 'Say hello', '--model', 'claude-opus-4-8'], env, homes.dir)
    expect(out.stdout.trim(), out.stderr).toBe('Hello from the connected gateway')
    expect(out.code).toBe(0)
    const calls = anthropic.calls.filter((c) => c.path === '/v1/messages')
    expect(calls.length).toBeGreaterThan(0)
    expect(calls.every((c) => c.headers['x-api-key'] === 'anthropic-account-secret')).toBe(true)
    const token = JSON.parse(readFileSync(join(env.CLAUDE_CONFIG_DIR, 'settings.json'), 'utf8')).env.ANTHROPIC_AUTH_TOKEN as string
    expect(token).toMatch(/^sk-gh-/)
    // Billed to the key the connection made.
    const rows = await gw.services.store.ledger.recent(null, 20)
    expect(rows.some((r) => r.endpoint === 'messages' && r.status === 200 && r.key_id === connected.json.connection.keyId)).toBe(true)
  }, 120_000)

  it('Codex (@openai/codex) answers one prompt from the fake OpenAI account through the Responses API', async () => {
    expect(existsSync(CODEX)).toBe(true)
    const admin = adminClient(gw)
    const connected = await admin.post('/admin/v1/connect/codex', { group: 'codex' })
    expect(connected.status).toBe(201)
    const out = await run(CODEX, ['exec', '--profile', 'gatehouse', '--skip-git-repo-check', 'Say hello'], env, homes.dir)
    expect(out.code, out.stderr).toBe(0)
    const calls = openai.calls.filter((c) => c.path === '/v1/responses')
    expect(calls.length).toBeGreaterThan(0)
    expect(calls[0].headers.authorization).toBe('Bearer openai-account-secret')
    expect(calls[0].body).toMatchObject({ model: 'test-gpt', stream: true })
    expect(out.stdout).toContain('Hello from the fake upstream.')
    const rows = await gw.services.store.ledger.recent(null, 20)
    expect(rows.some((r) => r.endpoint === 'responses' && r.status === 200 && r.key_id === connected.json.connection.keyId)).toBe(true)
  }, 120_000)
})
