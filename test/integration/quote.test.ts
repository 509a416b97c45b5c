// POST /v1/quote: every price kind equals what the real call then bills (the ledger), invalid requests answer exactly
// as the real endpoint does, and a quote touches no upstream, no money and no concurrency slot.
import { describe, expect, it } from 'vitest'
import { responsesPromptText } from '../../electron/gateway/routes/responses.js'
import { DEFAULT_VIDEO_POLL } from '../../electron/gateway/tasks/video-runtime.js'
import { pollVideoTask } from '../../electron/gateway/tasks/video-poller.js'
import { countTextTokens, promptText } from '../../electron/gateway/tokens/tokens.js'
import { startFakeAnthropic } from '../fakes/anthropic.js'
import { startFakeGeminiImage } from '../fakes/images/gemini-image.js'
import { startFakeOpenAI } from '../fakes/openai.js'
import { startFakeArk } from '../fakes/video/ark.js'
import { fetchConforming } from '../helpers/openapi-conformance.js'
import { TEST_KEY, withGateway } from '../helpers/gateway.js'
import { until } from '../helpers/until.js'

const SEEDANCE = 'doubao-seedance-2-0-260128' // catalog: 0.1399 USD/s at 720p, 0.063 at 480p; 4–15 s
const WAN = 'wan2.7-t2v' // catalog: 0.1 USD/s at 720p, 0.15 at 1080p
const MESSAGES_KEY = 'sk-quote-messages-0123456789'
const EMPTY_KEY = 'sk-quote-no-quota-0123456789'
const ONE_SLOT_KEY = 'sk-quote-one-slot-0123456789'
const VIDEO_POLL = { enabled: false, timeoutMs: 300 }

interface Quote { object: string; currency: string; min: number; expected: number; max: number; basis: Record<string, any> }
interface Usage { balance: number; reserved: number; key: { used: number } }

const { gw, fakes: { openai, anthropic, gemini, ark } } = withGateway({
  fakes: {
    openai: () => startFakeOpenAI({ apiKey: 'oa' }),
    anthropic: () => startFakeAnthropic({ apiKey: 'an' }),
    gemini: () => startFakeGeminiImage({ apiKey: 'gm' }),
    ark: startFakeArk,
  },
  config: ({ openai, anthropic, gemini, ark }) => ({
    account: { balance: 100, concurrency: 10 },
    models: [
      { id: 'test-gpt', family: 'gpt', vendor: 'openai', pricing: { unit: 'token', input: 2, output: 8 }, limits: { maxOutputTokens: 4096 } },
      { id: 'test-claude', family: 'claude', vendor: 'anthropic', pricing: { unit: 'token', input: 3, output: 15 }, limits: { maxOutputTokens: 8000 } },
      { id: 'test-tts', family: 'tts', vendor: 'openai', pricing: { unit: 'character', price: 15 }, maxInputChars: 100 },
      { id: 'img-gpt', family: 'gpt-image', vendor: 'openai', pricing: { unit: 'image', price: 0.04 }, variant: '2.5', sizeTiers: [], maxN: 10, maxReferenceImages: 16 },
      { id: 'img-gemini', family: 'gemini-image', vendor: 'gemini', pricing: { unit: 'image', price: 0.05, byTier: { '1K': 0.05, '2K': 0.1, '4K': 0.2 } }, imageSizes: ['1K', '2K', '4K'], maxNByTier: { '1K': 10, '2K': 5, '4K': 2 }, maxReferenceImages: 14, aspectRatios: ['1:1', '16:9'] },
    ] as never,
    upstreams: [
      { id: 'oa', vendor: 'openai', baseUrl: openai.url, apiKey: 'oa' },
      { id: 'an', vendor: 'anthropic', baseUrl: anthropic.url, apiKey: 'an' },
      { id: 'gm', vendor: 'gemini', baseUrl: gemini.url, apiKey: 'gm' },
      { id: 'ark', vendor: 'ark', baseUrl: `${ark.url}/api/v3`, apiKey: 'ark-test-key' },
      // Never called: a quote reaches no upstream, and no test here sends a native video for real.
      { id: 'ds', vendor: 'dashscope', baseUrl: 'http://127.0.0.1:9/api/v1', apiKey: 'ds' },
    ],
    groups: [
      { id: 'main', protocol: 'chat', models: ['test-gpt', 'test-tts', 'img-gpt', 'img-gemini', SEEDANCE, WAN, 'gpt-image-2', 'gpt-image-2.5-flare', 'gpt-6.1-sol'], upstreams: ['oa', 'gm', 'ark', 'ds'] },
      { id: 'claude', protocol: 'messages', models: ['test-claude'], upstreams: ['an'] },
    ],
    keys: [
      { key: TEST_KEY, group: 'main' },
      { key: MESSAGES_KEY, group: 'claude' },
      { key: EMPTY_KEY, group: 'main', quota: 0 },
      { key: ONE_SLOT_KEY, group: 'main', concurrency: 1 },
    ],
  }),
  options: { videoPoll: VIDEO_POLL },
  resetFakes: true,
})

const as = (key: string) => ({ authorization: `Bearer ${key}` })
const upstreamCalls = () => openai.calls.length + anthropic.calls.length + gemini.calls.length + ark.calls.length

async function quoted(endpoint: string, request: unknown, headers: Record<string, string> = {}): Promise<Quote> {
  const res = await gw.post('/v1/quote', { endpoint, request }, headers)
  const body = await res.json()
  expect(res.status, JSON.stringify(body)).toBe(200)
  return body as Quote
}

/** The ledger's cost of the last request, in USD. */
const lastCost = async () => (await gw.services.store.ledger.recent(null, 1))[0].cost_nano / 1e9
const usd = (nano: number) => nano / 1e9

describe('token prices', () => {
  const messages = [{ role: 'system', content: 'Be brief.' }, { role: 'user', content: 'What is the tallest mountain on Earth?' }]

  it('chat with max_tokens: min = the counted prompt at the input price, max adds max_tokens at the output price, expected a typical answer within the cap; the real call bills within, exactly at either end', async () => {
    const body = { model: 'test-gpt', messages, max_tokens: 50 }
    const quote = await quoted('/v1/chat/completions', body)
    const tokens = await countTextTokens(promptText(messages))
    // A typical answer (1000 tokens, the family's typicalOutputTokens) is more than the cap: expected is the cap.
    expect(quote).toEqual({
      object: 'quote', currency: 'USD', min: usd(tokens * 2 * 1000), expected: usd(tokens * 2 * 1000 + 50 * 8 * 1000), max: usd(tokens * 2 * 1000 + 50 * 8 * 1000),
      basis: { model: 'test-gpt', unit: 'token', price: { input: 2, output: 8 }, input_tokens: tokens, expected_output_tokens: 50, max_output_tokens: 50, output_cap: 'max_tokens' },
    })
    expect(upstreamCalls()).toBe(0)
    // The vendor reporting the gateway's own count and no output bills min; the full cap bills max.
    openai.once({ kind: 'ok', usage: { prompt_tokens: tokens, completion_tokens: 0 } }, { kind: 'ok', usage: { prompt_tokens: tokens, completion_tokens: 50 } })
    expect((await gw.post('/v1/chat/completions', body)).status).toBe(200)
    expect((await lastCost())).toBe(quote.min)
    expect((await gw.post('/v1/chat/completions', body)).status).toBe(200)
    expect((await lastCost())).toBe(quote.max)
  })

  it('chat without a cap prices the model\'s output limit; max_completion_tokens wins over max_tokens', async () => {
    const tokens = await countTextTokens(promptText(messages))
    const open = await quoted('/v1/chat/completions', { model: 'test-gpt', messages })
    expect(open.basis).toMatchObject({ max_output_tokens: 4096, output_cap: 'model_limit' })
    expect(open.max).toBe(usd(tokens * 2 * 1000 + 4096 * 8 * 1000))
    const both = await quoted('/v1/chat/completions', { model: 'test-gpt', messages, max_tokens: 10, max_completion_tokens: 20 })
    expect(both.basis).toMatchObject({ max_output_tokens: 20, output_cap: 'max_completion_tokens' })
    // A cap above the model's limit is billed at the limit at most.
    const above = await quoted('/v1/chat/completions', { model: 'test-gpt', messages, max_tokens: 100_000 })
    expect(above.basis).toMatchObject({ max_output_tokens: 4096, output_cap: 'max_tokens' })
    openai.once({ kind: 'ok', usage: { prompt_tokens: tokens, completion_tokens: 4096 } })
    expect((await gw.post('/v1/chat/completions', { model: 'test-gpt', messages })).status).toBe(200)
    expect((await lastCost())).toBe(open.max)
  })

  it('a short message to a 128k-output model: expected is a typical answer (cents), not the output cap (dollars)', async () => {
    const body = { model: 'gpt-6.1-sol', messages: [{ role: 'user', content: 'Hi!' }] }
    const quote = await quoted('/v1/chat/completions', body)
    const tokens = await countTextTokens(promptText(body.messages))
    // gpt-6.1-sol: $2 in, $10 out per 1M; 128000 output tokens at most; a typical answer 1000 tokens.
    expect(quote).toMatchObject({ min: usd(tokens * 2000), expected: usd(tokens * 2000 + 1000 * 10_000), max: usd(tokens * 2000 + 128_000 * 10_000) })
    expect(quote.basis).toMatchObject({ input_tokens: tokens, expected_output_tokens: 1000, max_output_tokens: 128_000, output_cap: 'model_limit' })
    expect(quote.expected).toBeLessThan(0.02)
    expect(quote.max).toBeGreaterThan(1.28)
  })

  it('responses: the input and instructions counted, max_output_tokens or the model limit; the real call bills within', async () => {
    const body = { model: 'test-gpt', instructions: 'Answer in one word.', input: 'Name a colour of the sky.', max_output_tokens: 16 }
    const tokens = await countTextTokens(responsesPromptText(body))
    const quote = await quoted('/v1/responses', body)
    expect(quote).toMatchObject({ min: usd(tokens * 2000), max: usd(tokens * 2000 + 16 * 8000), basis: { input_tokens: tokens, max_output_tokens: 16, output_cap: 'max_output_tokens' } })
    expect((await quoted('/v1/responses', { model: 'test-gpt', input: 'hi' })).basis).toMatchObject({ max_output_tokens: 4096, output_cap: 'model_limit' })
    expect((await gw.post('/v1/responses', body)).status).toBe(200)
    // The fake counts ~4 characters a token and answers 5 words: within the quote.
    expect((await lastCost())).toBeGreaterThan(0)
    expect((await lastCost())).toBeLessThanOrEqual(quote.max)
  })

  it('messages: system and messages counted, max_tokens at the output price; min and max are what the call bills at either end', async () => {
    const body = { model: 'test-claude', system: 'Be brief.', max_tokens: 30, messages: [{ role: 'user', content: 'Hello there' }] }
    const quote = await quoted('/v1/messages', body, as(MESSAGES_KEY))
    const tokens = quote.basis.input_tokens as number
    expect(tokens).toBe(await countTextTokens('Be brief.\nuser\nHello there'))
    expect(quote).toMatchObject({ min: usd(tokens * 3000), max: usd(tokens * 3000 + 30 * 15000), basis: { model: 'test-claude', max_output_tokens: 30, output_cap: 'max_tokens' } })
    anthropic.once({ kind: 'ok', usage: { input_tokens: tokens, output_tokens: 0 } }, { kind: 'ok', usage: { input_tokens: tokens, output_tokens: 30 } })
    expect((await gw.post('/v1/messages', body, as(MESSAGES_KEY))).status).toBe(200)
    expect((await lastCost())).toBe(quote.min)
    expect((await gw.post('/v1/messages', body, as(MESSAGES_KEY))).status).toBe(200)
    expect((await lastCost())).toBe(quote.max)
  })
})

describe('per-unit prices: min = max = the bill', () => {
  it('images: n at the size\'s tier (2K), exactly what the call bills', async () => {
    const body = { model: 'img-gemini', prompt: 'a lighthouse', n: 2, size: '2048x2048' }
    const quote = await quoted('/v1/images/generations', body)
    expect(quote).toEqual({
      object: 'quote', currency: 'USD', min: 0.2, expected: 0.2, max: 0.2,
      basis: { model: 'img-gemini', unit: 'image', price: { per_image: 0.05, by_tier: { '1K': 0.05, '2K': 0.1, '4K': 0.2 } }, images: 2, tier: '2K' },
    })
    expect((await quoted('/v1/images/generations', { ...body, n: 3, size: '1024x1024' })).max).toBe(0.15)
    expect(upstreamCalls()).toBe(0)
    expect((await gw.post('/v1/images/generations', body)).status).toBe(200)
    expect((await lastCost())).toBe(quote.max)
  })

  it('a token-priced GPT image: priced by size and quality from the output-token table, not the model\'s token ceiling; n times', async () => {
    const prompt = 'a lighthouse at dusk'
    const tokens = await countTextTokens(prompt)
    const input = tokens * 5 * 1000 // gpt-image-2: $5 in, $30 out per 1M tokens
    // quality high at 1024x1024: 4160 output tokens (OpenAI's table), nothing else possible
    const high = await quoted('/v1/images/generations', { model: 'gpt-image-2', prompt, size: '1024x1024', quality: 'high' })
    expect(high).toMatchObject({ min: usd(input + 4160 * 30_000), expected: usd(input + 4160 * 30_000), max: usd(input + 4160 * 30_000) })
    expect(high.basis).toMatchObject({ input_tokens: tokens, images: 1, quality: 'high', expected_output_tokens: 4160, max_output_tokens: 4160, output_cap: 'image_tokens' })
    expect(high.max).toBeLessThan(0.13)
    // no quality: low..high, expected at high; 1536x1024 has 1.5 times the pixels
    const open = await quoted('/v1/images/generations', { model: 'gpt-image-2', prompt, size: '1536x1024' })
    expect(open).toMatchObject({ min: usd(input + 408 * 30_000), expected: usd(input + 6240 * 30_000), max: usd(input + 6240 * 30_000), basis: { quality: 'low..high', expected_quality: 'high' } })
    // n = 8 is eight images; size auto ranges from 1024x1024 to 1536x1024
    const eight = await quoted('/v1/images/generations', { model: 'gpt-image-2', prompt, n: 8, quality: 'medium' })
    expect(eight).toMatchObject({ min: usd(input + 8 * 1056 * 30_000), expected: usd(input + 8 * 1056 * 30_000), max: usd(input + 8 * 1584 * 30_000), basis: { images: 8 } })
    // the 2.5 variant's xhigh and max tiers (estimates, catalog imageOutputTokens)
    const flare = await quoted('/v1/images/generations', { model: 'gpt-image-2.5-flare', prompt, size: '1024x1024' })
    expect(flare).toMatchObject({ min: usd(input + 272 * 30_000), expected: usd(input + 4160 * 30_000), max: usd(input + 66_560 * 30_000), basis: { quality: 'low..max' } })
    expect(upstreamCalls()).toBe(0)
  })

  it('a token-priced GPT image edit adds each reference image\'s input tokens at the image input price', async () => {
    const prompt = 'make the sky purple'
    const tokens = await countTextTokens(prompt)
    const refs = ['https://example.com/a.png', 'https://example.com/b.png']
    const quote = await quoted('/v1/images/edits', { model: 'gpt-image-2', prompt, image: refs, size: '1024x1024', quality: 'low' })
    // gpt-image-2: text $5, image input $8, output $30 per 1M; 3050 input tokens per reference (high input fidelity)
    const input = tokens * 5 * 1000 + 2 * 3050 * 8 * 1000
    expect(quote).toMatchObject({ min: usd(input + 272 * 30_000), expected: usd(input + 272 * 30_000), max: usd(input + 272 * 30_000) })
    expect(quote.basis).toMatchObject({ input_tokens: tokens + 6100, image_input_tokens: 6100 })
    expect(upstreamCalls()).toBe(0)
  })

  it('an image model\'s n above its limit is the family\'s 400, in the quote as in the call', async () => {
    const res = await gw.post('/v1/quote', { endpoint: '/v1/images/generations', request: { model: 'gpt-image-2', prompt: 'x', n: 1_000_000 } })
    const real = await gw.post('/v1/images/generations', { model: 'gpt-image-2', prompt: 'x', n: 1_000_000 })
    expect(res.status).toBe(400)
    expect(await res.json()).toEqual(await real.json())
    expect(upstreamCalls()).toBe(0)
  })

  it('images edits in their JSON form are priced like the call', async () => {
    const quote = await quoted('/v1/images/edits', { model: 'img-gpt', prompt: 'make it blue', n: 3, image: 'https://example.com/a.png' })
    expect(quote).toMatchObject({ min: 0.12, max: 0.12, basis: { images: 3 } })
    expect(upstreamCalls()).toBe(0)
  })

  it('video: the duration at the resolution\'s rate, what the finished task settles at; without a duration, the shortest to the longest clip', async () => {
    const body = { model: SEEDANCE, prompt: 'a fox in the snow', duration: 5, resolution: '720p' }
    const quote = await quoted('/v1/video/generate', body)
    expect(quote).toMatchObject({ min: 0.6995, max: 0.6995, basis: { unit: 'second', seconds: { min: 5, max: 5 }, resolution: '720p', reserved: 0.6995 } })
    const open = await quoted('/v1/video/generate', { model: SEEDANCE, prompt: 'a fox' })
    // no tier asked: the catalog price is billed, the dearest tier reserved
    expect(open).toMatchObject({ min: 0.5596, max: 2.0985, basis: { seconds: { min: 4, max: 15 }, reserved: 4.7235 } })
    expect(ark.calls).toHaveLength(0)
    const res = await gw.post('/v1/video/generate', body)
    expect(res.status, await res.clone().text()).toBe(202)
    const { task_id: id } = (await res.json()) as { task_id: string }
    const options = { ...DEFAULT_VIDEO_POLL, ...VIDEO_POLL }
    for (let i = 0; i < 5 && (await pollVideoTask(gw.services, id, options)) !== 'settled'; i++);
    expect((await gw.services.store.ledger.get(id))).toMatchObject({ status: 200, cost_nano: Math.round(quote.max * 1e9) })
  })

  it('the native video path is quoted through its own path string', async () => {
    const quote = await quoted('/api/v1/services/aigc/video-generation/video-synthesis', { model: WAN, input: { prompt: 'waves' }, parameters: { resolution: '1080P', duration: 10 } })
    expect(quote).toMatchObject({ min: 1.5, max: 1.5, basis: { model: WAN, seconds: { min: 10, max: 10 }, resolution: '1080p' } })
  })

  it('speech: the input\'s characters at the price per 1M characters, exactly the bill', async () => {
    const body = { model: 'test-tts', input: 'Héllo wörld', voice: 'alloy' }
    const quote = await quoted('/v1/audio/speech', body)
    expect(quote).toEqual({ object: 'quote', currency: 'USD', min: usd(11 * 15 * 1000), expected: usd(11 * 15 * 1000), max: usd(11 * 15 * 1000), basis: { model: 'test-tts', unit: 'character', price: { per_million_characters: 15 }, characters: 11 } })
    const res = await gw.post('/v1/audio/speech', body)
    expect(res.status).toBe(200)
    await res.arrayBuffer()
    expect((await lastCost())).toBe(quote.max)
  })
})

describe('a quote refuses exactly what the real call refuses', () => {
  // What a client reads in either error shape (the real /v1/messages answers in the messages shape, the quote in chat's).
  const errorOf = async (res: Response) => {
    const { error } = (await res.json()) as { error: { type: string; message: string } }
    return { status: res.status, type: error.type, message: error.message }
  }

  it.each([
    ['an invalid size', '/v1/images/generations', { model: 'img-gpt', prompt: 'x', size: '3856x1024' }, {}],
    ['a schema error', '/v1/chat/completions', { model: 'test-gpt' }, {}],
    ['a model outside the key\'s group', '/v1/chat/completions', { model: 'test-claude', messages: [{ role: 'user', content: 'hi' }] }, {}],
    ['a deprecated id', '/v1/chat/completions', { model: 'gpt-5', messages: [{ role: 'user', content: 'hi' }] }, {}],
    ['a model on an endpoint it lacks', '/v1/audio/speech', { model: 'test-gpt', input: 'hi', voice: 'alloy' }, {}],
    ['a path outside the key\'s group protocol', '/v1/messages', { model: 'test-claude', max_tokens: 5, messages: [{ role: 'user', content: 'hi' }] }, {}],
    ['a video duration the model lacks', '/v1/video/generate', { model: SEEDANCE, prompt: 'x', duration: 60 }, {}],
    ['a speech input over the model\'s limit', '/v1/audio/speech', { model: 'test-tts', input: 'x'.repeat(101), voice: 'alloy' }, {}],
    ['a missing key', '/v1/chat/completions', { model: 'test-gpt', messages: [{ role: 'user', content: 'hi' }] }, { authorization: '' }],
    ['Chinese messages', '/v1/images/generations', { model: 'img-gpt', prompt: 'x', size: '3856x1024' }, { 'accept-language': 'zh-CN' }],
  ])('%s', async (_name, path, request, headers: Record<string, string>) => {
    const realRes = await gw.post(path, request, headers)
    const quoteRes = await gw.post('/v1/quote', { endpoint: path, request }, headers)
    const real = await errorOf(realRes.clone())
    expect(real.status).toBeGreaterThanOrEqual(400)
    expect(await errorOf(quoteRes.clone())).toEqual(real)
    // Chat-shaped answers carry the code and param too: the same.
    if (path !== '/v1/messages') expect(await quoteRes.json()).toEqual(await realRes.json())
    expect(upstreamCalls()).toBe(0)
  })

  it('a path that is not billable, or a body without its request, is 400', async () => {
    const res = await gw.post('/v1/quote', { endpoint: '/v1/models', request: {} })
    expect(res.status).toBe(400)
    expect(((await res.json()) as { error: { param: string } }).error.param).toBe('endpoint')
    const missing = await gw.post('/v1/quote', { endpoint: '/v1/chat/completions' })
    expect(((await missing.json()) as { error: { message: string } }).error.message).toBe('missing request field')
  })
})

describe('a quote costs nothing and holds nothing', () => {
  const usage = async (key = TEST_KEY) => (await (await gw.get('/v1/usage', as(key))).json()) as Usage
  const billedTotal = async () => (await gw.services.store.sql.get<{ total: number }>('SELECT COALESCE(SUM(cost_nano), 0) AS total FROM requests'))!.total

  it('many quotes leave the balance, the reservations, the key\'s spend and the ledger\'s billed total unchanged, and reach no upstream', async () => {
    const before = { usage: await usage(), total: (await billedTotal()), tasks: await gw.services.store.sql.get('SELECT COUNT(*) AS n FROM tasks') }
    const bodies: Array<[string, unknown]> = [
      ['/v1/chat/completions', { model: 'test-gpt', messages: [{ role: 'user', content: 'hi' }] }],
      ['/v1/images/generations', { model: 'img-gemini', prompt: 'x', n: 2 }],
      ['/v1/video/generate', { model: SEEDANCE, prompt: 'x', duration: 4 }],
      ['/v1/audio/speech', { model: 'test-tts', input: 'hi', voice: 'alloy' }],
    ]
    for (let i = 0; i < 10; i++) for (const [path, body] of bodies) await quoted(path, body)
    expect(upstreamCalls()).toBe(0)
    expect(await usage()).toEqual(before.usage)
    expect((await billedTotal())).toBe(before.total)
    expect(await gw.services.store.sql.get('SELECT COUNT(*) AS n FROM tasks')).toEqual(before.tasks)
    // Each quote is logged, at cost 0, under its own endpoint and the model it priced.
    const rows = (await gw.services.store.ledger.recent(null, 50)).filter((r) => r.endpoint === 'quote').slice(0, 40)
    expect(rows).toHaveLength(40)
    expect(rows.every((r) => r.cost_nano === 0 && r.status === 200)).toBe(true)
    expect(rows[0].model).toBe('test-tts')
  })

  it('a key without quota left still gets a price (funds are not checked), while the real call is refused with 402', async () => {
    const body = { model: 'test-gpt', messages: [{ role: 'user', content: 'hi' }], max_tokens: 5 }
    expect((await gw.post('/v1/chat/completions', body, as(EMPTY_KEY))).status).toBe(402)
    expect((await quoted('/v1/chat/completions', body, as(EMPTY_KEY))).max).toBeGreaterThan(0)
    expect((await quoted('/v1/video/generate', { model: SEEDANCE, prompt: 'x', duration: 4 }, as(EMPTY_KEY))).max).toBe(0.5596)
  })

  it('a quote takes no concurrency slot: it answers while the key\'s only slot is held', async () => {
    // Slow enough that the slot is still held while the two requests below are answered, even on a busy machine.
    openai.setScenario({ kind: 'slow', delayMs: 2_000 })
    const body = { model: 'test-gpt', messages: [{ role: 'user', content: 'hi' }] }
    const held = gw.post('/v1/chat/completions', body, as(ONE_SLOT_KEY))
    await until('the held request at the vendor', 5_000, () => openai.calls.length > 0)
    expect(openai.calls).toHaveLength(1)
    const refused = await gw.post('/v1/chat/completions', body, as(ONE_SLOT_KEY))
    expect(((await refused.json()) as { error: { code: string } }).error.code).toBe('apikey_concurrency_limit')
    expect((await quoted('/v1/chat/completions', body, as(ONE_SLOT_KEY))).object).toBe('quote')
    expect((await held).status).toBe(200)
    expect(openai.calls).toHaveLength(1)
  })

  it('is described in /openapi.json', async () => {
    const doc = (await (await fetchConforming(`${gw.url}/openapi.json`)).json()) as { paths: Record<string, { post?: { operationId: string; responses: Record<string, unknown> } }> }
    expect(doc.paths['/v1/quote'].post).toMatchObject({ operationId: 'quote' })
    expect(Object.keys(doc.paths['/v1/quote'].post!.responses)).not.toContain('402')
  })
})
