// Real recorded answers of OpenAI's images API (test/fixtures/recorded/openai/, INDEX.md there) replayed through
// the gateway's GPT image adapter and read by the official `openai` SDK. The AI SDK's recordings carry no usage, so
// the model row's per-image price is their bill (their base64 was shortened by the project that published them, a
// PNG's head); RubyLLM's carry gpt-image usage and whole images, and are billed by their tokens at the catalog
// row's prices of the model that answered them.
import OpenAI, { toFile } from 'openai'
import { describe, expect, it } from 'vitest'
import { loadBuiltinModels } from '../../electron/gateway/catalog/catalog.js'
import type { Pricing } from '../../shared/types.js'
import { makePng } from '../fakes/images/image-bytes.js'
import { recordedBytes, startReplayUpstream } from '../fakes/replay.js'
import { TEST_KEY, withGateway } from '../helpers/gateway.js'
import { IMG_GPT } from '../helpers/image-models.js'
import { nextLedgerRow } from '../helpers/recorded.js'

const PRICE = IMG_GPT.pricing.price

type TokenPricing = Extract<Pricing, { unit: 'token' }>
/** A built-in catalog row's token prices: the recorded models are retired or deprecated, so the gateway serves them here under a test id. */
function catalogPricing(id: string): TokenPricing {
  const pricing = loadBuiltinModels().find((m) => m.id === id)?.pricing
  if (pricing?.unit !== 'token') throw new Error(`the catalog has no token prices for ${id}`)
  return pricing
}
const GPT_IMAGE_1 = { id: 'recorded-gpt-image-1', family: 'gpt-image', vendor: 'openai', upstreamModel: 'gpt-image-1', pricing: catalogPricing('gpt-image-1') } as const
const GPT_IMAGE_1_5 = { id: 'recorded-gpt-image-1.5', family: 'gpt-image', vendor: 'openai', upstreamModel: 'gpt-image-1.5', pricing: catalogPricing('gpt-image-1.5') } as const

const { gw, fakes } = withGateway({
  fakes: { replay: startReplayUpstream },
  resetFakes: true,
  config: ({ replay }) => ({
    account: { balance: 100, concurrency: 5 },
    models: [IMG_GPT, GPT_IMAGE_1, GPT_IMAGE_1_5] as never,
    upstreams: [{ id: 'recorded', vendor: 'openai', baseUrl: `${replay.url}/v1`, apiKey: 'recorded-openai-secret' }],
    groups: [{ id: 'images', protocol: 'chat', models: [IMG_GPT.id, GPT_IMAGE_1.id, GPT_IMAGE_1_5.id, 'gpt-image-2'], upstreams: ['recorded'] }],
    keys: [{ key: TEST_KEY, group: 'images' }],
  }),
})
const client = () => new OpenAI({ baseURL: `${gw.url}/v1`, apiKey: TEST_KEY, maxRetries: 0 })

interface ImagesUsage {
  input_tokens: number
  input_tokens_details: { image_tokens: number; text_tokens: number; cached_tokens?: number }
  output_tokens: number
  output_tokens_details?: { image_tokens: number; text_tokens: number }
  total_tokens: number
}
interface RecordedImages { data: Array<{ b64_json: string; revised_prompt?: string }>; output_format?: string; quality?: string; size?: string; usage?: ImagesUsage }
const recorded = (file: string) => JSON.parse(recordedBytes(file).toString('utf8')) as RecordedImages

/**
 * What a recorded gpt-image usage costs at a row's token prices, in nano-USD (1000 per token per USD per 1M), by
 * docs/vendor-usage.md: text input, image input (reference images) and cache reads each at their own rate, every
 * output token at the output rate; rounded once.
 */
function imagesCostNano(pricing: TokenPricing, usage: ImagesUsage): number {
  const cached = usage.input_tokens_details.cached_tokens ?? 0
  const image = usage.input_tokens_details.image_tokens
  const text = usage.input_tokens - cached - image
  return Math.round(1000 * (text * pricing.input + image * pricing.imageInput! + cached * pricing.cachedInput! + usage.output_tokens * pricing.output))
}

describe('recorded OpenAI images', () => {
  it('a generation of two images: each b64_json as recorded, the revised prompt kept; billed two images', async () => {
    const file = 'openai/openai-image.json'
    fakes.replay.serve({ file })
    const row = await nextLedgerRow(gw)
    const result = await client().images.generate({ model: IMG_GPT.id, prompt: 'A cute baby sea otter', n: 2, size: '1024x1024' })
    const answer = recorded(file)
    expect(result.data!.map((d) => d.b64_json)).toEqual(answer.data.map((d) => d.b64_json))
    expect(result.data![0]!.revised_prompt).toBe(answer.data[0]!.revised_prompt)
    expect(result.data![1]!.revised_prompt).toBeUndefined()
    expect(result.data!.map((d) => (d as { mime_type?: string }).mime_type)).toEqual(['image/png', 'image/png'])

    expect(fakes.replay.calls).toHaveLength(1)
    expect(fakes.replay.calls[0]).toMatchObject({ method: 'POST', path: '/v1/images/generations' })
    expect(fakes.replay.calls[0]!.headers.authorization).toBe('Bearer recorded-openai-secret')
    expect(JSON.parse(fakes.replay.calls[0]!.body)).toMatchObject({ model: IMG_GPT.id, prompt: 'A cute baby sea otter', n: 2, size: '1024x1024' })
    expect(await row()).toMatchObject({ endpoint: 'images.generations', status: 200, cost_nano: Math.round(2 * PRICE * 1e9) })
  })

  it('an edit: the one image as recorded, typed PNG from its bytes and output_format; billed one image', async () => {
    const file = 'openai/openai-image-edit.json'
    fakes.replay.serve({ file })
    const row = await nextLedgerRow(gw)
    const result = await client().images.edit({ model: IMG_GPT.id, prompt: 'Turn the cat into a dog', image: await toFile(makePng(64, 64), 'cat.png', { type: 'image/png' }) })
    expect(result.data!.map((d) => d.b64_json)).toEqual(recorded(file).data.map((d) => d.b64_json))
    expect((result.data![0] as { mime_type?: string }).mime_type).toBe('image/png')
    expect(fakes.replay.calls[0]).toMatchObject({ method: 'POST', path: '/v1/images/edits' })
    expect(fakes.replay.calls[0]!.headers['content-type']).toMatch(/^multipart\/form-data; boundary=/)
    expect(await row()).toMatchObject({ endpoint: 'images.edits', status: 200, cost_nano: Math.round(PRICE * 1e9) })
  })

  it('the vendor\'s 400 refusing response_format reaches the client as a 400 in its words, param and code; not retried, not billed', async () => {
    fakes.replay.serve({ file: 'openai/gpt-image-response-format-error.json', status: 400 })
    const row = await nextLedgerRow(gw)
    const error = await client().images.generate({ model: IMG_GPT.id, prompt: 'A cute baby sea otter', response_format: 'b64_json' }).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(OpenAI.BadRequestError)
    const bad = error as InstanceType<typeof OpenAI.BadRequestError>
    expect(bad.status).toBe(400)
    expect(bad.message).toMatch(/Unknown parameter: 'response_format'\./)
    expect(bad.param).toBe('response_format')
    expect(bad.code).toBe('unknown_parameter')
    expect(fakes.replay.calls).toHaveLength(1)
    expect(await row()).toMatchObject({ status: 400, cost_nano: 0 })
  })

  it('a gpt-image-1 generation with its usage (RubyLLM cassette): the whole PNG as recorded; billed its tokens at gpt-image-1\'s prices', async () => {
    const file = 'openai/ruby-llm-gpt-image-1-generation.json'
    fakes.replay.serve({ file })
    const row = await nextLedgerRow(gw)
    const result = await client().images.generate({ model: GPT_IMAGE_1.id, prompt: 'a siamese cat', n: 1, size: '1024x1024' })
    const answer = recorded(file)
    expect(result.data!.map((d) => d.b64_json)).toEqual(answer.data.map((d) => d.b64_json))
    // A whole 1024×1024 PNG: its signature and its IHDR's width and height.
    const png = Buffer.from(result.data![0]!.b64_json!, 'base64')
    expect(png.subarray(0, 8).toString('hex')).toBe('89504e470d0a1a0a')
    expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([1024, 1024])
    expect((result.data![0] as { mime_type?: string }).mime_type).toBe('image/png')

    expect(fakes.replay.calls).toHaveLength(1)
    expect(fakes.replay.calls[0]).toMatchObject({ method: 'POST', path: '/v1/images/generations' })
    expect(JSON.parse(fakes.replay.calls[0]!.body)).toMatchObject({ model: 'gpt-image-1', prompt: 'a siamese cat', n: 1, size: '1024x1024' })

    const usage = answer.usage!
    expect(usage).toMatchObject({ input_tokens: 10, input_tokens_details: { image_tokens: 0, text_tokens: 10 }, output_tokens: 4160, total_tokens: 4170 })
    const cost = imagesCostNano(GPT_IMAGE_1.pricing, usage)
    // 10 text tokens at $5 and 4,160 image tokens at $40 per 1M
    expect(cost).toBe(166_450_000)
    expect(result.usage).toMatchObject({ input_tokens: usage.input_tokens, output_tokens: usage.output_tokens, total_tokens: usage.total_tokens })
    expect(await row()).toMatchObject({ endpoint: 'images.generations', status: 200, input_tokens: 10, output_tokens: 4160, usage_source: 'upstream', cost_nano: cost })
  })

  it('a gpt-image-1.5 edit of two images (RubyLLM cassette): the reference images\' tokens at the image input rate, the output\'s text tokens among the output', async () => {
    const file = 'openai/ruby-llm-gpt-image-1.5-edit-two-images.json'
    fakes.replay.serve({ file })
    const row = await nextLedgerRow(gw)
    const logo = await toFile(makePng(64, 64), 'logo.png', { type: 'image/png' })
    const again = await toFile(makePng(64, 64), 'logo-2.png', { type: 'image/png' })
    const result = await client().images.edit({ model: GPT_IMAGE_1_5.id, prompt: 'turn the logo to green', image: [logo, again] })
    const answer = recorded(file)
    expect(result.data!.map((d) => d.b64_json)).toEqual(answer.data.map((d) => d.b64_json))
    expect((result.data![0] as { mime_type?: string }).mime_type).toBe('image/png')
    expect(fakes.replay.calls[0]).toMatchObject({ method: 'POST', path: '/v1/images/edits' })
    expect(fakes.replay.calls[0]!.headers['content-type']).toMatch(/^multipart\/form-data; boundary=/)
    expect(fakes.replay.calls[0]!.body).toContain('gpt-image-1.5')

    const usage = answer.usage!
    // The recording splits the output too: 1,056 image tokens and 308 text tokens, all inside output_tokens.
    expect(usage).toMatchObject({ input_tokens: 431, input_tokens_details: { image_tokens: 388, text_tokens: 43 }, output_tokens: 1364, output_tokens_details: { image_tokens: 1056, text_tokens: 308 } })
    expect(usage.output_tokens_details!.image_tokens + usage.output_tokens_details!.text_tokens).toBe(usage.output_tokens)
    const cost = imagesCostNano(GPT_IMAGE_1_5.pricing, usage)
    // 43 text tokens at $5, 388 image tokens at $8, 1,364 output tokens at $32 per 1M
    expect(cost).toBe(46_967_000)
    expect(result.usage).toMatchObject({ input_tokens: usage.input_tokens, output_tokens: usage.output_tokens, total_tokens: usage.total_tokens })
    const ledger = await row()
    expect(ledger).toMatchObject({ endpoint: 'images.edits', status: 200, input_tokens: 431, output_tokens: 1364, usage_source: 'upstream', cost_nano: cost })
    expect(JSON.parse(ledger.breakdown!)).toEqual(expect.arrayContaining([
      expect.objectContaining({ kind: 'input', units: 43, unitPrice: 5 }),
      expect.objectContaining({ kind: 'image_input', units: 388, unitPrice: 8 }),
      expect.objectContaining({ kind: 'output', units: 1364, unitPrice: 32 }),
    ]))
  })

  it('a gpt-image-2 edit at a 16px-multiple size (RubyLLM cassette): the built-in row\'s prices bill its text, image input and output tokens', async () => {
    const file = 'openai/ruby-llm-gpt-image-2-edit.json'
    fakes.replay.serve({ file })
    const row = await nextLedgerRow(gw)
    const logo = await toFile(makePng(64, 64), 'logo.png', { type: 'image/png' })
    const result = await client().images.edit({ model: 'gpt-image-2', prompt: 'turn the logo to green', image: logo, size: '1536x864' as never, quality: 'low' })
    const answer = recorded(file)
    expect(answer).toMatchObject({ size: '1536x864', quality: 'low', output_format: 'png' })
    expect(result.data!.map((d) => d.b64_json)).toEqual(answer.data.map((d) => d.b64_json))
    // A whole 1536×864 PNG, as asked.
    const png = Buffer.from(result.data![0]!.b64_json!, 'base64')
    expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([1536, 864])
    expect(fakes.replay.calls[0]).toMatchObject({ method: 'POST', path: '/v1/images/edits' })
    expect(fakes.replay.calls[0]!.body).toContain('1536x864')

    const usage = answer.usage!
    expect(usage).toMatchObject({ input_tokens: 76, input_tokens_details: { image_tokens: 64, text_tokens: 12 }, output_tokens: 120, total_tokens: 196 })
    const pricing = catalogPricing('gpt-image-2')
    const cost = imagesCostNano(pricing, usage)
    // 12 text tokens at $5, 64 image tokens at $8, 120 output tokens at $30 per 1M
    expect(cost).toBe(4_172_000)
    expect(result.usage).toMatchObject({ input_tokens: usage.input_tokens, output_tokens: usage.output_tokens, total_tokens: usage.total_tokens })
    expect(await row()).toMatchObject({ endpoint: 'images.edits', status: 200, model: 'gpt-image-2', input_tokens: 76, output_tokens: 120, usage_source: 'upstream', cost_nano: cost })
  })
})
