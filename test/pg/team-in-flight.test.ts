// `in_flight` of GET /v1/usage in team mode counts every replica's requests (the live leases), not one replica's.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startFakeOpenAI, type FakeOpenAI } from '../fakes/openai.js'
import { chatConfig, type TestGateway } from '../helpers/gateway.js'
import { freshDatabase } from '../helpers/pg-database.js'
import { newSecretKey, startReplica } from '../helpers/team.js'
import { until } from '../helpers/until.js'

let fake: FakeOpenAI
let a: TestGateway
let b: TestGateway
const body = { model: 'test-gpt', messages: [{ role: 'user', content: 'hello' }] }

beforeAll(async () => {
  fake = await startFakeOpenAI()
  const databaseUrl = await freshDatabase()
  const secretKey = newSecretKey()
  const config = chatConfig([{ id: 'a', baseUrl: fake.url }], { account: { balance: 100, concurrency: 10 }, team: { leaseSeconds: 1 } })
  ;[a, b] = await Promise.all([startReplica(databaseUrl, secretKey, config), startReplica(databaseUrl, secretKey, config)])
})
afterAll(async () => {
  await Promise.all([a?.stop(), b?.stop()])
  await fake?.close()
})

const inFlightOn = async (gw: TestGateway) => {
  const res = await gw.get('/v1/usage')
  expect(res.status).toBe(200)
  return ((await res.json()) as { concurrency: { limit: number; in_flight: number } }).concurrency
}

describe('team mode: /v1/usage in_flight', () => {
  it('counts the requests in flight on every replica, on whichever replica answers', async () => {
    fake.setScenario({ kind: 'slow', delayMs: 1_500 })
    // Two requests on replica a, one on replica b.
    const calls = [a, a, b].map((gw) => gw.post('/v1/chat/completions', body))
    await until('three requests in flight on the two replicas', 3_000, () => a.services.limiter.inFlight() === 2 && b.services.limiter.inFlight() === 1)
    expect(await inFlightOn(a)).toEqual({ limit: 10, in_flight: 3 })
    expect(await inFlightOn(b)).toEqual({ limit: 10, in_flight: 3 })
    expect((await Promise.all(calls)).map((r) => r.status)).toEqual([200, 200, 200])
    // Given back: the leases are deleted once the answers went out.
    await until('every lease given back', 3_000, async () => (await inFlightOn(b)).in_flight === 0)
    expect(await inFlightOn(a)).toEqual({ limit: 10, in_flight: 0 })
  })
})
