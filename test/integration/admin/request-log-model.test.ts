// The request log names the model of every request that named one: also when the gateway refused it before
// serving (unknown, deprecated, not in the key's group), so a refused row is not shown with model "–".
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { chatConfig, startTestGateway, type TestGateway } from '../../helpers/gateway.js'
import { adminClient } from './admin-helpers.js'

describe('request log: the model named', () => {
  let gw: TestGateway
  let admin: ReturnType<typeof adminClient>
  beforeAll(async () => {
    gw = await startTestGateway(chatConfig([]))
    admin = adminClient(gw)
  })
  afterAll(() => gw?.stop())

  const hello = [{ role: 'user', content: 'hi' }]
  async function rowOf(model: unknown): Promise<{ status: number; row: { model: string | null; status: number; errorCode: string | null } }> {
    const res = await gw.post('/v1/chat/completions', { model, messages: hello })
    const id = res.headers.get('x-request-id')!
    await gw.services.store.ledger.flush()
    const page = (await admin.get(`/admin/v1/requests?id=${id}`)).json as { data: Array<{ model: string | null; status: number; errorCode: string | null }> }
    expect(page.data).toHaveLength(1)
    return { status: res.status, row: page.data[0] }
  }

  it('an unknown model: 404, the row names it', async () => {
    expect(await rowOf('no-such-model-2026')).toEqual({ status: 404, row: expect.objectContaining({ model: 'no-such-model-2026', status: 404, errorCode: 'model_not_found' }) })
  })

  it('a deprecated model: 400, the row names it', async () => {
    const deprecated = gw.services.registry.catalog.all().find((m) => m.deprecated && m.type === 'chat')!
    expect(await rowOf(deprecated.id)).toEqual({ status: 400, row: expect.objectContaining({ model: deprecated.id, status: 400, errorCode: 'model_deprecated' }) })
  })

  it('keeps at most 200 characters of a name it did not find; a body without a model names none', async () => {
    const long = 'm'.repeat(5_000)
    expect((await rowOf(long)).row.model).toBe('m'.repeat(200))
    expect((await rowOf(undefined)).row.model).toBeNull()
  })
})
