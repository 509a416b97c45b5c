// Hard caps across team-mode replicas (issue 24): two gateways on one PostgreSQL database share one account budget,
// one key quota and one upstream account budget. Every request holds its worst case in the shared database before
// any upstream call, so however the calls are spread over the replicas, no limit is passed; a replica that stops
// leaves holds that the other releases once its lease lapses.
import { randomBytes } from 'node:crypto'
import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import type { GatewayConfig } from '../../electron/gateway/config/load-config.js'
import { startGateway, type RunningGateway } from '../../electron/gateway/gateway.js'
import { aesSecretBox } from '../../electron/gateway/secrets/secrets.js'
import { createPgPool, pgSql } from '../../electron/gateway/store/pg-sql.js'
import type { Sql } from '../../electron/gateway/store/sql.js'
import { startFakeOpenAI, type FakeOpenAI } from '../fakes/openai.js'
import { adminClient } from '../integration/admin/admin-helpers.js'
import { configWithoutAccount } from '../integration/budget-config.js'
import { tempDataDir, TEST_KEY, type TestGateway } from '../helpers/gateway.js'
import { freshDatabase } from '../helpers/pg-database.js'
import { aroundPgQueries } from '../helpers/pg-queries.js'
import { until } from '../helpers/until.js'

const LEASE_SECONDS = 2
// test-gpt: 2000 nano-USD an input token, 8000 an output token; "hello there" counts 4 tokens (test/integration/hard-caps.test.ts).
const MAX_TOKENS = 40
const PROMPT_TOKENS = 4
const WORST = PROMPT_TOKENS * 2000 + MAX_TOKENS * 8000
const ROOM_FOR_FIVE = 6 * WORST - 1
const CALLS = 50
const QUOTA_KEY = 'sk-replicas-quota-0123456789'
const body = JSON.stringify({ model: 'test-gpt', max_tokens: MAX_TOKENS, messages: [{ role: 'user', content: 'hello there' }] })
const usd = (nano: number) => (nano / 1e9).toFixed(9).replace(/\.?0+$/, '')
const FIT = Math.floor((WORST - 1 - PROMPT_TOKENS * 2000) / 8000)
const refusal = (message: string) => ({ status: 402, json: { error: { message, type: 'insufficient_quota', param: null, code: 'insufficient_quota' } } })

let fake: FakeOpenAI
let dir: { dir: string; remove(): void }
let db: Sql
let replicas: RunningGateway[] = []
const pools: Array<{ end(): Promise<void> }> = []

beforeAll(async () => {
  fake = await startFakeOpenAI()
})
afterAll(async () => fake.close())
beforeEach(async () => {
  dir = tempDataDir()
  fake.reset()
  // Each answer costs exactly its worst case, so whatever order the calls settle in, exactly five fit.
  fake.setScenario({ kind: 'ok', usage: { prompt_tokens: PROMPT_TOKENS, completion_tokens: MAX_TOKENS } })
  const databaseUrl = await freshDatabase()
  const secretKey = randomBytes(32)
  const pool = createPgPool({ url: databaseUrl, max: 2, log: () => {} })
  pools.push(pool)
  db = pgSql(pool)
  const config: GatewayConfig = {
    ...configWithoutAccount([{ id: 'a', baseUrl: fake.url }]),
    account: { concurrency: 60 },
    network: { allowPrivateAddresses: true },
    team: { leaseSeconds: LEASE_SECONDS },
  }
  config.keys!.push({ key: QUOTA_KEY, group: 'main', name: 'quota' })
  replicas = []
  for (const name of ['one', 'two']) {
    const dataDir = join(dir.dir, name)
    mkdirSync(dataDir)
    replicas.push(await startGateway({ dataDir, databaseUrl, secrets: aesSecretBox(secretKey), config, port: 0, log: () => {} }))
  }
})
afterEach(async () => {
  await Promise.all(replicas.map((gw) => gw.close(500)))
  await Promise.all(pools.splice(0).map((p) => p.end()))
  dir.remove()
})

/** `calls` calls at once, alternating between the replicas unless `to` picks one. */
async function burst(key = TEST_KEY, to?: () => RunningGateway, calls = CALLS) {
  const answers = await Promise.all(Array.from({ length: calls }, async (_, i) => {
    const res = await fetch(`${(to?.() ?? replicas[i % 2]).url}/v1/chat/completions`, {
      method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body,
    })
    return { status: res.status, json: (await res.json()) as unknown }
  }))
  return { ok: answers.filter((a) => a.status === 200), refused: answers.filter((a) => a.status !== 200) }
}

/** 50 calls against upstream account a's room for five worst cases: 5 answered, 45 refused naming it, a spent 5. */
async function expectUpstreamRoomForFive(ok: unknown[], refused: unknown[]): Promise<void> {
  expect([ok.length, refused.length]).toEqual([5, 45])
  for (const r of refused) {
    expect(r).toEqual(refusal(`This request could cost up to ${usd(WORST)} USD, more than is left of the budget of any upstream account that serves test-gpt (a; at most ${usd(WORST - 1)} USD left). A lower max_tokens fits: at most ${FIT}.`))
  }
  expect(await settled()).toMatchObject({ reserved_nano: 0, holds: 0 })
  expect(await db.get("SELECT spent_nano FROM upstreams WHERE id = 'a'")).toEqual({ spent_nano: 5 * WORST })
}

/** Waits until both replicas read a limit set through one of them (a change notice reloads the other). */
const seenByBoth = (what: string, seen: (gw: RunningGateway) => boolean) => until(what, 5_000, async () => replicas.every(seen) || undefined)
/** Every ledger row written on both replicas, then the shared figures. */
async function settled() {
  await Promise.all(replicas.map((gw) => gw.services.store.ledger.flush()))
  const account = (await db.get<{ balance_nano: number; reserved_nano: number }>('SELECT balance_nano, reserved_nano FROM account'))!
  const holds = (await db.get<{ n: number }>('SELECT COUNT(*) AS n FROM holds'))!.n
  return { ...account, holds }
}

describe(`${CALLS} calls at once over two replicas against room for 5`, () => {
  it('one account budget: exactly 5 answered, 45 refused; the budget less 5 worst cases is left', async () => {
    expect((await adminClient(replicas[0] as TestGateway).patch('/admin/v1/account', { budget: ROOM_FOR_FIVE / 1e9 })).status).toBe(200)
    await seenByBoth('the budget on both replicas', (gw) => gw.services.registry.account.budgetNano === ROOM_FOR_FIVE)
    const { ok, refused } = await burst()
    expect([ok.length, refused.length]).toEqual([5, 45])
    for (const r of refused) {
      expect(r).toEqual(refusal(`This request could cost up to ${usd(WORST)} USD, and ${usd(WORST - 1)} USD is left of the account's budget (less what requests under way hold). A lower max_tokens fits: at most ${FIT}.`))
    }
    expect(await settled()).toEqual({ balance_nano: ROOM_FOR_FIVE - 5 * WORST, reserved_nano: 0, holds: 0 })
    expect(fake.calls).toHaveLength(5)
  }, 60_000)

  it('one key quota: exactly 5 answered, 45 refused; the key spent 5 worst cases', async () => {
    const admin = adminClient(replicas[1] as TestGateway)
    const key = (await admin.get('/admin/v1/keys')).json.find((k: { name: string | null }) => k.name === 'quota')
    expect((await admin.patch(`/admin/v1/keys/${key.id}`, { quota: ROOM_FOR_FIVE / 1e9 })).status).toBe(200)
    await seenByBoth('the quota on both replicas', (gw) => gw.services.registry.keysById.get(key.id)?.quotaNano === ROOM_FOR_FIVE)
    const { ok, refused } = await burst(QUOTA_KEY)
    expect([ok.length, refused.length]).toEqual([5, 45])
    for (const r of refused) {
      expect(r).toEqual(refusal(`This request could cost up to ${usd(WORST)} USD, and ${usd(WORST - 1)} USD is left of this API key's quota (less what its requests under way hold). A lower max_tokens fits: at most ${FIT}.`))
    }
    await settled()
    expect(await db.get('SELECT used_nano FROM api_keys WHERE id = ?', [key.id])).toEqual({ used_nano: 5 * WORST })
  }, 60_000)

  it('one upstream account budget: exactly 5 answered, 45 refused naming it; it spent 5 worst cases', async () => {
    expect((await adminClient(replicas[0] as TestGateway).patch('/admin/v1/upstreams/a', { budget: ROOM_FOR_FIVE / 1e9 })).status).toBe(200)
    await seenByBoth('the upstream budget on both replicas', (gw) => gw.services.registry.upstreams.get('a')?.budgetNano === ROOM_FOR_FIVE)
    const { ok, refused } = await burst()
    await expectUpstreamRoomForFive(ok, refused)
  }, 60_000)
})

describe('a limit set through one replica binds the other at once, before its reload', () => {
  const toB = () => replicas[1]

  it('with no limit anywhere, a call reads nothing more: its lease\'s round trip said so', async () => {
    const holds = replicas[1].services.store.holds
    const read = holds.limitsApply
    let reads = 0
    holds.limitsApply = async (...args) => {
      reads++
      return read(...args)
    }
    try {
      const { ok } = await burst(TEST_KEY, toB)
      expect(ok).toHaveLength(CALLS)
      expect(reads).toBe(0)
      // A limit anywhere (here an upstream account's, seen by the lease's round trip): B's memory says none, so it reads.
      expect((await adminClient(replicas[0] as TestGateway).patch('/admin/v1/upstreams/a', { budget: 1 })).status).toBe(200)
      await seenByBoth('the upstream budget on both replicas', (gw) => gw.services.registry.upstreams.get('a')?.budgetNano === 1e9)
      ;(replicas[1].services.registry.upstreams.get('a') as { budgetNano: number | null }).budgetNano = null
      expect((await burst(TEST_KEY, toB, 1)).ok).toHaveLength(1)
      expect(reads).toBe(1)
    } finally {
      holds.limitsApply = read
    }
    expect(await settled()).toMatchObject({ reserved_nano: 0, holds: 0 })
  }, 60_000)

  it('the account budget set through A; calls sent to B at once: exactly 5 answered, spend within the budget', async () => {
    expect((await adminClient(replicas[0] as TestGateway).patch('/admin/v1/account', { budget: ROOM_FOR_FIVE / 1e9 })).status).toBe(200)
    const { ok, refused } = await burst(TEST_KEY, toB)
    expect([ok.length, refused.length]).toEqual([5, 45])
    expect(await settled()).toEqual({ balance_nano: ROOM_FOR_FIVE - 5 * WORST, reserved_nano: 0, holds: 0 })
  }, 60_000)

  // B's memory made to say what it said before its reload (no limit): the database's limits still bind it.
  it('B still unaware of the account budget: exactly 5 of its calls answered', async () => {
    expect((await adminClient(replicas[0] as TestGateway).patch('/admin/v1/account', { budget: ROOM_FOR_FIVE / 1e9 })).status).toBe(200)
    await seenByBoth('the budget on both replicas', (gw) => gw.services.registry.account.budgetNano === ROOM_FOR_FIVE)
    ;(replicas[1].services.registry.account as { budgetNano: number | null }).budgetNano = null
    const { ok, refused } = await burst(TEST_KEY, toB)
    expect([ok.length, refused.length]).toEqual([5, 45])
    for (const r of refused) {
      expect(r).toEqual(refusal(`This request could cost up to ${usd(WORST)} USD, and ${usd(WORST - 1)} USD is left of the account's budget (less what requests under way hold). A lower max_tokens fits: at most ${FIT}.`))
    }
    expect(await settled()).toEqual({ balance_nano: ROOM_FOR_FIVE - 5 * WORST, reserved_nano: 0, holds: 0 })
  }, 60_000)

  it('B still unaware of the key quota: exactly 5 of its calls answered; the key spent 5 worst cases', async () => {
    const admin = adminClient(replicas[0] as TestGateway)
    const key = (await admin.get('/admin/v1/keys')).json.find((k: { name: string | null }) => k.name === 'quota')
    expect((await admin.patch(`/admin/v1/keys/${key.id}`, { quota: ROOM_FOR_FIVE / 1e9 })).status).toBe(200)
    await seenByBoth('the quota on both replicas', (gw) => gw.services.registry.keysById.get(key.id)?.quotaNano === ROOM_FOR_FIVE)
    ;(replicas[1].services.registry.keysById.get(key.id) as { quotaNano: number | null }).quotaNano = null
    const { ok, refused } = await burst(QUOTA_KEY, toB)
    expect([ok.length, refused.length]).toEqual([5, 45])
    await settled()
    expect(await db.get('SELECT used_nano FROM api_keys WHERE id = ?', [key.id])).toEqual({ used_nano: 5 * WORST })
  }, 60_000)

  it('B still unaware of the upstream account budget: exactly 5 of its calls answered, naming the account', async () => {
    expect((await adminClient(replicas[0] as TestGateway).patch('/admin/v1/upstreams/a', { budget: ROOM_FOR_FIVE / 1e9 })).status).toBe(200)
    await seenByBoth('the upstream budget on both replicas', (gw) => gw.services.registry.upstreams.get('a')?.budgetNano === ROOM_FOR_FIVE)
    ;(replicas[1].services.registry.upstreams.get('a') as { budgetNano: number | null }).budgetNano = null
    const { ok, refused } = await burst(TEST_KEY, toB)
    await expectUpstreamRoomForFive(ok, refused)
  }, 60_000)
})

describe('a request under way when a budget is first set', () => {
  it('holds nothing and is charged as it ends: the budget counts its cost among what was spent', async () => {
    fake.setScenario({ kind: 'slow', delayMs: 1_000 })
    const answer = fetch(`${replicas[1].url}/v1/chat/completions`, {
      method: 'POST', headers: { authorization: `Bearer ${TEST_KEY}`, 'content-type': 'application/json' }, body,
    })
    await until('the call at the vendor', 5_000, async () => fake.calls.length === 1 || undefined)
    expect((await adminClient(replicas[0] as TestGateway).patch('/admin/v1/account', { budget: ROOM_FOR_FIVE / 1e9 })).status).toBe(200)
    const res = await answer
    expect(res.status).toBe(200)
    const id = res.headers.get('x-request-id')!
    await res.text()
    expect(await settled()).toMatchObject({ reserved_nano: 0, holds: 0 })
    const row = (await db.get<{ cost_nano: number; reserved_nano: number | null }>('SELECT cost_nano, reserved_nano FROM requests WHERE id = ?', [id]))!
    expect(Number(row.cost_nano)).toBeGreaterThan(0)
    expect(row.reserved_nano).toBeNull()
    expect((await settled()).balance_nano).toBe(ROOM_FOR_FIVE - Number(row.cost_nano))
  }, 60_000)
})

describe('a replica that stops with holds', () => {
  it('its holds are released by the other once its lease lapses, and the budget is whole again', async () => {
    const admin = adminClient(replicas[0] as TestGateway)
    expect((await admin.patch('/admin/v1/account', { budget: ROOM_FOR_FIVE / 1e9 })).status).toBe(200)
    // What a replica that died mid-request leaves: its hold, counted in the account's reservations.
    await db.run("INSERT INTO holds (id, replica, key_id, upstream_id, amount_nano, created_at) VALUES ('req_dead', 'dead-replica', 'k', NULL, ?, 0)", [4 * WORST])
    await db.run('UPDATE account SET reserved_nano = reserved_nano + ? WHERE id = 1', [4 * WORST])
    await db.run("INSERT INTO replicas (id, seen_at) VALUES ('dead-replica', clock_timestamp())")
    // While it counts as alive, its hold stands.
    expect((await admin.get('/admin/v1/account')).json).toMatchObject({ reserved: 4 * WORST / 1e9 })
    // Within the lease and a sweep (at most the lease time apart), the other replicas release it.
    await until('the dead replica\'s hold released', LEASE_SECONDS * 1000 + 6_000, async () => ((await settled()).holds === 0) || undefined)
    expect(await settled()).toEqual({ balance_nano: ROOM_FOR_FIVE, reserved_nano: 0, holds: 0 })
    expect((await admin.get('/admin/v1/account')).json).toMatchObject({ reserved: 0, available: ROOM_FOR_FIVE / 1e9 })
  }, 60_000)
})

describe('one client, one call after another on one replica', () => {
  // Each answer costs far less than its worst case: the next call fits only once the last one's hold is settled by
  // its ledger row, which this replica writes with its leases after the answer.
  const COST = PROMPT_TOKENS * 2000 + 8000
  const CALLS_THAT_FIT = 10
  const BUDGET = WORST + CALLS_THAT_FIT * COST - 1

  it(`the next call waits for the last one's hold to be settled: ${CALLS_THAT_FIT} answered, the next refused with what is left`, async () => {
    fake.setScenario({ kind: 'ok', usage: { prompt_tokens: PROMPT_TOKENS, completion_tokens: 1 } })
    expect((await adminClient(replicas[0] as TestGateway).patch('/admin/v1/account', { budget: BUDGET / 1e9 })).status).toBe(200)
    await seenByBoth('the budget on both replicas', (gw) => gw.services.registry.account.budgetNano === BUDGET)
    // The ledger's commits made slow, so that each next call is admitted while the last one's hold still stands.
    const restoreQueries = aroundPgQueries((text, send) =>
      text.includes('write_ledger(') ? new Promise((resolve) => setTimeout(resolve, 100)).then(send) : send())
    const statuses: unknown[] = []
    try {
      for (let i = 0; i <= CALLS_THAT_FIT; i++) {
        const { ok, refused } = await burst(TEST_KEY, () => replicas[0], 1)
        statuses.push(ok.length === 1 ? 200 : refused[0])
      }
    } finally {
      restoreQueries()
    }
    expect(statuses).toEqual([
      ...Array(CALLS_THAT_FIT).fill(200),
      refusal(`This request could cost up to ${usd(WORST)} USD, and ${usd(WORST - 1)} USD is left of the account's budget (less what requests under way hold). A lower max_tokens fits: at most ${FIT}.`),
    ])
    expect(await settled()).toEqual({ balance_nano: BUDGET - CALLS_THAT_FIT * COST, reserved_nano: 0, holds: 0 })
  }, 60_000)
})
