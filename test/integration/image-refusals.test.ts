// Issue 24: a vendor's deterministic refusal of an image is the client's 400 with the vendor's reason (not a 502 that
// tells the client to retry): not retried, not failed over to the group's other account, not billed. And the delay a
// rate-limited image vendor asks for reaches the client's Retry-After.
import { describe, expect, it } from 'vitest'
import { startFakeArkSeedream } from '../fakes/images/ark-seedream.js'
import { startFakeGeminiImage } from '../fakes/images/gemini-image.js'
import { startFakeKlingImages } from '../fakes/images/kling-images.js'
import { startFakeOpenAIImages } from '../fakes/images/openai-images.js'
import { startFakeXaiImages } from '../fakes/images/xai-images.js'
import { TEST_KEY, withGateway } from '../helpers/gateway.js'
import { IMG_GEMINI_1K, IMG_GPT, IMG_GROK, IMG_KLING, IMG_SEEDREAM } from '../helpers/image-models.js'

const { gw, fakes: { gemini, geminiB, ark, openai, kling, xai } } = withGateway({
  fakes: {
    gemini: () => startFakeGeminiImage({ apiKey: 'gm' }),
    geminiB: () => startFakeGeminiImage({ apiKey: 'gm2' }),
    ark: () => startFakeArkSeedream({ apiKey: 'ark' }),
    openai: () => startFakeOpenAIImages({ apiKey: 'oa' }),
    kling: () => startFakeKlingImages({ accessKey: 'ak', secretKey: 'sk' }),
    xai: () => startFakeXaiImages({ apiKey: 'xai' }),
  },
  config: ({ gemini, geminiB, ark, openai, kling, xai }) => ({
    account: { balance: 100, concurrency: 5 },
    models: [
      IMG_GEMINI_1K,
      IMG_SEEDREAM,
      IMG_GPT,
      IMG_KLING,
      IMG_GROK,
    ] as never,
    // Two accounts per Gemini model: a refusal must not be tried on the second.
    upstreams: [
      { id: 'gm', vendor: 'gemini', baseUrl: gemini.url, apiKey: 'gm' },
      { id: 'gm2', vendor: 'gemini', baseUrl: geminiB.url, apiKey: 'gm2' },
      { id: 'ark', vendor: 'ark', baseUrl: ark.url, apiKey: 'ark' },
      { id: 'oa', vendor: 'openai', baseUrl: openai.url, apiKey: 'oa' },
      { id: 'kl', vendor: 'kling', baseUrl: kling.url, apiKey: 'ak:sk' },
      { id: 'xai', vendor: 'xai', baseUrl: xai.url, apiKey: 'xai' },
    ],
    groups: [{ id: 'main', protocol: 'chat', models: ['img-gemini', 'img-seedream', 'img-gpt', 'img-kling', 'img-grok'], upstreams: ['gm', 'gm2', 'ark', 'oa', 'kl', 'xai'] }],
    keys: [{ key: TEST_KEY, group: 'main' }],
  }),
  resetFakes: true,
})

const lastRow = async () => (await gw.services.store.ledger.recent(null, 1))[0]
const posts = (fake: { calls: Array<{ method: string }> }) => fake.calls.filter((c) => c.method === 'POST').length

async function generate(body: Record<string, unknown>, headers: Record<string, string> = {}) {
  const res = await gw.post('/v1/images/generations', body, headers)
  return { status: res.status, headers: res.headers, body: (await res.json()) as any }
}

describe('Gemini refusals are 400 with the vendor\'s reason: one call, no failover, no bill', () => {
  it.each([
    ['NO_IMAGE', 'image_refused'],
    ['IMAGE_SAFETY', 'content_policy_violation'],
    ['SAFETY', 'content_policy_violation'],
    ['RECITATION', 'content_policy_violation'],
    ['PROHIBITED_CONTENT', 'content_policy_violation'],
  ])('finishReason %s: 400 %s', async (reason, code) => {
    gemini.setScenario({ kind: 'no_image', finishReason: reason })
    const res = await generate({ model: 'img-gemini', prompt: 'a fox' })
    expect(res).toMatchObject({ status: 400, body: { error: {
      message: `The model made no image: the vendor stopped it (${reason}). The same request will be refused again; change the prompt or the reference images.`,
      type: 'invalid_request_error', code,
    } } })
    expect([posts(gemini), posts(geminiB)]).toEqual([1, 0])
    expect(await lastRow()).toMatchObject({ status: 400, error_code: code, cost_nano: 0 })
  })

  it('in Chinese too', async () => {
    gemini.setScenario({ kind: 'no_image', finishReason: 'NO_IMAGE' })
    const res = await generate({ model: 'img-gemini', prompt: 'a fox' }, { 'accept-language': 'zh-CN' })
    expect(res.body.error.message).toBe('模型没有生成图像：服务商终止了生成（NO_IMAGE）。同样的请求会再次被拒绝，请修改提示词或参考图像。')
  })

  it('a prompt block (promptFeedback.blockReason): 400 content_policy_violation naming the reason', async () => {
    gemini.setScenario({ kind: 'blocked', reason: 'PROHIBITED_CONTENT' })
    const res = await generate({ model: 'img-gemini', prompt: 'a fox' })
    expect(res).toMatchObject({ status: 400, body: { error: { message: 'The prompt was blocked by the model\'s safety system (reason: PROHIBITED_CONTENT).', code: 'content_policy_violation' } } })
    expect([posts(gemini), posts(geminiB)]).toEqual([1, 0])
  })

  it('a text-only answer: 400 image_refused quoting the text', async () => {
    gemini.setScenario({ kind: 'text_only', text: 'I cannot draw that.' })
    const res = await generate({ model: 'img-gemini', prompt: 'a fox' })
    expect(res).toMatchObject({ status: 400, body: { error: { message: 'The model returned no image. It said: I cannot draw that.', code: 'image_refused' } } })
    expect(posts(geminiB)).toBe(0)
  })

  it('a finish reason not known to repeat (IMAGE_OTHER) is still the vendor\'s failure: the next account is tried', async () => {
    gemini.setScenario({ kind: 'no_image', finishReason: 'IMAGE_OTHER' })
    const res = await generate({ model: 'img-gemini', prompt: 'a fox' })
    expect(res.status).toBe(200)
    expect([posts(gemini), posts(geminiB)]).toEqual([1, 1])
  })

  it('n = 2 with a refusal: all or nothing, 400, unbilled', async () => {
    gemini.setScenario({ kind: 'no_image', finishReason: 'IMAGE_SAFETY' })
    const res = await generate({ model: 'img-gemini', prompt: 'a fox', n: 2 })
    expect(res).toMatchObject({ status: 400, body: { error: { code: 'content_policy_violation' } } })
    expect(posts(geminiB)).toBe(0)
    expect((await lastRow()).cost_nano).toBe(0)
  })
})

describe('Seedream: an answer whose every image Ark refused', () => {
  it('is 400 content_policy_violation in Ark\'s words, once, unbilled (it was a 200 with no image)', async () => {
    ark.setScenario({ kind: 'ok', images: 1, failed: [0] })
    const res = await generate({ model: 'img-seedream', prompt: 'a fox', size: '2K' })
    expect(res).toMatchObject({ status: 400, body: { error: { message: 'The request failed because the output image may contain sensitive information.', code: 'content_policy_violation' } } })
    expect(posts(ark)).toBe(1)
    expect(await lastRow()).toMatchObject({ status: 400, cost_nano: 0 })
  })
})

describe('Kling: a business code inside an HTTP 200 is the error its code stands for', () => {
  it('1301 (content safety) is the client\'s 400 with Kling\'s code and words, once, unbilled (it was an error with the status 200)', async () => {
    kling.setScenario({ kind: 'status', status: 200, code: 1301, message: 'Content security check failed' })
    const res = await generate({ model: 'img-kling', prompt: 'a fox' })
    expect(res).toMatchObject({ status: 400, body: { error: { message: 'Content security check failed', type: 'invalid_request_error', code: '1301' } } })
    expect(posts(kling)).toBe(1)
    expect(await lastRow()).toMatchObject({ status: 400, cost_nano: 0 })
  })
})

describe('xAI: its moderation block', () => {
  it('is a 400 content_policy_violation in xAI\'s words, once, unbilled', async () => {
    xai.setScenario({ kind: 'moderation_blocked' })
    const res = await generate({ model: 'img-grok', prompt: 'a fox' })
    expect(res).toMatchObject({ status: 400, body: { error: { message: 'Content violates usage guidelines.', type: 'invalid_request_error', code: 'content_policy_violation' } } })
    expect(posts(xai)).toBe(1)
    expect(await lastRow()).toMatchObject({ status: 400, cost_nano: 0 })
  })
})

describe('the delay a rate-limited image vendor asks for reaches Retry-After', () => {
  // Retry-After-Ms is what is left of the soonest delay when the answer goes out (failover.ts): the time the two calls
  // took is already spent.
  it('Gemini: RetryInfo.retryDelay 34.4s on both accounts gives 503 with Retry-After 35 and what is left of 34400 ms', async () => {
    const body = { error: { code: 429, message: 'Resource has been exhausted (e.g. check quota).', status: 'RESOURCE_EXHAUSTED', details: [{ '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: '34.4s' }] } }
    gemini.setScenario({ kind: 'status', status: 429, body })
    geminiB.setScenario({ kind: 'status', status: 429, body })
    const res = await generate({ model: 'img-gemini', prompt: 'a fox' })
    expect(res.status).toBe(503)
    expect(res.body.error.code).toBe('upstream_unavailable')
    expect(res.headers.get('retry-after')).toBe('35')
    expect(Number(res.headers.get('retry-after-ms'))).toBeGreaterThan(33_000)
    expect(Number(res.headers.get('retry-after-ms'))).toBeLessThanOrEqual(34_400)
  })

  it('OpenAI images: a 429 with Retry-After: 40 gives the client Retry-After 40', async () => {
    openai.setScenario({ kind: 'status', status: 429, headers: { 'retry-after': '40' } } as never)
    const res = await generate({ model: 'img-gpt', prompt: 'a fox' })
    expect(res.status).toBe(503)
    expect(res.headers.get('retry-after')).toBe('40')
    expect(Number(res.headers.get('retry-after-ms'))).toBeGreaterThan(39_000)
    expect(Number(res.headers.get('retry-after-ms'))).toBeLessThanOrEqual(40_000)
  })
})
