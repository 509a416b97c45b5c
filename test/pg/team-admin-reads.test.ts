import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startFakeOpenAI, type FakeOpenAI } from '../fakes/openai.js'
import { chatConfig, type TestGateway } from '../helpers/gateway.js'
import { freshDatabase } from '../helpers/pg-database.js'
import { newSecretKey, startReplica } from '../helpers/team.js'

let fake: FakeOpenAI
let gw: TestGateway
beforeAll(async () => {
  fake = await startFakeOpenAI()
  gw = await startReplica(await freshDatabase(), newSecretKey(), chatConfig([{ id: 'a', baseUrl: fake.url }]))
})
afterAll(async () => {
  await gw?.stop()
  await fake?.close()
})

describe('team mode: the request log reads on PostgreSQL', () => {
  it('lists requests with and without filters (parameters tested only for NULL are typed)', async () => {
    const res = await gw.post('/v1/chat/completions', { model: 'test-gpt', messages: [{ role: 'user', content: 'hi' }] })
    expect(res.status).toBe(200)
    const id = res.headers.get('x-request-id')!
    const admin = { authorization: `Bearer ${gw.adminToken}` }
    for (const query of ['', '?group=main', `?id=${id}`, '?status=ok']) {
      const listed = await fetch(`${gw.url}/admin/v1/requests${query}`, { headers: admin })
      expect(listed.status).toBe(200)
      expect(((await listed.json()) as { data: Array<{ id: string }> }).data.map((r) => r.id)).toContain(id)
    }
    expect((await gw.services.store.ledger.recent(null, 5)).map((r) => r.id)).toContain(id)
  })
})
