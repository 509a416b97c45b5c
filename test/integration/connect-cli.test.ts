import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { chatConfig, tempDataDir } from '../helpers/gateway.js'
import { finished } from '../helpers/gateway-process.js'
import { runGateway, type GatewayProcess } from '../helpers/spawn-gateway.js'

const FIXTURES = join(import.meta.dirname, '../fixtures/connect')

describe('headless: npm run gateway -- connect|disconnect|undo TOOL', () => {
  const started: GatewayProcess[] = []
  afterEach(() => {
    for (const run of started.splice(0)) if (run.child.exitCode === null && run.child.signalCode === null) run.child.kill('SIGKILL')
  })

  it('prints the diff of a dry run and writes nothing, connects, and undoes byte for byte, on the running gateway; the server keeps its one stdout line', async () => {
    const dir = tempDataDir()
    const data = join(dir.dir, 'data')
    const env = { CLAUDE_CONFIG_DIR: join(dir.dir, 'claude'), CODEX_HOME: join(dir.dir, 'codex'), HOME: join(dir.dir, 'home') }
    const configPath = join(dir.dir, 'config.json')
    writeFileSync(configPath, JSON.stringify(chatConfig([{ id: 'a', baseUrl: 'http://127.0.0.1:9' }])))
    const original = readFileSync(join(FIXTURES, 'codex-config.toml'))
    mkdirSync(env.CODEX_HOME)
    writeFileSync(join(env.CODEX_HOME, 'config.toml'), original)
    const gateway = runGateway(['--config', configPath, '--port', '0', '--data-dir', data], [], env)
    started.push(gateway)
    const url = await gateway.url
    const cli = (args: string[]) => finished(runGateway([...args, '--data-dir', data], [], env))

    const dry = await cli(['connect', 'codex', '--group', 'main', '--dry-run'])
    expect(dry.code).toBe(0)
    expect(dry.stdout[0]).toBe(`${join(env.CODEX_HOME, 'config.toml')}: would update`)
    expect(dry.stdout).toContain('+[model_providers.gatehouse]')
    expect(dry.stdout).toContain(`+base_url = "${url}/v1"`)
    expect(dry.stdout).toContain('+experimental_bearer_token = "••••••••"')
    expect(dry.stdout).toContain(`${join(env.CODEX_HOME, 'gatehouse.config.toml')}: would create`)
    expect(dry.stdout.at(-1)).toBe('Dry run: nothing was written.')
    expect(readFileSync(join(env.CODEX_HOME, 'config.toml'))).toEqual(original)
    expect(existsSync(join(env.CODEX_HOME, 'gatehouse.config.toml'))).toBe(false)

    const done = await cli(['connect', 'codex', '--group', 'main'])
    expect(done.code).toBe(0)
    expect(done.stdout[0]).toMatch(new RegExp(`^${join(env.CODEX_HOME, 'config.toml')}: did update \\(backup: .+config\\.toml\\.gatehouse-backup-\\d{8}T\\d{9}Z\\)$`))
    expect(done.stdout.at(-1)).toMatch(/^Connected with a key of group "main" \(.+\)\. Run: codex --profile gatehouse$/)
    const token = /experimental_bearer_token = "([^"]+)"/.exec(readFileSync(join(env.CODEX_HOME, 'config.toml'), 'utf8'))![1]
    expect(done.stdout.join('\n')).not.toContain(token)
    expect(done.stderr).not.toContain(token)
    expect((await fetch(`${url}/v1/models`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(200)

    const again = await cli(['connect', 'codex'])
    expect(again).toEqual({ code: 1, stdout: [], stderr: 'connect codex: Gatehouse has already connected Codex CLI: disconnect it (or undo) first.\n' })

    const undone = await cli(['undo', 'codex'])
    expect(undone.code).toBe(0)
    expect(undone.stdout.at(-1)).toBe('Undone: the files are as they were before the connection; its key is revoked.')
    expect(readFileSync(join(env.CODEX_HOME, 'config.toml'))).toEqual(original)
    expect(existsSync(join(env.CODEX_HOME, 'gatehouse.config.toml'))).toBe(false)
    expect((await fetch(`${url}/v1/models`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(401)

    const gemini = await cli(['connect', 'gemini-cli'])
    expect(gemini).toEqual({ code: 1, stdout: [], stderr: "connect gemini-cli: Gemini CLI calls Gemini's own generateContent API, which Gatehouse does not serve: it cannot be connected.\n" })
    const bad = await cli(['connect'])
    expect(bad).toEqual({ code: 1, stdout: [], stderr: '"connect" is not a command: connect, disconnect, undo take one tool (claude-code, codex)\n' })
    const stray = await cli(['--dry-run'])
    expect(stray).toEqual({ code: 1, stdout: [], stderr: '--dry-run, --group and --model go with connect, disconnect or undo\n' })

    gateway.child.kill('SIGTERM')
    expect(await gateway.exited).toBe(0)
    expect(gateway.stdout).toEqual([`gateway listening on ${url}`])
    const stopped = await cli(['disconnect', 'claude-code'])
    expect(stopped).toEqual({ code: 1, stdout: [], stderr: `no gateway is running on the data dir ${data}: start it first (npm run gateway -- --data-dir ${data}), or name its data dir with --data-dir\n` })
    dir.remove()
  }, 60_000)
})
