// Each vendor's usage, mapped its own way (docs/vendor-usage.md), from real recorded answers where one exists. The
// recorded usage objects are copied from the Vercel AI SDK's test fixtures (github.com/vercel/ai, path@commit named
// at each), which hold the vendors' own answers.
import { describe, expect, it } from 'vitest'
import type { UpstreamAccount } from '../../../../electron/gateway/contract/accounts.js'
import type { TokenUsage, UpstreamCtx } from '../../../../electron/gateway/contract/upstream.js'
import { priceBreakdown, priceUsage } from '../../../../electron/gateway/money/price-usage.js'
import { fromAnthropicUsage } from '../../../../electron/gateway/upstreams/anthropic.js'
import { fromGeminiUsage } from '../../../../electron/gateway/upstreams/gemini-response.js'
import { fromImagesUsage } from '../../../../electron/gateway/upstreams/images/openai-images.js'
import { adapterFor } from '../../../../electron/gateway/upstreams/index.js'
import { fromOpenAIUsage, outputWithReasoning } from '../../../../electron/gateway/upstreams/openai-compatible.js'
import { fromResponsesUsage } from '../../../../electron/gateway/upstreams/openai-responses.js'
import type { CatalogModel, Pricing, Vendor } from '../../../../shared/types.js'

const ctx = (vendor: Vendor, family: CatalogModel['family']): UpstreamCtx => ({
  upstream: { id: 'u', vendor, baseUrl: 'https://api.example', apiKey: 'k', priority: 0 } as UpstreamAccount,
  model: { id: 'm', family, type: 'chat', vendor, created: 0, pricing: { unit: 'token', input: 1, output: 1 } } as CatalogModel,
})

/** grok-3-mini's list price (docs.x.ai models page): $0.30 in, $0.075 cached, $0.50 out per 1M tokens. */
const GROK_3_MINI: Pricing = { unit: 'token', input: 0.3, output: 0.5, cachedInput: 0.075 }
/** xAI's cost_in_usd_ticks: 1 USD = 10^10 ticks, so 10 ticks are one nano-USD. */
const ticksToNano = (ticks: number) => ticks / 10

describe('xAI chat completions: reasoning is counted apart from completion_tokens and billed as output', () => {
  // vercel/ai packages/xai/src/__fixtures__/xai-tool-call.json@dacf4c49f19dc11401dc218704ec17e02753a387 (grok-3-mini)
  const toolCall = {
    prompt_tokens: 291, completion_tokens: 26, total_tokens: 506,
    prompt_tokens_details: { text_tokens: 291, audio_tokens: 0, image_tokens: 0, cached_tokens: 244 },
    completion_tokens_details: { reasoning_tokens: 189, audio_tokens: 0, accepted_prediction_tokens: 0, rejected_prediction_tokens: 0 },
    num_sources_used: 0, cost_in_usd_ticks: 1399000,
  }

  it('a JSON answer: output = completion + reasoning (26 + 189), priced as the vendor priced it (cost_in_usd_ticks)', () => {
    const usage = fromOpenAIUsage(toolCall)!
    expect(usage).toMatchObject({ inputTokens: 47, cachedInputTokens: 244, outputTokens: 215, reasoningTokens: 189 })
    expect(priceUsage(GROK_3_MINI, usage)).toBe(ticksToNano(toolCall.cost_in_usd_ticks))
    expect(priceBreakdown(GROK_3_MINI, usage)).toEqual([
      { kind: 'input', units: 47, unitPrice: 0.3, per: '1M tokens', cost: 0.0000141 },
      { kind: 'cached_input', units: 244, unitPrice: 0.075, per: '1M tokens', cost: 0.0000183 },
      { kind: 'output', units: 26, unitPrice: 0.5, per: '1M tokens', cost: 0.000013 },
      { kind: 'reasoning', units: 189, unitPrice: 0.5, per: '1M tokens', cost: 0.0000945 },
    ])
  })

  it('a stream: the usage chunk after the finish is read the same way (1 + 290 output tokens)', () => {
    // vercel/ai packages/xai/src/__fixtures__/xai-text.chunks.txt@6b056ab1eadbd2a8c9f268caf6abd5fff45dc7d2, its first and last chunks
    const chunks = [
      '{"id":"7327b9f5-1c2f-0a15-3fef-c14a71c460d3","object":"chat.completion.chunk","created":1770774058,"model":"grok-3-mini","choices":[{"index":0,"delta":{"reasoning_content":"First","role":"assistant"}}],"system_fingerprint":"fp_2a885414fb"}',
      '{"id":"7327b9f5-1c2f-0a15-3fef-c14a71c460d3","object":"chat.completion.chunk","created":1770774061,"model":"grok-3-mini","choices":[{"index":0,"delta":{"content":"Hello"}}],"system_fingerprint":"fp_2a885414fb"}',
      '{"id":"7327b9f5-1c2f-0a15-3fef-c14a71c460d3","object":"chat.completion.chunk","created":1770774061,"model":"grok-3-mini","choices":[{"index":0,"delta":{},"finish_reason":"stop"}],"system_fingerprint":"fp_2a885414fb"}',
      '{"id":"7327b9f5-1c2f-0a15-3fef-c14a71c460d3","object":"chat.completion.chunk","created":1770774061,"model":"grok-3-mini","choices":[],"usage":{"prompt_tokens":12,"completion_tokens":1,"total_tokens":303,"prompt_tokens_details":{"text_tokens":12,"audio_tokens":0,"image_tokens":0,"cached_tokens":11},"completion_tokens_details":{"reasoning_tokens":290,"audio_tokens":0,"accepted_prediction_tokens":0,"rejected_prediction_tokens":0},"num_sources_used":0,"cost_in_usd_ticks":1466250},"system_fingerprint":"fp_2a885414fb"}',
    ]
    const translator = adapterFor('xai')!.chat!.streamTranslator({ includeUsage: false }, ctx('xai', 'gpt'))
    for (const data of chunks) translator.push({ data })
    translator.push({ data: '[DONE]' })
    const usage = translator.usage()!
    expect(usage).toMatchObject({ inputTokens: 1, cachedInputTokens: 11, outputTokens: 291, reasoningTokens: 290 })
    expect(priceUsage(GROK_3_MINI, usage)).toBe(ticksToNano(1466250))
  })

  it("the brief's measured case: 1 completion token and 228 reasoning are 229 output tokens", () => {
    // vercel/ai packages/xai/src/xai-chat-language-model.test.ts ('should extract usage'): the xai-text.json fixture's raw usage
    const usage = fromOpenAIUsage({ prompt_tokens: 12, completion_tokens: 1, total_tokens: 241, prompt_tokens_details: { cached_tokens: 2 }, completion_tokens_details: { reasoning_tokens: 228 } })
    expect(usage).toMatchObject({ inputTokens: 10, cachedInputTokens: 2, outputTokens: 229, reasoningTokens: 228 })
  })
})

describe('vendors that count reasoning inside completion_tokens: billed once', () => {
  it.each([
    // vercel/ai packages/deepseek/src/chat/__fixtures__/deepseek-reasoning.json@4aa374725ea6da1a100b81617c70ee5bc014b071
    ['DeepSeek', { prompt_tokens: 97, completion_tokens: 131, total_tokens: 228, prompt_tokens_details: { cached_tokens: 0 }, completion_tokens_details: { reasoning_tokens: 113 }, prompt_cache_hit_tokens: 0, prompt_cache_miss_tokens: 97 }, { inputTokens: 97, outputTokens: 131, reasoningTokens: 113 }],
    // vercel/ai packages/alibaba/src/__fixtures__/alibaba-reasoning.json@dd97b3ee8ba8ba07314365cfe629ef2686906543 (qwen3-max, DashScope)
    ['DashScope (Qwen)', { prompt_tokens: 24, completion_tokens: 1668, total_tokens: 1692, completion_tokens_details: { reasoning_tokens: 1353 }, prompt_tokens_details: { cached_tokens: 0 } }, { inputTokens: 24, outputTokens: 1668, reasoningTokens: 1353 }],
    // vercel/ai packages/groq/src/__fixtures__/groq-reasoning.json@6b056ab1eadbd2a8c9f268caf6abd5fff45dc7d2 (qwen/qwen3-32b)
    ['Groq', { queue_time: 0.335637089, prompt_tokens: 17, prompt_time: 0.000658349, completion_tokens: 649, completion_time: 1.231022196, total_tokens: 666, total_time: 1.231680545, completion_tokens_details: { reasoning_tokens: 570 } }, { inputTokens: 17, outputTokens: 649, reasoningTokens: 570 }],
    // vercel/ai packages/openai/src/chat/__fixtures__/openai-text.json@6a9861556d12bbd9c00636d3e17424e92f9a5fe3 (gpt-4.1-nano): no reasoning
    ['OpenAI', { prompt_tokens: 16, completion_tokens: 363, total_tokens: 379, prompt_tokens_details: { cached_tokens: 0, audio_tokens: 0 }, completion_tokens_details: { reasoning_tokens: 0, audio_tokens: 0, accepted_prediction_tokens: 0, rejected_prediction_tokens: 0 } }, { inputTokens: 16, outputTokens: 363 }],
    // GLM (docs.bigmodel.cn chat completions): OpenAI's convention, no reasoning count
    ['GLM', { prompt_tokens: 152, completion_tokens: 64, total_tokens: 216, prompt_tokens_details: { cached_tokens: 0 } }, { inputTokens: 152, outputTokens: 64 }],
  ])('%s', (_vendor, raw, expected) => {
    const usage = fromOpenAIUsage(raw)!
    expect(usage).toMatchObject({ ...expected, cachedInputTokens: 0 })
    if (!('reasoningTokens' in expected)) expect(usage.reasoningTokens).toBeUndefined()
  })

  it('the total decides: without one, or with one that adds up neither way, reasoning stays inside completion_tokens', () => {
    expect(outputWithReasoning(10, 50, 30, undefined)).toEqual({ output: 50, reasoning: 30 })
    expect(outputWithReasoning(10, 50, 30, 999)).toEqual({ output: 50, reasoning: 30 })
    expect(outputWithReasoning(10, 50, 30, 90)).toEqual({ output: 80, reasoning: 30 })
    // A reasoning count above an inclusive completion is capped to it (the breakdown never shows more than the output).
    expect(outputWithReasoning(10, 5, 30, 15)).toEqual({ output: 5, reasoning: 5 })
    expect(outputWithReasoning(10, undefined, 30, 40)).toEqual({ output: undefined })
    expect(outputWithReasoning(10, 5, -1, 14)).toEqual({ output: 5 })
  })
})

describe("DashScope's explicit context cache: writes inside prompt_tokens, at their own price", () => {
  // Model Studio context cache (alibabacloud.com/help/en/model-studio/context-cache): an explicit cache's first
  // answer reports its writes in prompt_tokens_details; writes bill 125% of input, hits 10% (explicit) or 20% (implicit).
  const QWEN: Pricing = { unit: 'token', input: 2, output: 6, cachedInput: 0.4, cacheWrite5m: 2.5 }

  it('a cache created: 18613 of the 18628 prompt tokens are 5-minute writes', () => {
    const usage = fromOpenAIUsage({ prompt_tokens: 18628, completion_tokens: 344, total_tokens: 18972, prompt_tokens_details: { text_tokens: 18628, cache_creation_input_tokens: 18613, cache_creation: { ephemeral_5m_input_tokens: 18613 }, cache_type: 'ephemeral', cached_tokens: 0 } } as never)!
    expect(usage).toMatchObject({ inputTokens: 15, cachedInputTokens: 0, cacheWrite5mTokens: 18613, cacheWrite1hTokens: 0, outputTokens: 344 })
    expect(priceUsage(QWEN, usage)).toBe(15 * 2000 + 18613 * 2500 + 344 * 6000)
  })

  it('a cache hit: cached tokens at the cached price, no writes', () => {
    const usage = fromOpenAIUsage({ prompt_tokens: 3019, completion_tokens: 104, total_tokens: 3123, prompt_tokens_details: { cached_tokens: 2048 } })!
    expect(usage).toMatchObject({ inputTokens: 971, cachedInputTokens: 2048, outputTokens: 104 })
    expect(usage.cacheWrite5mTokens).toBeUndefined()
    expect(priceUsage(QWEN, usage)).toBe(971 * 2000 + 2048 * 400 + 104 * 6000)
  })
})

describe('Responses (OpenAI, Azure, xAI): reasoning inside output_tokens', () => {
  it('an Azure answer (vercel/ai packages/azure/src/__fixtures__/azure-tool-call.1.json@d7e3880f4afad1850ec9a1c948baf0221caa22b2, gpt-5.1)', () => {
    expect(fromResponsesUsage({ input_tokens: 45, input_tokens_details: { cached_tokens: 0 }, output_tokens: 24, output_tokens_details: { reasoning_tokens: 0 }, total_tokens: 69 }))
      .toMatchObject({ inputTokens: 45, cachedInputTokens: 0, outputTokens: 24 })
  })

  it("xAI's Responses: total = input + output, so the reasoning is not added again", () => {
    // vercel/ai packages/xai/src/responses/__fixtures__/xai-code-execution-tool.1.json@4aa374725ea6da1a100b81617c70ee5bc014b071 (grok-4-fast-reasoning)
    expect(fromResponsesUsage({ input_tokens: 1606, input_tokens_details: { cached_tokens: 1235 }, output_tokens: 292, output_tokens_details: { reasoning_tokens: 190 }, total_tokens: 1898, num_sources_used: 0, num_server_side_tools_used: 1 } as never))
      .toMatchObject({ inputTokens: 371, cachedInputTokens: 1235, outputTokens: 292, reasoningTokens: 190 })
  })
})

describe('Gemini: thoughtsTokenCount is apart from candidatesTokenCount and billed as output', () => {
  it('gemini-3-pro-preview (vercel/ai packages/google/src/__fixtures__/google-text.json@0d67d0f2b0dddc043975416b1c929135774c85a2)', () => {
    const usage = fromGeminiUsage({ promptTokenCount: 9, candidatesTokenCount: 28, totalTokenCount: 281, promptTokensDetails: [{ modality: 'TEXT', tokenCount: 9 }], thoughtsTokenCount: 244 } as never)!
    expect(usage).toMatchObject({ inputTokens: 9, cachedInputTokens: 0, outputTokens: 272, reasoningTokens: 244 })
    const pricing: Pricing = { unit: 'token', input: 2, output: 12, cachedInput: 0.2 }
    expect(priceUsage(pricing, usage)).toBe(9 * 2000 + 272 * 12000)
    expect(priceBreakdown(pricing, usage).map((c) => [c.kind, c.units])).toEqual([['input', 9], ['output', 28], ['reasoning', 244]])
  })

  it('the Interactions API: total_thought_tokens billed as output', () => {
    const translator = adapterFor('gemini')!.interactions!
    const answer = translator.fromResponse(JSON.stringify({ id: 'i', status: 'completed', outputs: [], usage: { total_input_tokens: 20, total_output_tokens: 5, total_thought_tokens: 40, total_cached_tokens: 4 } }), ctx('gemini', 'gemini-interactions'))
    expect(answer.usage).toMatchObject({ inputTokens: 16, cachedInputTokens: 4, outputTokens: 45, reasoningTokens: 40 })
  })
})

describe('Anthropic: cache reads, 5-minute and 1-hour cache writes, each at its own price', () => {
  /** claude-haiku-4-5 in the catalog: $1 in, $5 out, reads $0.10, 5-minute writes $1.25, 1-hour writes $2 per 1M. */
  const HAIKU: Pricing = { unit: 'token', input: 1, output: 5, cachedInput: 0.1, cacheWrite5m: 1.25, cacheWrite1h: 2 }

  it('a recorded answer with thinking and no cache (vercel/ai packages/anthropic/src/__fixtures__/issue-13430-thinking-tool-call.json@c883fb346b2a0b2546692be741cc96000c93c185)', () => {
    const usage = fromAnthropicUsage({ input_tokens: 599, cache_creation_input_tokens: 0, cache_read_input_tokens: 0, cache_creation: { ephemeral_5m_input_tokens: 0, ephemeral_1h_input_tokens: 0 }, output_tokens: 59, output_tokens_details: { thinking_tokens: 18 } } as never)!
    expect(usage).toMatchObject({ inputTokens: 599, cachedInputTokens: 0, cacheWrite5mTokens: 0, cacheWrite1hTokens: 0, outputTokens: 59, reasoningTokens: 18 })
  })

  it('writes split by lifetime (platform.claude.com prompt caching: usage.cache_creation) are priced at 1.25x and 2x', () => {
    const usage = fromAnthropicUsage({ input_tokens: 50, cache_read_input_tokens: 1000, cache_creation_input_tokens: 3000, cache_creation: { ephemeral_5m_input_tokens: 1000, ephemeral_1h_input_tokens: 2000 }, output_tokens: 100 })!
    expect(usage).toMatchObject({ inputTokens: 50, cachedInputTokens: 1000, cacheWrite5mTokens: 1000, cacheWrite1hTokens: 2000, outputTokens: 100 })
    expect(priceUsage(HAIKU, usage)).toBe(50 * 1000 + 1000 * 100 + 1000 * 1250 + 2000 * 2000 + 100 * 5000)
    expect(priceBreakdown(HAIKU, usage)).toEqual([
      { kind: 'input', units: 50, unitPrice: 1, per: '1M tokens', cost: 0.00005 },
      { kind: 'cached_input', units: 1000, unitPrice: 0.1, per: '1M tokens', cost: 0.0001 },
      { kind: 'cache_write_5m', units: 1000, unitPrice: 1.25, per: '1M tokens', cost: 0.00125 },
      { kind: 'cache_write_1h', units: 2000, unitPrice: 2, per: '1M tokens', cost: 0.004 },
      { kind: 'output', units: 100, unitPrice: 5, per: '1M tokens', cost: 0.0005 },
    ])
  })

  it('an answer without the split (older API versions): every write is a 5-minute one, the default lifetime', () => {
    expect(fromAnthropicUsage({ input_tokens: 5, cache_creation_input_tokens: 700, cache_read_input_tokens: 0, output_tokens: 9 }))
      .toMatchObject({ inputTokens: 5, cacheWrite5mTokens: 700, cacheWrite1hTokens: 0 })
  })

  it('a row without write prices bills writes at the input price, as before', () => {
    const usage = fromAnthropicUsage({ input_tokens: 10, cache_creation_input_tokens: 30, cache_creation: { ephemeral_5m_input_tokens: 10, ephemeral_1h_input_tokens: 20 }, output_tokens: 1 })!
    expect(priceUsage({ unit: 'token', input: 3, output: 15 }, usage)).toBe((10 + 30) * 3000 + 15000)
  })

  it('a stream: the writes of message_start and the output of message_delta', () => {
    const t = adapterFor('anthropic')!.messages!.streamTranslator({ includeUsage: false }, ctx('anthropic', 'claude'))
    t.push({ event: 'message_start', data: JSON.stringify({ type: 'message_start', message: { id: 'msg', usage: { input_tokens: 12, cache_creation_input_tokens: 500, cache_read_input_tokens: 40, cache_creation: { ephemeral_5m_input_tokens: 0, ephemeral_1h_input_tokens: 500 }, output_tokens: 1 } } }) })
    t.push({ event: 'content_block_delta', data: JSON.stringify({ type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'Hi' } }) })
    t.push({ event: 'message_delta', data: JSON.stringify({ type: 'message_delta', delta: { stop_reason: 'end_turn' }, usage: { output_tokens: 30 } }) })
    t.push({ event: 'message_stop', data: JSON.stringify({ type: 'message_stop' }) })
    expect(t.usage()).toMatchObject({ inputTokens: 12, cachedInputTokens: 40, cacheWrite5mTokens: 0, cacheWrite1hTokens: 500, outputTokens: 30 })
  })
})

describe("gpt-image: text in, image in and image out at their own rates", () => {
  /** gpt-image-2 in the catalog: text in $5 (cached $1.25), image in $8, image out $30 per 1M. */
  const GPT_IMAGE_2: Pricing = { unit: 'token', input: 5, output: 30, cachedInput: 1.25, imageInput: 8 }

  it('an edit: input_tokens_details splits text from image tokens (openai-python src/openai/types/images_response.py@04448952820aa3029e61907c1785a7293c3ddbc2)', () => {
    const usage = fromImagesUsage({ input_tokens: 1300, input_tokens_details: { text_tokens: 50, image_tokens: 1250 }, output_tokens: 4160 })!
    expect(usage).toMatchObject({ inputTokens: 1300, cachedInputTokens: 0, imageInputTokens: 1250, outputTokens: 4160 })
    expect(priceUsage(GPT_IMAGE_2, usage)).toBe(50 * 5000 + 1250 * 8000 + 4160 * 30000)
    expect(priceBreakdown(GPT_IMAGE_2, usage).map((c) => [c.kind, c.units, c.unitPrice])).toEqual([['input', 50, 5], ['image_input', 1250, 8], ['output', 4160, 30]])
  })

  it('a generation (no image in) and a usage without details: all input is text', () => {
    expect(fromImagesUsage({ input_tokens: 50, input_tokens_details: { text_tokens: 50, image_tokens: 0 }, output_tokens: 272 })!.imageInputTokens).toBeUndefined()
    expect(fromImagesUsage({ input_tokens: 50, output_tokens: 272 })).toMatchObject({ inputTokens: 50, cachedInputTokens: 0, outputTokens: 272 })
  })
})

describe('price breakdown', () => {
  it('per image, second and character: one part each, the tier rate for images', () => {
    expect(priceBreakdown({ unit: 'image', price: 0.04, byTier: { '2K': 0.06 } }, { quantity: 2, raw: { tier: '2K' } })).toEqual([{ kind: 'images', units: 2, unitPrice: 0.06, per: 'image', cost: 0.12 }])
    expect(priceBreakdown({ unit: 'second', price: 0.1 }, { quantity: 5 })).toEqual([{ kind: 'seconds', units: 5, unitPrice: 0.1, per: 'second', cost: 0.5 }])
    expect(priceBreakdown({ unit: 'character', price: 15 }, { quantity: 1000 })).toEqual([{ kind: 'characters', units: 1000, unitPrice: 15, per: '1M characters', cost: 0.015 }])
  })

  it('the parts add up to the bill, and a usage of nothing has no parts', () => {
    const usage: TokenUsage = { inputTokens: 123, cachedInputTokens: 45, cacheWrite5mTokens: 6, cacheWrite1hTokens: 7, imageInputTokens: 20, outputTokens: 89, reasoningTokens: 30 }
    const pricing: Pricing = { unit: 'token', input: 3, output: 15, cachedInput: 0.3, cacheWrite5m: 3.75, cacheWrite1h: 6, imageInput: 4 }
    const parts = priceBreakdown(pricing, usage)
    expect(Math.round(parts.reduce((sum, c) => sum + c.cost, 0) * 1e9)).toBe(priceUsage(pricing, usage))
    expect(priceBreakdown(pricing, { inputTokens: 0, outputTokens: 0 })).toEqual([])
  })
})
