import { describe, expect, it } from 'vitest'
import { checkImageRequest } from '../../../../electron/gateway/images/image-rules.js'
import { check, EDITS, expect400, model, urls, type Obj } from './helpers.js'

const KV3 = 'kling-v3-image'
const KV21 = 'kling-v2-1-image'
const GROK = 'grok-imagine-image'
const GROKQ = 'grok-imagine-image-quality'
const GROK2 = 'grok-imagine-image-2.0'
const gen = (id: string, body: Obj, opts = {}) => check(id, { prompt: 'a fox', ...body }, opts)

describe('kling-image (kling.md "Images")', () => {
  it('prompt and negative_prompt at most 2500 characters', () => {
    expect(gen(KV3, { prompt: 'x'.repeat(2500), negative_prompt: 'y'.repeat(2500) }).forward).toEqual({ negative_prompt: 'y'.repeat(2500) })
    expect400(() => gen(KV3, { prompt: 'x'.repeat(2501) }), `prompt is too long: 2501 characters, at most 2500 for the model \`${KV3}\`.`, 'prompt')
    expect400(() => gen(KV3, { negative_prompt: 'y'.repeat(2501) }), `negative_prompt is too long: 2501 characters, at most 2500 for the model \`${KV3}\`.`, 'negative_prompt')
    expect400(() => gen(KV3, { prompt: ' ' }), 'prompt must not be empty', 'prompt')
  })

  it('n 1..9', () => {
    expect(gen(KV3, { n: 9 }).n).toBe(9)
    expect400(() => gen(KV3, { n: 10 }), `n must be an integer from 1 to 9 for the model \`${KV3}\` (got 10).`, 'n')
    expect400(() => gen(KV3, { n: 0 }), `n must be an integer from 1 to 9 for the model \`${KV3}\` (got 0).`, 'n')
  })

  it('aspect_ratio and resolution from the catalog; size mapped onto them', () => {
    expect(gen(KV3, { aspect_ratio: '21:9', resolution: '2k' })).toMatchObject({ aspectRatio: '21:9', tier: '2K', resolution: '2k' })
    expect(gen(KV3, { resolution: '2K' }).resolution).toBe('2k')
    expect(gen(KV3, { size: '1920x1080' })).toMatchObject({ aspectRatio: '16:9', tier: '2K', resolution: '2k' })
    expect(gen(KV3, { size: '1024x1024', aspect_ratio: '4:3', resolution: '2k' })).toMatchObject({ aspectRatio: '4:3', tier: '2K' })
    expect(gen(KV3, { size: '1k' })).toMatchObject({ tier: '1K', resolution: '1k' })
    const plain = gen(KV3, {})
    expect(plain.aspectRatio).toBeUndefined()
    expect(plain.resolution).toBeUndefined()
    expect400(() => gen(KV3, { aspect_ratio: '9:21' }), `aspect_ratio \`9:21\` is not supported by the model \`${KV3}\`; allowed values: 16:9, 9:16, 1:1, 4:3, 3:4, 3:2, 2:3, 21:9.`, 'aspect_ratio')
    expect400(() => gen(KV3, { resolution: '4k' }), `resolution \`4k\` is not supported by the model \`${KV3}\`; allowed values: 1k, 2k.`, 'resolution')
    expect400(() => gen(KV3, { size: '4K' }), `The model \`${KV3}\` does not support the 4K output tier (size); supported: 1K, 2K.`, 'size')
  })

  it('reference images up to the model\'s maxReferenceImages', () => {
    expect(gen(KV21, { image: urls(1) }).referenceCount).toBe(1)
    expect400(() => gen(KV21, { image: urls(2) }), `Too many reference images for the model \`${KV21}\`: 2 sent, at most 1.`, 'image')
    expect(gen(KV3, { image: urls(10) }).referenceCount).toBe(10)
    expect400(() => gen(KV3, { image: urls(11) }), `Too many reference images for the model \`${KV3}\`: 11 sent, at most 10.`, 'image')
  })

  it('fidelity 0..1, image_reference subject|face, no mask', () => {
    expect(gen(KV3, { image_fidelity: 0, human_fidelity: 1, image_reference: 'face' }).forward).toMatchObject({ image_fidelity: 0, human_fidelity: 1 })
    expect400(() => gen(KV3, { image_fidelity: 1.01 }), 'image_fidelity: must be a number from 0 to 1', 'image_fidelity')
    expect400(() => gen(KV3, { image_reference: 'style' }), `image_reference \`style\` is not supported by the model \`${KV3}\`; allowed values: subject, face.`, 'image_reference')
    expect400(() => gen(KV3, { mask: 'https://example.com/m.png' }), `The model \`${KV3}\` does not support mask; omit the field.`, 'mask')
  })
})

describe('grok-image (xai.md §2)', () => {
  it('n 1..10, aspect ratios incl. auto, resolution 1k|2k', () => {
    expect(gen(GROK, { n: 10 }).n).toBe(10)
    expect400(() => gen(GROK, { n: 11 }), `n must be an integer from 1 to 10 for the model \`${GROK}\` (got 11).`, 'n')
    expect(gen(GROK, { aspect_ratio: '19.5:9' }).aspectRatio).toBe('19.5:9')
    expect(gen(GROK, { aspect_ratio: 'auto' }).aspectRatio).toBe('auto')
    expect(gen(GROK, { size: '2048x1024' })).toMatchObject({ aspectRatio: '2:1', tier: '2K', resolution: '2k' })
    expect(gen(GROK, { size: 'auto' }).aspectRatio).toBeUndefined()
    expect(gen(GROK, { size: '1024x1024' }).forward).toEqual({})
  })

  it('output is jpeg; response_format url|b64_json; quality forwarded unchecked', () => {
    expect(gen(GROK, { output_format: 'jpeg', response_format: 'b64_json', quality: 'high' })).toMatchObject({ outputFormat: 'jpeg', quality: 'high', forward: { response_format: 'b64_json' } })
    expect400(() => gen(GROK, { output_format: 'png' }), `output_format \`png\` is not supported by the model \`${GROK}\`; allowed values: jpeg.`, 'output_format')
    expect400(() => gen(GROK, { response_format: 'file' }), `response_format \`file\` is not supported by the model \`${GROK}\`; allowed values: url, b64_json.`, 'response_format')
  })

  it('edits need a reference; images wins over image; per-model maximum', () => {
    const edit = (id: string, body: Obj, opts = {}) => gen(id, body, { ...EDITS, ...opts })
    expect400(() => edit(GROK, {}), 'The edits endpoint needs at least one reference image in image.', 'image')
    expect(edit(GROK, { image: urls(9), images: urls(4) }).references).toEqual(urls(4))
    expect400(() => edit(GROK, { images: urls(5) }), `Too many reference images for the model \`${GROK}\`: 5 sent, at most 4.`, 'images')
    expect400(() => edit(GROKQ, { image: urls(3) }), `Too many reference images for the model \`${GROKQ}\`: 3 sent, at most 2.`, 'image')
    expect(edit(GROK2, { image: urls(5) }).referenceCount).toBe(5)
    expect400(() => edit(GROK, { image: urls(1), mask: null }), `The model \`${GROK}\` does not support mask; omit the field.`, 'mask')
  })
})

describe('checkImageRequest', () => {
  it('refuses non-image models as a gateway bug, not a client error', () => {
    expect(() => checkImageRequest({ prompt: 'x' }, model('gpt-5.5'), { endpoint: 'generations', async: false })).toThrow(/no image rules/)
  })

  it('keeps n = 1 groups for every family', () => {
    expect400(() => gen(KV3, { n: 2 }, { singleImageGroup: true }), "This API key's group supports only one image per request: n must be 1 (got 2).", 'n')
    expect400(() => gen('gemini-3-pro-image', { n: 2 }, { singleImageGroup: true }), "This API key's group supports only one image per request: n must be 1 (got 2).", 'n')
  })
})
