// Team mode (issue 16): gateway processes on one PostgreSQL database act as one gateway. Each replica is a real
// `npm run gateway` process with its own data dir, the same config file and the same secret key; the test reads
// the shared rows through a pool of its own.
import { randomBytes } from 'node:crypto'
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base'
import type { GatewayConfig } from '../../electron/gateway/config/load-config.js'
import { startGateway, type GatewayOptions, type RunningGateway } from '../../electron/gateway/gateway.js'
import { aesSecretBox } from '../../electron/gateway/secrets/secrets.js'
import { createPgPool, pgSql } from '../../electron/gateway/store/pg-sql.js'
import type { Sql } from '../../electron/gateway/store/sql.js'
import { startFakeOpenAI, type FakeOpenAI } from '../fakes/openai.js'
import { startFakeArk } from '../fakes/video/ark.js'
import { parseStep, type FakeVideoServer } from '../fakes/video/task-script.js'
import { adminClient } from '../integration/admin/admin-helpers.js'
import { chatConfig, tempDataDir, TEST_KEY, type TestGateway } from '../helpers/gateway.js'
import { freshDatabase } from '../helpers/pg-database.js'
import { runGateway, type GatewayProcess } from '../helpers/spawn-gateway.js'
import { until } from '../helpers/until.js'

/** A short lease, so a killed replica's slots and work come back within the test's patience. */
const LEASE_SECONDS = 2
/** How long a lapsed lease may take to be noticed and taken over, beyond the lease itself. */
const TAKEOVER_MARGIN_MS = 4_000
const SEEDANCE = 'doubao-seedance-2-0-260128'
const CHAT = { model: 'test-gpt', messages: [{ role: 'user', content: 'hi' }] }
// test-gpt's price: 2 USD per 1M input tokens, 8 per 1M output tokens = 2000 and 8000 nano-USD per token.
const costOf = (input: number, output: number) => input * 2000 + output * 8000

type TeamConfig = GatewayConfig & { team: { leaseSeconds: number } }
const teamConfig = (config: GatewayConfig): TeamConfig => ({ ...config, network: { allowPrivateAddresses: true }, team: { leaseSeconds: LEASE_SECONDS } })

interface Replica {
  run: GatewayProcess
  url: string
}

/** One database, one config file and one secret key; replicas join with `start()`, each with a data dir of its own. */
interface Team {
  databaseUrl: string
  secretKey: string
  /** the shared rows, read by the test */
  db: Sql
  start(env?: Record<string, string>): Promise<Replica>
  kill(replica: Replica): Promise<void>
}

let dir: { dir: string; remove(): void }
const running: GatewayProcess[] = []
const pools: Array<{ end(): Promise<void> }> = []
const inProcess: RunningGateway[] = []

async function startTeam(config: GatewayConfig): Promise<Team> {
  const databaseUrl = await freshDatabase()
  const secretKey = randomBytes(32).toString('base64')
  const configPath = join(dir.dir, 'config.json')
  writeFileSync(configPath, JSON.stringify(teamConfig(config)))
  const pool = createPgPool({ url: databaseUrl, max: 2, log: () => {} })
  pools.push(pool)
  let replicas = 0
  return {
    databaseUrl,
    secretKey,
    db: pgSql(pool),
    async start(env = {}) {
      const dataDir = join(dir.dir, `replica-${++replicas}`)
      mkdirSync(dataDir)
      const run = runGateway(['--config', configPath, '--port', '0', '--data-dir', dataDir, '--database-url', databaseUrl], [], { GATEHOUSE_SECRET_KEY: secretKey, ...env })
      running.push(run)
      return { run, url: await ready(run) }
    },
    async kill(replica) {
      replica.run.child.kill('SIGKILL')
      await replica.run.exited
    },
  }
}

/** The replica's URL once it listens; its stderr if it ends first. */
function ready(run: GatewayProcess): Promise<string> {
  return Promise.race([run.url, run.exited.then((code) => Promise.reject(new Error(`replica exited with ${code}: ${run.stderr()}`)))])
}

const chat = (url: string, key = TEST_KEY) =>
  fetch(`${url}/v1/chat/completions`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: JSON.stringify(CHAT) })
const count = async (db: Sql, query: string, params: unknown[] = []) => (await db.get<{ n: number }>(`SELECT COUNT(*) AS n FROM ${query}`, params))!.n
const account = async (db: Sql) => (await db.get<{ balance_nano: number; reserved_nano: number; budget_nano: number | null }>('SELECT balance_nano, reserved_nano, budget_nano FROM account'))!

/**
 * Waits (at most `withinMs`) until `survivor` shows video task `id` succeeded, then checks it was settled once: one
 * ledger row, one charge of its 4 s, nothing left reserved.
 */
async function expectSettledOnce(team: Team, survivor: Replica, id: string, withinMs: number): Promise<void> {
  const task = await until('the task settled by the survivor', withinMs, async () => {
    const view = (await (await fetch(`${survivor.url}/v1/video/tasks/${id}`, { headers: { authorization: `Bearer ${TEST_KEY}` } })).json()) as { status: string }
    return view.status === 'succeeded' ? view : undefined
  })
  expect(task).toMatchObject({ status: 'succeeded', usage: { seconds: 4, cost: 0.252 } })
  await new Promise((r) => setTimeout(r, 300)) // a late second settlement would have landed by now
  expect(await count(team.db, 'requests WHERE id = ?', [id])).toBe(1)
  expect(await account(team.db)).toMatchObject({ balance_nano: 50e9 - 252_000_000, reserved_nano: 0 })
}

/** One Seedance model on the fake Ark. */
const videoConfig = (): GatewayConfig => ({
  account: { balance: 50, concurrency: 10 },
  upstreams: [{ id: 'ark', vendor: 'ark', baseUrl: `${ark.url}/api/v3`, apiKey: 'ark-test-key' }],
  groups: [{ id: 'video', protocol: 'chat', models: [SEEDANCE], upstreams: ['ark'] }],
  keys: [{ key: TEST_KEY, group: 'video' }],
})
const submitVideo = (url: string, prompt: string) =>
  fetch(`${url}/v1/video/generate`, {
    method: 'POST',
    headers: { authorization: `Bearer ${TEST_KEY}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model: SEEDANCE, prompt, duration: 4, resolution: '480p' }),
  })

const ACCOUNT_CAP_REFUSED = (limit: number) => ({
  error: { code: 'user_concurrency_limit', message: `Too many requests in flight for this account (limit ${limit}); retry after the current ones finish.`, param: null, type: 'rate_limit_error' },
})

let fake: FakeOpenAI
let ark: FakeVideoServer
beforeAll(async () => {
  fake = await startFakeOpenAI()
  ark = await startFakeArk()
})
afterAll(async () => Promise.all([fake.close(), ark.close()]))
beforeEach(() => {
  dir = tempDataDir()
  fake.reset()
  ark.reset()
})
afterEach(async () => {
  for (const run of running.splice(0)) if (run.child.exitCode === null && run.child.signalCode === null) run.child.kill('SIGKILL')
  await Promise.all(inProcess.splice(0).map((gw) => gw.close(500)))
  await Promise.all(pools.splice(0).map((p) => p.end()))
  dir.remove()
})

describe('team mode: replicas on one PostgreSQL database', () => {
  it('config applied once: replicas started together with one config hold one balance of 100 and one row per configured key, group and upstream', async () => {
    const team = await startTeam(chatConfig([{ id: 'a', baseUrl: fake.url }], { account: { balance: 100, concurrency: 5 } }))
    const [a, b, c] = await Promise.all([team.start(), team.start(), team.start()])
    expect(await account(team.db)).toMatchObject({ balance_nano: 100e9, reserved_nano: 0, budget_nano: 100e9 })
    expect(await count(team.db, 'api_keys')).toBe(2)
    expect(await count(team.db, 'upstreams')).toBe(1)
    const groups = (await team.db.all<{ id: string }>('SELECT id FROM groups')).map((g) => g.id)
    expect(new Set(groups).size).toBe(groups.length)
    expect(groups).toEqual(expect.arrayContaining(['main', 'anthropic-only']))
    // No replica took itself for a new store: no first key was made and shown.
    for (const r of [a, b, c]) expect(r.run.stderr()).not.toContain('First start')
    for (const r of [a, b, c]) {
      const usage = (await (await fetch(`${r.url}/v1/usage`, { headers: { authorization: `Bearer ${TEST_KEY}` } })).json()) as { balance: number; budget: number }
      expect(usage).toMatchObject({ balance: 100, budget: 100 })
    }
    // A later start with the same config changes nothing either.
    await team.start()
    expect(await account(team.db)).toMatchObject({ balance_nano: 100e9, budget_nano: 100e9 })
    expect(await count(team.db, 'api_keys')).toBe(2)
  }, 60_000)

  it('the account cap holds across replicas: 8 concurrent slow requests over two replicas with a cap of 3 → three 200, five 429', async () => {
    const team = await startTeam(chatConfig([{ id: 'a', baseUrl: fake.url }], { account: { balance: 100, concurrency: 3 } }))
    const replicas = await Promise.all([team.start(), team.start()])
    // Each admitted request holds its slot for 1.5 s: all eight arrive while the first three are held.
    fake.setScenario({ kind: 'slow', delayMs: 1_500 })
    const answers = await Promise.all(Array.from({ length: 8 }, (_, i) => chat(replicas[i % 2].url)))
    const bodies = await Promise.all(answers.map(async (res) => ({ status: res.status, body: (await res.json()) as unknown })))
    expect(bodies.filter((a) => a.status === 200)).toHaveLength(3)
    const refused = bodies.filter((a) => a.status !== 200)
    expect(refused).toHaveLength(5)
    for (const r of refused) expect(r).toEqual({ status: 429, body: ACCOUNT_CAP_REFUSED(3) })
    expect(fake.calls).toHaveLength(3)
    // Every slot came back: a slot goes back in the commit its replica starts after the answer, so the last answer can
    // reach the client before it lands. Waited for within the lease time, so a slot not given back cannot pass by lapsing.
    await until('every slot given back', LEASE_SECONDS * 1000 - 500, async () => (await count(team.db, 'leases')) === 0)
  }, 60_000)

  it('racing charges: concurrent requests on both replicas leave one ledger row per request id, and the balance is the budget less their costs', async () => {
    const team = await startTeam(chatConfig([{ id: 'a', baseUrl: fake.url }], { account: { balance: 100, concurrency: 40 } }))
    const [a, b] = await Promise.all([team.start(), team.start()])
    fake.setScenario({ kind: 'ok', usage: { prompt_tokens: 1000, completion_tokens: 1000 } })
    const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => chat(i % 2 ? a.url : b.url)))
    for (const res of answers) expect(res.status).toBe(200)
    await Promise.all(answers.map((res) => res.arrayBuffer()))
    const ids = answers.map((res) => res.headers.get('x-request-id')!)
    expect(new Set(ids).size).toBe(20)
    // The ledger commits rows in groups: wait (bounded) until all twenty are stored.
    await until('twenty ledger rows', 5_000, async () => ((await count(team.db, "requests WHERE endpoint = 'chat.completions'")) >= 20))
    const rows = await team.db.all<{ id: string; cost_nano: number }>("SELECT id, cost_nano FROM requests WHERE endpoint = 'chat.completions'")
    expect(rows.map((r) => r.id).sort()).toEqual([...ids].sort())
    const spent = rows.reduce((sum, r) => sum + r.cost_nano, 0)
    expect(spent).toBe(20 * costOf(1000, 1000))
    expect(await account(team.db)).toMatchObject({ balance_nano: 100e9 - spent, reserved_nano: 0 })
    expect((await team.db.get<{ used_nano: number }>("SELECT used_nano FROM api_keys WHERE name = 'test'"))!.used_nano).toBe(spent)
  }, 60_000)

  it('a replica killed while holding slots gives them back within the lease time; then the other serves up to the cap', async () => {
    const team = await startTeam(chatConfig([{ id: 'a', baseUrl: fake.url }], { account: { balance: 100, concurrency: 3 } }))
    const [doomed, survivor] = await Promise.all([team.start(), team.start()])
    fake.setScenario({ kind: 'stall' })
    const held = [0, 1, 2].map(() => chat(doomed.url).catch(() => undefined))
    await until('three leases held', 5_000, async () => ((await count(team.db, 'leases')) === 3))
    await team.kill(doomed)
    const killedAt = Date.now()
    // The dead replica's slots outlive it until their leases lapse.
    expect(await count(team.db, 'leases WHERE expires_at > clock_timestamp()')).toBe(3)
    await Promise.all(held)
    // Until the dead replica's leases lapse, the cap is full; the first 200 comes within the lease time.
    fake.setScenario({ kind: 'ok' })
    await until('a slot back on the survivor', LEASE_SECONDS * 1000 + TAKEOVER_MARGIN_MS, async () => {
      const res = await chat(survivor.url)
      const body = await res.json()
      if (res.status === 200) return true
      expect({ status: res.status, body }).toEqual({ status: 429, body: ACCOUNT_CAP_REFUSED(3) })
      return undefined
    })
    // All three slots are free again once no lease is live, within the same time of the kill: the dead replica's three
    // lapse each at its own time (taken one after another), and the survivor's own, of the 200 above, is given back
    // as its answer ends.
    const lapsedBy = killedAt + LEASE_SECONDS * 1000 + TAKEOVER_MARGIN_MS
    await until('no live lease', Math.max(0, lapsedBy - Date.now()), async () => (await count(team.db, 'leases WHERE expires_at > clock_timestamp()')) === 0)
    // Three held at once on the survivor, a fourth refused.
    fake.setScenario({ kind: 'slow', delayMs: 1_500 })
    const answers = await Promise.all([0, 1, 2, 3].map(() => chat(survivor.url)))
    expect(answers.map((r) => r.status).sort()).toEqual([200, 200, 200, 429])
  }, 60_000)

  it('a video task whose polling replica is killed is settled by another replica: one ledger row, one charge', async () => {
    const team = await startTeam(videoConfig())
    const fastPolls = { GATEHOUSE_VIDEO_POLL_MS: '50' }
    const [doomed, survivor] = await Promise.all([team.start(fastPolls), team.start(fastPolls)])
    // The vendor says "running" until the test lets the task finish.
    ark.script(['running'])
    const submitted = await submitVideo(doomed.url, 'survive a replica')
    expect(submitted.status).toBe(202)
    const id = ((await submitted.json()) as { task_id: string }).task_id
    expect((await account(team.db)).reserved_nano).toBeGreaterThan(0)
    await until('a first poll', 5_000, async () => (ark.calls.some((c) => c.method === 'GET')))
    await team.kill(doomed)
    for (const task of ark.tasks.values()) task.steps = [parseStep('succeeded')]

    await expectSettledOnce(team, survivor, id, LEASE_SECONDS * 1000 + TAKEOVER_MARGIN_MS + 5_000)
    expect(ark.calls.filter((c) => c.method === 'POST')).toHaveLength(1) // resumed, not resubmitted
  }, 60_000)

  it('a replica killed while its poll is under way: another replica polls the task within the lease time and settles it once, unsubmitted again', async () => {
    const team = await startTeam(videoConfig())
    const fastPolls = { GATEHOUSE_VIDEO_POLL_MS: '50' }
    // Alone at first, so the poll the vendor holds open is this replica's. The claim's own lease is the default 5 minutes.
    const doomed = await team.start(fastPolls)
    const [{ id: doomedId }] = await team.db.all<{ id: string }>('SELECT id FROM replicas')
    ark.script(['succeeded'])
    ark.switches.timeoutOnPoll = 1 // the first poll is never answered; the next one finds the video made
    const submitted = await submitVideo(doomed.url, 'killed mid-poll')
    expect(submitted.status).toBe(202)
    const id = ((await submitted.json()) as { task_id: string }).task_id
    const polls = () => ark.calls.filter((c) => c.method === 'GET')
    await until('the poll held open by the vendor', 5_000, () => polls().length === 1)
    const claim = (await team.db.get<{ replica: string; next_poll_at: number; settled: number }>('SELECT replica, next_poll_at, settled FROM tasks WHERE id = ?', [id]))!
    expect(claim).toMatchObject({ replica: doomedId, settled: 0 })
    expect(claim.next_poll_at).toBeGreaterThan(Date.now() + 60_000)

    const survivor = await team.start(fastPolls)
    // While the poller lives, its claim is its own: past a lease time and a sweep of the survivor, no second poll.
    await new Promise((r) => setTimeout(r, LEASE_SECONDS * 1000 + 500))
    expect(polls()).toHaveLength(1)
    expect(await team.db.get('SELECT replica, next_poll_at FROM tasks WHERE id = ?', [id])).toEqual({ replica: doomedId, next_poll_at: claim.next_poll_at })

    await team.kill(doomed)
    await expectSettledOnce(team, survivor, id, LEASE_SECONDS * 1000 + TAKEOVER_MARGIN_MS)
    expect(await count(team.db, 'holds')).toBe(0)
    expect(ark.calls.filter((c) => c.method === 'POST')).toHaveLength(1) // resumed, not resubmitted
    expect(polls()).toHaveLength(2) // the held one, and the survivor's
    const [{ id: survivorId }] = await team.db.all<{ id: string }>('SELECT id FROM replicas WHERE id <> ?', [doomedId])
    expect(await team.db.get('SELECT replica FROM tasks WHERE id = ?', [id])).toEqual({ replica: survivorId })
  }, 60_000)

  it('a key created through one replica works on another within a second; revoked, it is refused there as fast', async () => {
    const team = await startTeam(chatConfig([{ id: 'a', baseUrl: fake.url }], { account: { balance: 100, concurrency: 5 } }))
    const spawned = await team.start()
    // The admin API of an in-process replica on the same database, with the same secret key.
    const options: GatewayOptions & { databaseUrl: string } = {
      dataDir: join(dir.dir, 'in-process'),
      databaseUrl: team.databaseUrl,
      secrets: aesSecretBox(Buffer.from(team.secretKey, 'base64')),
      port: 0,
      log: () => {},
    }
    mkdirSync(options.dataDir)
    const local = await startGateway(options)
    inProcess.push(local)
    const admin = adminClient(local as TestGateway)
    const created = await admin.post('/admin/v1/keys', { group: 'main', name: 'from-a-replica' })
    expect(created.status).toBe(201)
    const key = created.json.key as string
    await until('the new key accepted by the other replica', 1_000, async () => ((await chat(spawned.url, key)).status === 200))

    expect((await admin.del(`/admin/v1/keys/${created.json.id}`)).status).toBe(204)
    const refused = await until('the revoked key refused by the other replica', 1_000, async () => {
      const res = await chat(spawned.url, key)
      if (res.status === 200) return undefined
      const answer = { status: res.status, body: (await res.json()) as { error?: { code?: string } } }
      if (answer.body.error?.code !== 'api_key_revoked') return answer
      // A request already under way when the revocation reached the replica is cut, as a revocation ends the key's
      // requests in flight; what is awaited is the refusal of a request that comes after it.
      expect(answer).toEqual({ status: 401, body: { error: { code: 'api_key_revoked', message: 'This API key was revoked while the request was running.', param: null, type: 'authentication_error' } } })
      return undefined
    })
    expect(refused).toEqual({
      status: 401,
      body: { error: { code: 'invalid_api_key', message: `Incorrect API key provided: ${key.slice(0, 6)}…${key.slice(-4)}`, param: null, type: 'authentication_error' } },
    })
  }, 60_000)

  it('a stream cut by SIGKILL of its replica is settled once by the other: one row, 499 interrupted_by_restart', async () => {
    const team = await startTeam(chatConfig([{ id: 'a', baseUrl: fake.url }], { account: { balance: 100, concurrency: 5 } }))
    const [doomed, survivor] = await Promise.all([team.start(), team.start()])
    // 400 words, one chunk each, 30 ms apart: 12 s of stream, far more than the test waits for.
    fake.setScenario({ kind: 'slow', delayMs: 30, text: Array.from({ length: 400 }, (_, i) => `word${i}`).join(' ') })
    const prompt = 'Tell me a long story.'
    const res = await fetch(`${doomed.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TEST_KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'test-gpt', stream: true, messages: [{ role: 'user', content: prompt }] }),
    })
    expect(res.status).toBe(200)
    const id = res.headers.get('x-request-id')!
    const reader = res.body!.getReader()
    // Read until a checkpoint with output is stored.
    const checkpointed = await until('a checkpoint with output', 10_000, async () => {
      await reader.read()
      return (await team.db.get<{ output_tokens: number }>('SELECT output_tokens FROM pending_requests WHERE id = ? AND output_tokens > 0', [id])) ?? undefined
    })
    await team.kill(doomed)
    await reader.read().catch(() => undefined)

    const row = await until('the stream settled by the survivor', LEASE_SECONDS * 1000 + TAKEOVER_MARGIN_MS + 5_000, async () =>
      (await team.db.get<{ status: number; error_code: string | null; input_tokens: number; output_tokens: number; cost_nano: number; usage_source: string | null; breakdown: string | null }>(
        'SELECT status, error_code, input_tokens, output_tokens, cost_nano, usage_source, breakdown FROM requests WHERE id = ?',
        [id],
      )) ?? undefined,
    )
    expect(row).toMatchObject({ status: 499, error_code: 'interrupted_by_restart', input_tokens: countTokens(`user\n${prompt}`) })
    expect(row.output_tokens).toBeGreaterThanOrEqual(checkpointed.output_tokens)
    expect(row.cost_nano).toBe(costOf(row.input_tokens, row.output_tokens))
    // The checkpoint's own count and priced parts (docs/vendor-usage.md), kept with its pending row.
    expect(row.usage_source).toBe('local_count')
    expect(JSON.parse(row.breakdown!).map((c: { kind: string; units: number }) => [c.kind, c.units])).toEqual([['input', row.input_tokens], ['output', row.output_tokens]])
    expect(await count(team.db, 'pending_requests')).toBe(0)
    // Settled once: the survivor's later sweeps and a new replica's start change nothing.
    await team.start()
    await new Promise((r) => setTimeout(r, 300))
    expect(await count(team.db, 'requests WHERE id = ?', [id])).toBe(1)
    expect(await account(team.db)).toMatchObject({ balance_nano: 100e9 - row.cost_nano, reserved_nano: 0 })
    expect(survivor.run.child.exitCode).toBeNull()
  }, 60_000)

  it('SIGTERM drains: an in-flight request is answered, the replica exits 0 with one stdout line, and its row is in the database', async () => {
    const team = await startTeam(chatConfig([{ id: 'a', baseUrl: fake.url }], { account: { balance: 100, concurrency: 5 } }))
    const replica = await team.start()
    fake.setScenario({ kind: 'slow', delayMs: 400 })
    const calls = fake.calls.length
    const inFlight = chat(replica.url)
    await until('the request reached the vendor', 5_000, () => fake.calls.length > calls)
    replica.run.child.kill('SIGTERM')
    const res = await inFlight
    expect(res.status).toBe(200)
    const id = res.headers.get('x-request-id')!
    expect(await replica.run.exited).toBe(0)
    expect(replica.run.stdout).toEqual([`gateway listening on ${replica.url}`])
    // The ledger's last commit came before the pool closed; the replica signed off, holding no lease.
    expect(await team.db.get('SELECT status FROM requests WHERE id = ?', [id])).toEqual({ status: 200 })
    expect(await count(team.db, 'leases')).toBe(0)
    expect(await count(team.db, 'replicas')).toBe(0)
  })

  it('SIGKILL loses no committed row; a replica started after it neither refills nor re-bills', async () => {
    const team = await startTeam(chatConfig([{ id: 'a', baseUrl: fake.url }], { account: { balance: 5, concurrency: 5 } }))
    fake.setScenario({ kind: 'ok', usage: { prompt_tokens: 1000, completion_tokens: 1000 } })
    const first = await team.start()
    const ids: string[] = []
    for (let i = 0; i < 5; i++) {
      const res = await chat(first.url)
      expect(res.status).toBe(200)
      ids.push(res.headers.get('x-request-id')!)
      await res.arrayBuffer()
    }
    // Past the group-commit window every row is committed; then the process dies without any cleanup.
    await new Promise((r) => setTimeout(r, 100))
    await team.kill(first)
    const rows = await team.db.all<{ id: string; cost_nano: number }>("SELECT id, cost_nano FROM requests WHERE endpoint = 'chat.completions'")
    expect(rows.map((r) => r.id).sort()).toEqual([...ids].sort())
    const spent = 5 * costOf(1000, 1000)
    expect(rows.reduce((sum, r) => sum + r.cost_nano, 0)).toBe(spent)
    const next = await team.start()
    const usage = (await (await fetch(`${next.url}/v1/usage`, { headers: { authorization: `Bearer ${TEST_KEY}` } })).json()) as { balance: number; key: { used: number } }
    expect(usage.balance).toBeCloseTo((5e9 - spent) / 1e9, 9)
    expect(usage.key.used).toBeCloseTo(spent / 1e9, 9)
    expect(await account(team.db)).toMatchObject({ balance_nano: 5e9 - spent, reserved_nano: 0 })
  })
})
