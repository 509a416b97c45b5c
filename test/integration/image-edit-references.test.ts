// Issue 24: every image edit reaches the vendor with its references, multipart and JSON, for every image family. Each
// test sends reference images whose bytes are known and asserts the bytes the fake vendor received.
import { describe, expect, it } from 'vitest'
import { colorFor, makePng } from '../fakes/images/image-bytes.js'
import { startFakeArkSeedream } from '../fakes/images/ark-seedream.js'
import { startFakeGeminiImage } from '../fakes/images/gemini-image.js'
import { startFakeKlingImages } from '../fakes/images/kling-images.js'
import { startFakeOpenAIImages } from '../fakes/images/openai-images.js'
import { startFakeXaiImages } from '../fakes/images/xai-images.js'
import { TEST_KEY, withGateway } from '../helpers/gateway.js'
import { IMG_GEMINI_1K, IMG_GPT, IMG_GROK, IMG_KLING, IMG_SEEDREAM } from '../helpers/image-models.js'

const SEEDREAM = 'img-seedream'
const { gw, fakes: { openai, gemini, ark, xai, kling } } = withGateway({
  fakes: {
    openai: () => startFakeOpenAIImages({ apiKey: 'oa' }),
    gemini: () => startFakeGeminiImage({ apiKey: 'gm' }),
    ark: () => startFakeArkSeedream({ apiKey: 'ark' }),
    xai: () => startFakeXaiImages({ apiKey: 'xai' }),
    kling: () => startFakeKlingImages({ accessKey: 'ak', secretKey: 'sk' }),
  },
  config: ({ openai, gemini, ark, xai, kling }) => ({
    account: { balance: 100, concurrency: 5 },
    models: [
      IMG_GPT,
      IMG_GEMINI_1K,
      IMG_SEEDREAM,
      IMG_GROK,
      IMG_KLING,
    ] as never,
    upstreams: [
      { id: 'oa', vendor: 'openai', baseUrl: openai.url, apiKey: 'oa' },
      { id: 'gm', vendor: 'gemini', baseUrl: gemini.url, apiKey: 'gm' },
      { id: 'ark', vendor: 'ark', baseUrl: ark.url, apiKey: 'ark' },
      { id: 'xai', vendor: 'xai', baseUrl: xai.url, apiKey: 'xai' },
      { id: 'kl', vendor: 'kling', baseUrl: kling.url, apiKey: 'ak:sk' },
    ],
    groups: [{ id: 'main', protocol: 'chat', models: ['img-gpt', 'img-gemini', SEEDREAM, 'img-grok', 'img-kling'], upstreams: ['oa', 'gm', 'ark', 'xai', 'kl'] }],
    keys: [{ key: TEST_KEY, group: 'main' }],
  }),
  resetFakes: true,
})

// Two distinct PNGs (different sizes and colours): which one arrived where is visible in the bytes.
const first = makePng(64, 48, { color: colorFor(1) })
const second = makePng(32, 32, { color: colorFor(2) })
const dataUrl = (bytes: Buffer) => `data:image/png;base64,${bytes.toString('base64')}`
const b64 = (bytes: Buffer) => bytes.toString('base64')

/** A multipart edit as the openai SDK sends it: fields, then `image` files (one, or repeated `image[]`). */
async function multipartEdit(fields: Record<string, string>, files: Buffer[], field = files.length > 1 ? 'image[]' : 'image') {
  const form = new FormData()
  for (const [name, value] of Object.entries(fields)) form.append(name, value)
  files.forEach((bytes, i) => form.append(field, new Blob([new Uint8Array(bytes)], { type: 'image/png' }), `ref-${i}.png`))
  const res = await fetch(`${gw.url}/v1/images/edits`, { method: 'POST', headers: { authorization: `Bearer ${TEST_KEY}` }, body: form })
  return { status: res.status, body: await res.text() }
}

/**
 * The vendor's API calls (POST): the gateway copies a vendor's image links into the data dir after answering, and a
 * copy of the previous test's images may reach the fake after it was reset.
 */
const posts = (fake: { calls: Array<{ method: string; body: unknown; path: string }> }) => fake.calls.filter((c) => c.method === 'POST')

/** References as a JSON-bodied vendor got them: data: URLs decoded back to bytes. */
const decoded = (urls: string[]) => urls.map((url) => Buffer.from(url.replace(/^data:image\/png;base64,/, ''), 'base64'))

describe('gpt-image: references go as multipart image[] files, byte for byte', () => {
  it('multipart', async () => {
    const res = await multipartEdit({ model: 'img-gpt', prompt: 'make it blue' }, [first, second])
    expect(res.status, res.body).toBe(200)
    const sent = posts(openai)[0].body as { files: Array<{ field: string; bytes: Buffer }> }
    expect(sent.files.map((f) => f.field)).toEqual(['image[]', 'image[]'])
    expect(sent.files.map((f) => f.bytes)).toEqual([first, second])
  })
  it('JSON with data URLs', async () => {
    const res = await gw.post('/v1/images/edits', { model: 'img-gpt', prompt: 'make it blue', image: [dataUrl(first), dataUrl(second)] })
    expect(res.status).toBe(200)
    expect((posts(openai)[0].body as { files: Array<{ bytes: Buffer }> }).files.map((f) => f.bytes)).toEqual([first, second])
  })
})

describe('gemini-image: references go as inlineData parts after the prompt', () => {
  const inline = () => (posts(gemini)[0].body as any).contents[0].parts.slice(1).map((p: any) => [p.inlineData.mimeType, p.inlineData.data])
  it('multipart', async () => {
    const res = await multipartEdit({ model: 'img-gemini', prompt: 'make it blue' }, [first, second])
    expect(res.status, res.body).toBe(200)
    expect((posts(gemini)[0].body as any).contents[0].parts[0]).toEqual({ text: 'make it blue' })
    expect(inline()).toEqual([['image/png', b64(first)], ['image/png', b64(second)]])
  })
  it('JSON with data URLs', async () => {
    expect((await gw.post('/v1/images/edits', { model: 'img-gemini', prompt: 'make it blue', image: dataUrl(first) })).status).toBe(200)
    expect(inline()).toEqual([['image/png', b64(first)]])
  })
})

describe('seedream: references go in the JSON `image` field as data URLs (Ark reads links and data URLs alike)', () => {
  it('multipart with one image file: the file arrives as `image` (it was dropped: a fresh generation billed as an edit)', async () => {
    const res = await multipartEdit({ model: SEEDREAM, prompt: 'make it blue', size: '2K' }, [first])
    expect(res.status, res.body).toBe(200)
    const sent = posts(ark)[0].body as { image: string }
    expect(typeof sent.image).toBe('string')
    expect(decoded([sent.image])).toEqual([first])
  })
  it('multipart with two files, then JSON references after them, in order', async () => {
    expect((await multipartEdit({ model: SEEDREAM, prompt: 'blend', size: '2K' }, [first, second])).status).toBe(200)
    expect(decoded((posts(ark)[0].body as { image: string[] }).image)).toEqual([first, second])
  })
  it('a file whose data URL would pass Ark\'s 30 MiB limit is refused before any upstream call, like such a data URL', async () => {
    // Spec §4.2: Seedream data URLs at most 31457280 bytes; `data:image/jpeg;base64,` (23) and 4 characters per 3
    // bytes leave 23592942 bytes of file (31457279 characters); one byte more makes 31457283.
    const big = Buffer.concat([first, Buffer.alloc(23_592_943 - first.length)])
    const res = await multipartEdit({ model: SEEDREAM, prompt: 'make it blue', size: '2K' }, [big])
    expect(res.status).toBe(400)
    expect(JSON.parse(res.body).error).toMatchObject({ message: 'image[0] is too large: 23592943 bytes, at most 23592942.', code: 'invalid_request', param: 'image' })
    expect(posts(ark)).toHaveLength(0)
  })

  it('JSON with a data URL and a link: both as given', async () => {
    const link = 'https://example.com/reference.png'
    expect((await gw.post('/v1/images/edits', { model: SEEDREAM, prompt: 'blend', size: '2K', image: [dataUrl(second), link] })).status).toBe(200)
    expect((posts(ark)[0].body as { image: string[] }).image).toEqual([dataUrl(second), link])
  })
})

describe('grok-image: references go as `image: {url}` in the JSON edit', () => {
  it('multipart', async () => {
    const res = await multipartEdit({ model: 'img-grok', prompt: 'make it blue' }, [first])
    expect(res.status, res.body).toBe(200)
    expect(posts(xai)[0].path).toBe('/v1/images/edits')
    const sent = posts(xai)[0].body as { image: { url: string } }
    expect(decoded([sent.image.url])).toEqual([first])
  })
  it('JSON with data URLs', async () => {
    expect((await gw.post('/v1/images/edits', { model: 'img-grok', prompt: 'make it blue', image: [dataUrl(first), dataUrl(second)] })).status).toBe(200)
    expect(decoded((posts(xai)[0].body as { image: Array<{ url: string }> }).image.map((i) => i.url))).toEqual([first, second])
  })
})

describe('kling-image: no edits endpoint; a generation\'s reference goes as Kling\'s raw base64', () => {
  it('the reference of a generation arrives as its bytes\' base64 (Kling takes no data URL)', async () => {
    const res = await gw.post('/v1/images/generations', { model: 'img-kling', prompt: 'in this style', image: dataUrl(first) })
    expect(res.status, await res.clone().text()).toBe(200)
    expect((posts(kling)[0].body as { image: string }).image).toBe(b64(first))
  })
  it('an edit is refused before any upstream call, never run as a generation', async () => {
    const res = await multipartEdit({ model: 'img-kling', prompt: 'make it blue' }, [first])
    expect(res.status).toBe(400)
    expect(JSON.parse(res.body).error.code).toBe('unsupported_model_endpoint')
    expect(posts(kling)).toHaveLength(0)
  })
})
