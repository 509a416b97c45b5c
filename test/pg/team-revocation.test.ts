import { createParser, type EventSourceMessage } from 'eventsource-parser'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { GatewayConfig } from '../../electron/gateway/config/load-config.js'
import { startTrickleUpstream, trickleWord, type TrickleUpstream } from '../faults/trickle-upstream.js'
import type { TestGateway } from '../helpers/gateway.js'
import { freshDatabase } from '../helpers/pg-database.js'
import { newSecretKey, startReplica } from '../helpers/team.js'
import { until } from '../helpers/until.js'
import { adminClient } from '../integration/admin/admin-helpers.js'

/** Two replicas on one database; the upstream streams a word every 50 ms for 10 s. */
let trickle: TrickleUpstream
let a: TestGateway
let b: TestGateway

beforeAll(async () => {
  trickle = await startTrickleUpstream({ everyMs: 50, deltas: 200 })
  const config: GatewayConfig = {
    account: { balance: 100, concurrency: 5 },
    models: [{ id: 'test-gpt', family: 'gpt', vendor: 'openai', pricing: { unit: 'token', input: 2, output: 8 } }],
    upstreams: [{ id: 'trickle', vendor: 'openai', baseUrl: `${trickle.origin}/v1`, apiKey: 'sk-upstream-trickle' }],
    groups: [{ id: 'chat', protocol: 'chat', models: ['test-gpt'], upstreams: ['trickle'] }],
    team: { leaseSeconds: 1 },
  }
  const [databaseUrl, secretKey] = [await freshDatabase(), newSecretKey()]
  ;[a, b] = await Promise.all([startReplica(databaseUrl, secretKey, config), startReplica(databaseUrl, secretKey, config)])
})
afterAll(async () => {
  await Promise.all([a?.stop(), b?.stop()])
  await trickle?.close()
})

describe('team mode: a key revoked on one replica', () => {
  it("ends its stream on the other within a second (the change notice's reload), billed for what was delivered", async () => {
    const created = await adminClient(a).post('/admin/v1/keys', { group: 'chat' })
    expect(created.status).toBe(201)
    const { key, id } = created.json as { key: string; id: string }
    await until('replica b knows the new key', 3_000, () => b.services.registry.keysById.has(id))

    const res = await fetch(`${b.url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'test-gpt', messages: [{ role: 'user', content: 'hello' }], stream: true }),
    })
    expect(res.status).toBe(200)
    const events: Array<EventSourceMessage & { at: number }> = []
    const parser = createParser({ onEvent: (e) => void events.push({ ...e, at: Date.now() }) })
    const reader = res.body!.getReader()
    const decoder = new TextDecoder()
    const ended = (async () => {
      for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) parser.feed(decoder.decode(chunk.value, { stream: true }))
      return Date.now()
    })()
    const words = () => events.filter((e) => e.event === undefined && e.data !== '[DONE]').map((e) => JSON.parse(e.data).choices[0]?.delta?.content).filter(Boolean)
    await until('three words delivered', 3_000, () => words().length >= 3)

    const revokedAt = Date.now()
    expect((await adminClient(a).del(`/admin/v1/keys/${id}`)).status).toBe(204)
    let timer: NodeJS.Timeout | undefined
    const late = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error('the stream on replica b did not end within 2 s')), 2_000)))
    const endedAt = await Promise.race([ended, late]).finally(() => clearTimeout(timer))
    expect(endedAt - revokedAt).toBeLessThan(1_000)
    const last = events.at(-1)!
    expect([last.event, JSON.parse(last.data)]).toEqual([
      'error', { error: { message: 'This API key was revoked while the request was running.', type: 'authentication_error', param: null, code: 'api_key_revoked' } },
    ])
    const delivered = words()
    expect(delivered).toEqual(delivered.map((_: string, i: number) => trickleWord(i)))

    // The upstream call was aborted, and replica b's ledger row (in the shared database) says why.
    const cutAt = await until('the upstream connection is closed', 1_000, () => trickle.calls[0]?.cutAt)
    expect(cutAt - revokedAt).toBeLessThan(1_000)
    const requestId = res.headers.get('x-request-id')!
    const row = await until('the ledger row is final', 3_000, async () => {
      await b.services.store.ledger.flush()
      const r = await b.services.store.ledger.get(requestId)
      return r?.status === 401 ? r : undefined
    })
    expect([row.error_code, row.key_id, row.output_tokens! > 0, row.cost_nano > 0]).toEqual(['api_key_revoked', id, true, true])
  })
})
