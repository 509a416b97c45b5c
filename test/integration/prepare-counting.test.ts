// The token counter's tables, built once the gateway listens when it is asked to (the headless run and the app ask),
// so that the first held request after a start counts its prompt at once; no thread is started for them. A gateway
// not asked builds them on its first short count, as before. (Its own file: the tables are the module's.)
import { afterEach, describe, expect, it } from 'vitest'
import { countingInline, tokenThreadRunning } from '../../electron/gateway/tokens/tokens.js'
import { chatConfig, startTestGateway, TEST_KEY, type TestGateway } from '../helpers/gateway.js'
import { startFakeOpenAI, type FakeOpenAI } from '../fakes/openai.js'
import { until } from '../helpers/until.js'

let gw: TestGateway | undefined
let fake: FakeOpenAI | undefined
afterEach(async () => {
  await gw?.stop()
  await fake?.close()
  gw = fake = undefined
})

describe('the token counter at a start', () => {
  it('not asked: no tables until the first short count', async () => {
    fake = await startFakeOpenAI()
    gw = await startTestGateway(chatConfig([{ id: 'a', baseUrl: fake.url }]))
    await new Promise((resolve) => setTimeout(resolve, 500))
    expect([countingInline(), tokenThreadRunning()]).toEqual([false, false])
  })

  it('asked (prepareCounting): built once listening, with no request and no thread; the first request finds them', async () => {
    fake = await startFakeOpenAI()
    gw = await startTestGateway(chatConfig([{ id: 'a', baseUrl: fake.url }]), undefined, { prepareCounting: true })
    await until('the tables are built', 10_000, () => countingInline())
    expect(tokenThreadRunning()).toBe(false)
    const res = await gw.post('/v1/chat/completions', { model: 'test-gpt', messages: [{ role: 'user', content: 'hello' }] }, { authorization: `Bearer ${TEST_KEY}` })
    expect(res.status).toBe(200)
    expect([countingInline(), tokenThreadRunning()]).toEqual([true, false])
  })
})
