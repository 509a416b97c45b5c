// Family rules hold for every model of a family: each family's rule table runs against a catalog model AND a
// model declared in the config file with only an id, the family, a vendor and a price (spec §4.1, §4.2).
import { describe, expect, it } from 'vitest'
import { startFakeOpenAI } from '../fakes/openai.js'
import { startFakeArkSeedream } from '../fakes/images/ark-seedream.js'
import { startFakeGeminiImage } from '../fakes/images/gemini-image.js'
import { makePng } from '../fakes/images/image-bytes.js'
import { startFakeOpenAIImages } from '../fakes/images/openai-images.js'
import { startFakeDashScope } from '../fakes/video/dashscope.js'
import { TEST_KEY, withGateway } from '../helpers/gateway.js'

const token = { unit: 'token', input: 1, output: 2 }
const image = { unit: 'image', price: 0.04 }
/** Config-declared models: only an id, the family, a vendor and a price (README "Config file", models[]). */
const DECLARED = [
  { id: 'glm-5.4-next', family: 'glm', vendor: 'zhipu', pricing: token },
  { id: 'glm-5.4-flash-next', family: 'glm-flash', vendor: 'zhipu', pricing: token },
  { id: 'qwen-next', family: 'qwen', vendor: 'dashscope', pricing: token },
  { id: 'gpt-image-next', family: 'gpt-image', vendor: 'openai', pricing: image },
  { id: 'gemini-image-next', family: 'gemini-image', vendor: 'gemini', pricing: image },
  { id: 'doubao-seedream-next', family: 'seedream', vendor: 'ark', pricing: image },
  { id: 'wan-next', family: 'wan', vendor: 'dashscope', pricing: { unit: 'second', price: 0.1 } },
]
/** Per family: a catalog model, then the declared one. */
const PAIRS = {
  glm: ['glm-5.3', 'glm-5.4-next'],
  'glm-flash': ['glm-5.3-flash', 'glm-5.4-flash-next'],
  qwen: ['qwen3.8-flash', 'qwen-next'],
  'gpt-image': ['gpt-image-2.5-flare', 'gpt-image-next'],
  'gemini-image': ['gemini-3-pro-image', 'gemini-image-next'],
  seedream: ['doubao-seedream-5-5-261028', 'doubao-seedream-next'],
  wan: ['wan2.7-t2v', 'wan-next'],
} as const

const { gw, fakes: { chat, openaiImages, geminiImages, seedream, dashscope } } = withGateway({
  fakes: {
    chat: startFakeOpenAI,
    openaiImages: () => startFakeOpenAIImages({ apiKey: 'oa' }),
    geminiImages: () => startFakeGeminiImage({ apiKey: 'gm' }),
    seedream: () => startFakeArkSeedream({ apiKey: 'ark' }),
    dashscope: startFakeDashScope,
  },
  config: ({ chat, openaiImages, geminiImages, seedream, dashscope }) => ({
    account: { balance: 100, concurrency: 5 },
    models: DECLARED,
    upstreams: [
      // One OpenAI-compatible fake stands in for Zhipu and DashScope's compatible mode.
      { id: 'compat', vendor: 'gateway', baseUrl: chat.origin, apiKey: 'k', models: [...PAIRS.glm, ...PAIRS['glm-flash'], ...PAIRS.qwen] },
      { id: 'oa', vendor: 'openai', baseUrl: openaiImages.url, apiKey: 'oa' },
      { id: 'gm', vendor: 'gemini', baseUrl: geminiImages.url, apiKey: 'gm' },
      { id: 'ark', vendor: 'ark', baseUrl: seedream.url, apiKey: 'ark' },
      { id: 'ds', vendor: 'dashscope', baseUrl: dashscope.url, apiKey: 'sk-dashscope-test', models: [...PAIRS.wan] },
    ],
    groups: [{ id: 'main', protocol: 'chat', models: Object.values(PAIRS).flat(), upstreams: ['compat', 'oa', 'gm', 'ark', 'ds'] }],
    keys: [{ key: TEST_KEY, group: 'main' }],
  } as never),
  resetFakes: true,
})

/** API calls to every fake (the gateway's copies of signed result links, under /files/, are not API calls). */
const upstreamCalls = () =>
  [chat.calls, openaiImages.calls, geminiImages.calls, seedream.calls, dashscope.calls].flat().filter((c) => !c.path.startsWith('/files/')).length

/** A 400 invalid_request with exactly `message`, and no upstream call. */
async function expect400(path: string, body: Record<string, unknown>, message: string): Promise<void> {
  const res = await gw.post(path, body)
  const json = (await res.json()) as { error: { code: string; message: string } }
  expect([res.status, json.error.code, json.error.message]).toEqual([400, 'invalid_request', message])
  expect(upstreamCalls()).toBe(0)
}

async function expect200(path: string, body: Record<string, unknown>, headers?: Record<string, string>): Promise<void> {
  const res = await gw.post(path, body, headers)
  expect(res.status, await res.clone().text()).toBe(200)
  expect(upstreamCalls()).toBe(1)
}

const CHAT = '/v1/chat/completions'
const GENERATIONS = '/v1/images/generations'
const EDITS = '/v1/images/edits'
const user = [{ role: 'user', content: 'hello' }]
const imagePart = [{ role: 'user', content: [{ type: 'image_url', image_url: { url: 'data:image/png;base64,AAAA' } }] }]
const png = `data:image/png;base64,${makePng(16, 16).toString('base64')}`

describe.each(PAIRS.glm)('glm family rules (spec §4.1 "GLM-5.3-style text model"): %s', (model) => {
  it('max_tokens 1 and 131072 pass', async () => {
    await expect200(CHAT, { model, messages: user, max_tokens: 131072 })
    chat.reset()
    await expect200(CHAT, { model, messages: user, max_tokens: 1 })
  })
  it.each([0, 131073])('max_tokens %d answers 400', async (max) => {
    await expect400(CHAT, { model, messages: user, max_tokens: max }, 'max_tokens invalid, allowed range [1,131072]')
  })
  it('an image_url part answers 400 (text only)', async () => {
    await expect400(CHAT, { model, messages: imagePart }, `The model \`${model}\` does not accept \`image_url\` content parts; it reads only: text.`)
  })
  it('reasoning_effort none answers 400 (always thinks); max passes', async () => {
    await expect400(CHAT, { model, messages: user, reasoning_effort: 'none' },
      `Thinking cannot be disabled for the model \`${model}\` (reasoning_effort \`none\`): it always thinks. Allowed reasoning_effort values: low, high, max.`)
    await expect200(CHAT, { model, messages: user, reasoning_effort: 'max' })
  })
  it('a tool result without its call answers 400; tool_choice defaults to auto', async () => {
    const call = { role: 'assistant', content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'f', arguments: '{}' } }] }
    await expect400(CHAT, { model, messages: [...user, call, { role: 'tool', tool_call_id: 'call_2', content: 'x' }] }, 'No tool call found for function call output')
    await expect200(CHAT, { model, messages: user, tools: [{ type: 'function', function: { name: 'f' } }] })
    expect(chat.calls[0].body.tool_choice).toBe('auto')
  })
})

describe.each(PAIRS['glm-flash'])('glm-flash family rules (spec §4.1 "GLM-5.3-Flash-style model"): %s', (model) => {
  it('images are read; max_tokens 131073 and reasoning_effort none answer 400', async () => {
    await expect200(CHAT, { model, messages: imagePart })
    chat.reset()
    await expect400(CHAT, { model, messages: user, max_tokens: 131073 }, 'max_tokens invalid, allowed range [1,131072]')
    await expect400(CHAT, { model, messages: user, reasoning_effort: 'none' },
      `Thinking cannot be disabled for the model \`${model}\` (reasoning_effort \`none\`): it always thinks. Allowed reasoning_effort values: low, high, max.`)
  })
})

describe.each(PAIRS.qwen)('qwen family rules (spec §4.1 "Qwen-style group"): %s', (model) => {
  it('max_tokens 131072 passes, 131073 answers 400', async () => {
    await expect200(CHAT, { model, messages: user, max_tokens: 131072 })
    chat.reset()
    await expect400(CHAT, { model, messages: user, max_tokens: 131073 }, 'Range of max_tokens should be [1, 131072]')
  })
  it('an image of 10 px or less per side answers 400', async () => {
    const tiny = `data:image/png;base64,${makePng(10, 40).toString('base64')}`
    await expect400(CHAT, { model, messages: [{ role: 'user', content: [{ type: 'image_url', image_url: { url: tiny } }] }] },
      'The image length and width do not meet the model restrictions. [height:40 or width:10 must be larger than 10]')
  })
})

describe.each(PAIRS['gpt-image'])('gpt-image family rules (spec §4.2 "GPT-style models"): %s', (model) => {
  it('n 10 passes, n 11 answers 400 (1..10)', async () => {
    await expect200(GENERATIONS, { model, prompt: 'a fox', n: 10 })
    openaiImages.reset()
    await expect400(GENERATIONS, { model, prompt: 'a fox', n: 11 }, `n must be an integer from 1 to 10 for the model \`${model}\` (got 11).`)
  })
  it('JSON edits: 16 images pass, 17 answer 400 (1..16)', async () => {
    await expect200(EDITS, { model, prompt: 'bluer', image: Array(16).fill(png) })
    openaiImages.reset()
    await expect400(EDITS, { model, prompt: 'bluer', image: Array(17).fill(png) }, `Too many reference images for the model \`${model}\`: 17 sent, at most 16.`)
  })
  it('the size geometry holds: 1K is no size of the 2.5 generation, 4096x2048 breaks the side limit', async () => {
    await expect400(GENERATIONS, { model, prompt: 'a fox', size: '1K' },
      `Invalid size \`1K\` for the model \`${model}\`: the size tier 1K is not accepted by this model; use auto or <W>x<H>.`)
    await expect400(GENERATIONS, { model, prompt: 'a fox', size: '4096x2048' }, `Invalid size \`4096x2048\` for the model \`${model}\`: each side must be at most 3840 pixels.`)
  })
})

const RATIOS = '1:1, 2:3, 3:2, 3:4, 4:3, 4:5, 5:4, 9:16, 16:9, 21:9'

describe.each(PAIRS['gemini-image'])('gemini-image family rules (spec §4.2 "Gemini-style image models"): %s', (model) => {
  it('every official aspect_ratio is accepted and sent; others answer 400 naming the official list', async () => {
    for (const ratio of RATIOS.split(', ')) {
      geminiImages.reset()
      await expect200(GENERATIONS, { model, prompt: 'a fox', aspect_ratio: ratio })
      expect(geminiImages.calls[0].body.generationConfig.imageConfig.aspectRatio).toBe(ratio)
    }
    geminiImages.reset()
    await expect400(GENERATIONS, { model, prompt: 'a fox', aspect_ratio: '7:3' },
      `aspect_ratio \`7:3\` is not supported by the model \`${model}\`; allowed values: ${RATIOS}.`)
  })
  it('size 1920x1080 is sent as the closest official ratio (16:9) at 2K', async () => {
    await expect200(GENERATIONS, { model, prompt: 'a fox', size: '1920x1080' })
    expect(geminiImages.calls[0].body.generationConfig.imageConfig).toEqual({ aspectRatio: '16:9', imageSize: '2K' })
  })
  it('n 11 answers 400 (1..10); n 3 at 2K answers 400 by the tier cap', async () => {
    await expect400(GENERATIONS, { model, prompt: 'a fox', n: 11 }, `n must be an integer from 1 to 10 for the model \`${model}\` (got 11).`)
    await expect400(GENERATIONS, { model, prompt: 'a fox', n: 3, image_size: '4K' }, `n must be at most 2 at 4K output for the model \`${model}\` (got 3).`)
  })
  it('14 reference images are accepted; 15 answer 400', async () => {
    await expect200(GENERATIONS, { model, prompt: 'a fox', images: Array(14).fill(png) })
    geminiImages.reset()
    await expect400(GENERATIONS, { model, prompt: 'a fox', images: Array(15).fill(png) }, `Too many reference images for the model \`${model}\`: 15 sent, at most 14.`)
  })
})

describe.each(PAIRS.seedream)('seedream family rules (spec §4.2 "Seedream-style models"): %s', (model) => {
  it('size 2K is accepted and sent', async () => {
    await expect200(GENERATIONS, { model, prompt: 'a fox', size: '2K' })
    // The API call: a saved-link download of an earlier test may land after the reset, as a GET.
    expect(seedream.calls.find((c) => c.method === 'POST')!.body.size).toBe('2K')
  })
  it('4800x200 (24:1) answers 400: the ratio must stay within 1:16..16:1', async () => {
    await expect400(GENERATIONS, { model, prompt: 'a fox', size: '4800x200' },
      `Invalid size \`4800x200\` for the model \`${model}\`: the width:height ratio must be between 1:16 and 16:1.`)
  })
  it('5000x5000 answers 400: too many pixels', async () => {
    await expect400(GENERATIONS, { model, prompt: 'a fox', size: '5000x5000' },
      `Invalid size \`5000x5000\` for the model \`${model}\`: the total pixels (25000000) must be between 921600 and 4624220.`)
  })
  it('n 2 answers 400 (one image per request)', async () => {
    await expect400(GENERATIONS, { model, prompt: 'a fox', n: 2 }, `The model \`${model}\` generates one image per request: n must be 1 (got 2).`)
  })
})

describe.each(PAIRS.wan)('wan family endpoints: %s', (model) => {
  it('is callable on DashScope\'s native path', async () => {
    const res = await fetch(`${gw.url}/api/v1/services/aigc/video-generation/video-synthesis`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TEST_KEY}`, 'content-type': 'application/json', 'x-dashscope-async': 'enable' },
      body: JSON.stringify({ model, input: { prompt: 'a kite' }, parameters: { resolution: '720P', duration: 5 } }),
    })
    expect(res.status, await res.clone().text()).toBe(200)
    expect(((await res.json()) as { output: { task_status: string } }).output.task_status).toBe('PENDING')
    expect(dashscope.calls.map((c) => c.body.model)).toEqual([model])
  })
})

describe('GET /spec/models/index.json', () => {
  it('describes a declared image model with its family\'s data and delivery, as it does a catalog one', async () => {
    const index = (await (await gw.get('/spec/models/index.json')).json()) as { models: Record<string, any> }
    for (const family of ['gpt-image', 'gemini-image', 'seedream'] as const) {
      const [catalog, declared] = PAIRS[family].map((id) => index.models[id])
      expect(declared.delivery).toEqual(catalog.delivery)
      expect(declared.generations.properties.n).toEqual(catalog.generations.properties.n)
    }
    expect(index.models['gpt-image-next'].delivery).toEqual(['async', 'stream', 'sync'])
    expect(index.models['doubao-seedream-next'].delivery).toEqual(['stream', 'sync'])
    expect(index.models['gemini-image-next'].generations.properties.aspect_ratio.enum).toEqual([...RATIOS.split(', '), null])
  })
})
