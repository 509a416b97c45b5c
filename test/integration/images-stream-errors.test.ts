import { beforeEach, describe, expect, it } from 'vitest'
import { startFakeOpenAIImages } from '../fakes/images/openai-images.js'
import { TEST_KEY, withGateway } from '../helpers/gateway.js'
import { readSse } from '../helpers/sse.js'
import { IMG_GPT } from '../helpers/image-models.js'

// The account's key, which a misbehaving upstream quotes back: it must never reach a client or a log line.
const ACCOUNT_KEY = 'oa-account-secret-0123456789'

const logs: string[] = []

const { gw, fakes: { openaiFake } } = withGateway({
  fakes: { openaiFake: () => startFakeOpenAIImages({ apiKey: ACCOUNT_KEY }) },
  config: ({ openaiFake }) => ({
    account: { balance: 100, concurrency: 5 },
    models: [IMG_GPT] as never,
    upstreams: [{ id: 'oa', vendor: 'openai', baseUrl: openaiFake.url, apiKey: ACCOUNT_KEY }],
    groups: [{ id: 'main', protocol: 'chat', models: ['img-gpt'], upstreams: ['oa'] }],
    keys: [{ key: TEST_KEY, group: 'main' }],
  }),
  options: { log: (line) => logs.push(line) },
  resetFakes: true,
})
beforeEach(() => {
  logs.length = 0
})

/** The stream's events, once its keepalive came first (the 200 was sent before the error). */
async function streamed(res: Response) {
  expect(res.status).toBe(200)
  const text = await res.clone().text()
  expect(text.startsWith(': keepalive\n\n')).toBe(true)
  const events = await readSse(res)
  await gw.services.store.ledger.flush()
  return { events, row: (await gw.services.store.ledger.get(res.headers.get('x-request-id')!))! }
}

describe('errors of the images SSE', () => {
  it("an upstream's refusal is an error event in the chat envelope, its secrets removed", async () => {
    openaiFake.setScenario({ kind: 'status', status: 400, body: { error: { message: `Your key ${ACCOUNT_KEY} may not draw foxes.`, type: 'invalid_request_error', param: 'prompt', code: 'content_policy' } } })
    const res = await gw.post('/v1/images/generations', { model: 'img-gpt', prompt: 'a fox', stream: true })
    const { events, row } = await streamed(res)
    expect(events.map((e) => e.event)).toEqual(['error'])
    // error.upstream names why the vendor failed, in its own words, its secrets removed there too (issue 25)
    expect(JSON.parse(events[0].data)).toEqual({ error: {
      message: 'Your key [redacted] may not draw foxes.', type: 'invalid_request_error', param: 'prompt', code: 'content_policy',
      upstream: { reason: 'vendor_refused', status: 400, message: 'Your key [redacted] may not draw foxes.' },
    } })
    expect(row).toMatchObject({ status: 400, error_code: 'content_policy', cost_nano: 0 })
    expect(logs.join('\n')).not.toContain(ACCOUNT_KEY)
  })

  it("an internal failure after the images were made is an error event naming the request, and is logged through the gateway's log", async () => {
    const model = gw.services.registry.catalog.get('img-gpt')!
    const pricing = model.pricing
    // Pricing fails once the upstream has answered, after the stream started: a fault of the gateway itself.
    Object.defineProperty(model, 'pricing', {
      configurable: true,
      get: () => {
        if (openaiFake.calls.length > 0) throw new Error(`price list unreadable near ${ACCOUNT_KEY}`)
        return pricing
      },
    })
    try {
      const res = await gw.post('/v1/images/generations', { model: 'img-gpt', prompt: 'a fox', stream: true })
      const requestId = res.headers.get('x-request-id')!
        const { events, row } = await streamed(res)
      expect(events.map((e) => e.event)).toEqual(['error'])
      expect(JSON.parse(events[0].data)).toEqual({ error: { message: `The gateway hit an internal error; the request id is ${requestId}.`, type: 'api_error', param: null, code: 'internal_error' } })
      expect(row).toMatchObject({ status: 500, error_code: 'internal_error' })
      const logged = logs.filter((line) => line.startsWith(`[gatehouse] ${requestId} internal error: Error: price list unreadable near [redacted]`))
      expect(logged).toHaveLength(1)
      expect(logs.join('\n')).not.toContain(ACCOUNT_KEY)
    } finally {
      Object.defineProperty(model, 'pricing', { configurable: true, writable: true, value: pricing })
    }
  })
})
