import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import Database from 'better-sqlite3'
import { startFakeOpenAI, type FakeOpenAI } from '../fakes/openai.js'
import { chatConfig, tempDataDir, TEST_KEY } from '../helpers/gateway.js'
import { finished } from '../helpers/gateway-process.js'
import { runGateway, type GatewayProcess } from '../helpers/spawn-gateway.js'
import { until } from '../helpers/until.js'

let fake: FakeOpenAI
beforeAll(async () => {
  fake = await startFakeOpenAI()
})
afterAll(async () => fake.close())

describe('headless run contract', () => {
  // SIGHUP: the terminal it runs in has closed.
  it.each(['SIGTERM', 'SIGINT', 'SIGHUP'] as const)('prints exactly one line once it accepts connections, serves, and drains on %s: the request in flight is answered and billed', async (signal) => {
    const dir = tempDataDir()
    const configPath = join(dir.dir, 'config.json')
    writeFileSync(configPath, JSON.stringify(chatConfig([{ id: 'a', baseUrl: fake.url }])))
    const run = runGateway(['--config', configPath, '--port', '0', '--data-dir', join(dir.dir, 'data')])
    const url = await run.url
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
    // An in-flight request finishes although the signal arrives while it waits on the upstream.
    fake.setScenario({ kind: 'slow', delayMs: 400 })
    const inFlight = fetch(`${url}/v1/chat/completions`, { method: 'POST', headers: { authorization: `Bearer ${TEST_KEY}` }, body: JSON.stringify({ model: 'test-gpt', messages: [{ role: 'user', content: 'hi' }] }) })
    await until('the request reached the vendor', 5_000, () => fake.calls.length === 1)
    run.child.kill(signal)
    const res = await inFlight
    expect(res.status).toBe(200)
    expect(await run.exited).toBe(0)
    expect(run.stdout).toEqual([`gateway listening on ${url}`])
    expect(run.stderr()).toContain(`${signal}: finishing in-flight requests…`)
    // The store was closed cleanly and holds the request, charged.
    const db = new Database(join(dir.dir, 'data', 'gatehouse.sqlite'), { readonly: true })
    const rows = db.prepare('SELECT status, cost_nano FROM requests WHERE endpoint = ?').all('chat.completions') as Array<{ status: number; cost_nano: number }>
    db.close()
    expect(rows.map((r) => r.status)).toEqual([200])
    expect(rows[0].cost_nano).toBeGreaterThan(0)
    fake.reset()
    dir.remove()
  })

  it("keeps serving when its worker threads start under the process's own preloads (one that ends the process with stdin)", async () => {
    const dir = tempDataDir()
    const configPath = join(dir.dir, 'config.json')
    writeFileSync(configPath, JSON.stringify(chatConfig([{ id: 'a', baseUrl: fake.url }])))
    // As a supervisor's preload might: stop when stdin ends. The test keeps the gateway's stdin open.
    const preload = join(dir.dir, 'stdin-watch.mjs')
    writeFileSync(preload, "process.stdin.on('end', () => process.exit(3)).resume()\n")
    const run = runGateway(['--config', configPath, '--port', '0', '--data-dir', join(dir.dir, 'data')], ['--import', preload])
    const url = await run.url
    // A quote counts tokens: the counter thread starts (the WAL checkpointer's started with the store).
    const quote = await fetch(`${url}/v1/quote`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TEST_KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify({ endpoint: '/v1/chat/completions', request: { model: 'test-gpt', messages: [{ role: 'user', content: 'hi' }] } }),
    })
    expect(quote.status).toBe(200)
    await new Promise((r) => setTimeout(r, 300))
    expect(run.child.exitCode).toBeNull()
    expect((await fetch(`${url}/v1/models`, { headers: { authorization: `Bearer ${TEST_KEY}` } })).status).toBe(200)
    run.child.kill('SIGTERM')
    expect(await run.exited).toBe(0)
    dir.remove()
  })

  it('keeps serving, and stops on SIGTERM, once the program reading its output has gone', async () => {
    const dir = tempDataDir()
    const configPath = join(dir.dir, 'config.json')
    writeFileSync(configPath, JSON.stringify(chatConfig([{ id: 'a', baseUrl: fake.url }])))
    const run = runGateway(['--config', configPath, '--port', '0', '--data-dir', join(dir.dir, 'data')])
    const url = await run.url
    // The reader's ends of both pipes close: every write to stdout or stderr fails with EPIPE from now on.
    run.child.stdout.destroy()
    run.child.stderr.destroy()
    expect((await fetch(`${url}/v1/models`, { headers: { authorization: `Bearer ${TEST_KEY}` } })).status).toBe(200)
    // Stopping writes a line to stderr before it drains; the failed write must not keep the process from exiting.
    run.child.kill('SIGTERM')
    const deadline = new Promise<string>((resolve) => setTimeout(() => resolve('still running 10 s after SIGTERM'), 10_000).unref())
    const outcome = await Promise.race([run.exited, deadline])
    if (outcome !== 0) run.child.kill('SIGKILL')
    expect(outcome).toBe(0)
    dir.remove()
  })

  it('without --config, a new data dir gets default groups and one key, shown once on stderr', async () => {
    const dir = tempDataDir()
    const run = runGateway(['--port', '0', '--data-dir', dir.dir])
    const url = await run.url
    await new Promise((r) => setTimeout(r, 100))
    const key = /^\s+(sk-\S+)$/m.exec(run.stderr())?.[1]
    expect(key).toBeDefined()
    const models = await fetch(`${url}/v1/models`, { headers: { authorization: `Bearer ${key}` } })
    expect(models.status).toBe(200)
    // No upstream accounts yet: nothing is callable.
    expect(((await models.json()) as { data: unknown[] }).data).toEqual([])
    run.child.kill('SIGINT')
    expect(await run.exited).toBe(0)
    // A second start runs on what the data dir holds and prints no new key.
    const again = runGateway(['--port', '0', '--data-dir', dir.dir])
    await again.url
    expect(again.stderr()).not.toMatch(/sk-/)
    expect((await fetch(`${await again.url}/v1/models`, { headers: { authorization: `Bearer ${key}` } })).status).toBe(200)
    again.child.kill('SIGTERM')
    await again.exited
    dir.remove()
  })

  it('a crash (SIGKILL) loses no committed row, and balance and ledger stay consistent after a restart', async () => {
    const dir = tempDataDir()
    const configPath = join(dir.dir, 'config.json')
    writeFileSync(configPath, JSON.stringify(chatConfig([{ id: 'a', baseUrl: fake.url }], { account: { balance: 5, concurrency: 5 } })))
    const args = ['--config', configPath, '--port', '0', '--data-dir', join(dir.dir, 'data')]
    fake.setScenario({ kind: 'ok', usage: { prompt_tokens: 1000, completion_tokens: 1000 } })
    const run = runGateway(args)
    const url = await run.url
    const ids: string[] = []
    for (let i = 0; i < 5; i++) {
      const res = await fetch(`${url}/v1/chat/completions`, { method: 'POST', headers: { authorization: `Bearer ${TEST_KEY}` }, body: JSON.stringify({ model: 'test-gpt', messages: [{ role: 'user', content: 'hi' }] }) })
      expect(res.status).toBe(200)
      ids.push(res.headers.get('x-request-id')!)
      await res.arrayBuffer()
    }
    // Past the group-commit window, every row is committed; then the process dies without any cleanup.
    await new Promise((r) => setTimeout(r, 100))
    run.child.kill('SIGKILL')
    await run.exited
    const db = new Database(join(dir.dir, 'data', 'gatehouse.sqlite'))
    const rows = db.prepare("SELECT id, cost_nano FROM requests WHERE endpoint = 'chat.completions'").all() as Array<{ id: string; cost_nano: number }>
    expect(rows.map((r) => r.id).sort()).toEqual([...ids].sort())
    const spent = rows.reduce((sum, r) => sum + r.cost_nano, 0)
    expect(spent).toBe(5 * (1000 * 2000 + 1000 * 8000))
    expect((db.prepare('SELECT balance_nano FROM account').get() as { balance_nano: number }).balance_nano).toBe(5e9 - spent)
    db.close()
    // The restart with the same config neither refills nor re-bills.
    const again = runGateway(args)
    const usage = (await (await fetch(`${await again.url}/v1/usage`, { headers: { authorization: `Bearer ${TEST_KEY}` } })).json()) as { balance: number; key: { used: number } }
    expect(usage.balance).toBeCloseTo((5e9 - spent) / 1e9, 9)
    expect(usage.key.used).toBeCloseTo(spent / 1e9, 9)
    again.child.kill('SIGTERM')
    await again.exited
    fake.reset()
    dir.remove()
  })

  it.each([
    [{ upstreams: [{ id: 'x', vendor: 'acme', baseUrl: 'http://127.0.0.1:1', apiKey: 'k' }] }, 'invalid config: upstreams[0].vendor: must be equal to one of the allowed values'],
    [{ keys: [{ key: 'pk-0123456789', group: 'default' }] }, 'invalid config: keys[0].key: must match pattern'],
    [{ groups: [{ id: 'g', protocol: 'chat', models: [], upstreams: ['missing'] }] }, 'invalid config: groups[0].upstreams[0]: unknown upstream "missing"'],
    [{ models: [{ id: 'm', family: 'nope', pricing: { unit: 'token', input: 1, output: 1 } }] }, 'invalid config: models[0].family: must be equal to one of the allowed values'],
    // Money is counted in integer nano-USD, exact below 2^53 on either store.
    [{ account: { balance: 9_000_001 } }, 'invalid config: account.balance: must be <= 9000000'],
  ])('an invalid config stops the start naming the field, and applies nothing: %j', async (config, message) => {
    const dir = tempDataDir()
    const configPath = join(dir.dir, 'config.json')
    // A valid upstream comes first: it must not be stored when a later part is invalid.
    writeFileSync(configPath, JSON.stringify({ upstreams: [{ id: 'good', vendor: 'openai', baseUrl: fake.url, apiKey: 'k' }, ...((config as { upstreams?: unknown[] }).upstreams ?? [])], ...Object.fromEntries(Object.entries(config).filter(([k]) => k !== 'upstreams')) }))
    const run = runGateway(['--config', configPath, '--port', '0', '--data-dir', join(dir.dir, 'data')])
    expect(await run.exited).toBe(1)
    expect(run.stdout).toEqual([])
    expect(run.stderr()).toContain(message.replace('upstreams[0]', (config as { upstreams?: unknown[] }).upstreams ? 'upstreams[1]' : 'upstreams[0]'))
    expect(run.stderr()).not.toMatch(/\n\s+at /)
    // A shape error stops the start before the store is even opened; a reference error leaves it empty.
    const storePath = join(dir.dir, 'data', 'gatehouse.sqlite')
    if (existsSync(storePath)) {
      const db = new Database(storePath, { readonly: true })
      expect(db.prepare('SELECT COUNT(*) AS n FROM upstreams').get()).toEqual({ n: 0 })
      db.close()
    }
    dir.remove()
  })
})

/** `npm run gateway -- --login …` to its end. */
const login = (args: string[]) => finished(runGateway(['--login', ...args]))

describe('headless run: sign-in addresses', () => {
  // A gateway a failed assertion left running is killed, so no process outlives the test.
  const started: GatewayProcess[] = []
  afterEach(() => {
    for (const run of started.splice(0)) if (run.child.exitCode === null && run.child.signalCode === null) run.child.kill('SIGKILL')
  })
  const start = (args: string[]) => {
    const run = runGateway(args)
    started.push(run)
    return run
  }

  it('prints one at start; `--login` in another process prints a new one that works once on the running gateway', async () => {
    const dir = tempDataDir()
    const data = join(dir.dir, 'data')
    const run = start(['--port', '0', '--data-dir', data])
    const url = await run.url
    const first = await login(['--data-dir', data])
    expect(first.code).toBe(0)
    expect(first.stdout).toHaveLength(1)
    expect(first.stdout[0]).toMatch(new RegExp(`^${url.replaceAll('.', '\\.')}/admin/login\\?code=[\\w-]{43}$`))
    expect(first.stderr).toBe('This sign-in address works once, within 10 minutes.\n')
    const signIn = await fetch(first.stdout[0], { redirect: 'manual' })
    expect(signIn.status).toBe(303)
    expect(signIn.headers.get('location')).toMatch(/^\/#session=[\w-]{43}$/)
    const again = await fetch(first.stdout[0], { redirect: 'manual' })
    expect(again.status).toBe(401)
    expect(await again.text()).toContain('already used or is not valid')
    // Each `--login` is a new code; the one printed at start works too.
    const second = await login(['--data-dir', data])
    expect(second.stdout[0]).not.toBe(first.stdout[0])
    const atStart = /^Open the app in a browser \(this sign-in address works once, within 10 minutes\): (\S+)$/m.exec(run.stderr())![1]
    expect(run.stderr()).toContain(`\nFor a new one: npm run gateway -- --login --data-dir ${data}\n`)
    expect((await fetch(atStart, { redirect: 'manual' })).status).toBe(303)
    expect((await fetch(second.stdout[0], { redirect: 'manual' })).status).toBe(303)
    // The gateway's stdout stays its one line; its note for `--login` is private, and goes at a clean stop.
    run.child.kill('SIGTERM')
    expect(await run.exited).toBe(0)
    expect(run.stdout).toEqual([`gateway listening on ${url}`])
    expect(existsSync(join(data, 'running.json'))).toBe(false)
    const stopped = await login(['--data-dir', data])
    expect(stopped).toEqual({
      code: 1,
      stdout: [],
      stderr: `no gateway is running on the data dir ${data}: start it first (npm run gateway -- --data-dir ${data}), or name its data dir with --data-dir\n`,
    })
    dir.remove()
  })

  it('`--login` refuses a gateway that was killed, and a database URL the gateway does not use', async () => {
    const dir = tempDataDir()
    const data = join(dir.dir, 'data')
    const run = start(['--port', '0', '--data-dir', data])
    await run.url
    const note = JSON.parse(readFileSync(join(data, 'running.json'), 'utf8')) as { pid: number; team: boolean }
    expect(note).toEqual({ url: await run.url, pid: run.child.pid, team: false, loginCodeMinutes: 10 })
    const wrongStore = await login(['--data-dir', data, '--database-url', 'postgres://gate@127.0.0.1:1/none'])
    expect(wrongStore).toEqual({
      code: 1,
      stdout: [],
      stderr: `the gateway on the data dir ${data} runs on the data dir's own store: run --login without a database URL\n`,
    })
    run.child.kill('SIGKILL')
    await run.exited
    // Its note stays behind, but names a process that is gone.
    expect(existsSync(join(data, 'running.json'))).toBe(true)
    const dead = await login(['--data-dir', data])
    expect(dead.code).toBe(1)
    expect(dead.stderr).toBe(`no gateway is running on the data dir ${data}: start it first (npm run gateway -- --data-dir ${data}), or name its data dir with --data-dir\n`)
    dir.remove()
  })
})
