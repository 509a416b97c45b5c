// The token counter's tables, built once the gateway listens when it is asked to (the headless run and the app ask),
// so that the first held request after a start counts its prompt at once; no thread is started for them. A gateway
// not asked builds them on its first short count, as before. The tables are the tokens module's: each test starts
// on fresh modules (vi.resetModules), the gateway's and the test's own the same.
import { afterEach, describe, expect, it, vi } from 'vitest'
import { startFakeOpenAI, type FakeOpenAI } from '../fakes/openai.js'
import { until } from '../helpers/until.js'

type Helpers = typeof import('../helpers/gateway.js')
let gw: Awaited<ReturnType<Helpers['startTestGateway']>> | undefined
let fake: FakeOpenAI | undefined
afterEach(async () => {
  await gw?.stop()
  await fake?.close()
  gw = fake = undefined
})

/** The tokens module and the gateway's helpers, evaluated anew: no tables built yet. */
async function freshModules() {
  vi.resetModules()
  const tokens = await import('../../electron/gateway/tokens/tokens.js')
  const helpers: Helpers = await import('../helpers/gateway.js')
  expect([tokens.countingInline(), tokens.tokenThreadRunning()]).toEqual([false, false])
  return { tokens, helpers }
}

describe('the token counter at a start', () => {
  it('not asked: no tables until the first short count', async () => {
    const { tokens, helpers } = await freshModules()
    fake = await startFakeOpenAI()
    gw = await helpers.startTestGateway(helpers.chatConfig([{ id: 'a', baseUrl: fake.url }]))
    await new Promise((resolve) => setTimeout(resolve, 500))
    expect([tokens.countingInline(), tokens.tokenThreadRunning()]).toEqual([false, false])
  })

  it('asked (prepareCounting): built once listening, with no request and no thread; the first request finds them', async () => {
    const { tokens, helpers } = await freshModules()
    fake = await startFakeOpenAI()
    gw = await helpers.startTestGateway(helpers.chatConfig([{ id: 'a', baseUrl: fake.url }]), undefined, { prepareCounting: true })
    await until('the tables are built', 10_000, () => tokens.countingInline())
    expect(tokens.tokenThreadRunning()).toBe(false)
    const res = await gw.post('/v1/chat/completions', { model: 'test-gpt', messages: [{ role: 'user', content: 'hello' }] }, { authorization: `Bearer ${helpers.TEST_KEY}` })
    expect(res.status).toBe(200)
    expect([tokens.countingInline(), tokens.tokenThreadRunning()]).toEqual([true, false])
  })
})
