// Real recorded answers of OpenAI's images API (test/fixtures/recorded/openai/, INDEX.md there) replayed through
// the gateway's GPT image adapter and read by the official `openai` SDK. The recordings carry no usage, so the model
// row's per-image price is the bill; their base64 was shortened by the project that published them (a PNG's head).
import OpenAI, { toFile } from 'openai'
import { describe, expect, it } from 'vitest'
import { makePng } from '../fakes/images/image-bytes.js'
import { recordedBytes, startReplayUpstream } from '../fakes/replay.js'
import { TEST_KEY, withGateway } from '../helpers/gateway.js'
import { IMG_GPT } from '../helpers/image-models.js'
import { nextLedgerRow } from '../helpers/recorded.js'

const PRICE = IMG_GPT.pricing.price
const { gw, fakes } = withGateway({
  fakes: { replay: startReplayUpstream },
  resetFakes: true,
  config: ({ replay }) => ({
    account: { balance: 100, concurrency: 5 },
    models: [IMG_GPT] as never,
    upstreams: [{ id: 'recorded', vendor: 'openai', baseUrl: `${replay.url}/v1`, apiKey: 'recorded-openai-secret' }],
    groups: [{ id: 'images', protocol: 'chat', models: [IMG_GPT.id], upstreams: ['recorded'] }],
    keys: [{ key: TEST_KEY, group: 'images' }],
  }),
})
const client = () => new OpenAI({ baseURL: `${gw.url}/v1`, apiKey: TEST_KEY, maxRetries: 0 })

interface RecordedImages { data: Array<{ b64_json: string; revised_prompt?: string }> }
const recorded = (file: string) => JSON.parse(recordedBytes(file).toString('utf8')) as RecordedImages

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
})
