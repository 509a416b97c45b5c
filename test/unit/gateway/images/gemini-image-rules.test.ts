import { describe, expect, it } from 'vitest'
import { closestAspectRatio, lowerToAvailable, tierForLongEdge } from '../../../../electron/gateway/families/kit/image-size.js'
import { check, dataUrl, EDITS, expect400, urls, type Obj } from './helpers.js'

const PRO = 'gemini-3-pro-image'
const LITE = 'gemini-3.1-flash-lite-image'
const gen = (id: string, body: Obj, opts = {}) => check(id, { prompt: 'a fox', ...body }, opts)
const ALL_RATIOS = ['1:1', '2:3', '3:2', '3:4', '4:3', '4:5', '5:4', '9:16', '16:9', '21:9']

describe('gemini-image size mapping', () => {
  it.each([
    [PRO, undefined, '1K', '1:1'],
    [PRO, 'auto', '1K', '1:1'],
    [PRO, '1024x1024', '1K', '1:1'],
    [PRO, '1025x1025', '2K', '1:1'],
    [PRO, '2048x1152', '2K', '16:9'],
    [PRO, '2049x1000', '4K', '21:9'],
    [PRO, '3000x2000', '4K', '3:2'],
    [PRO, '800x1000', '1K', '4:5'],
    [PRO, '1000x1250', '2K', '4:5'],
    [PRO, '1080x1920', '2K', '9:16'],
    [PRO, '1200x1000', '2K', '5:4'],
    [PRO, '1400x1000', '2K', '4:3'],
    [PRO, '100x1000', '1K', '9:16'],
    [PRO, '5000x1000', '4K', '21:9'],
    [PRO, '2K', '2K', '1:1'],
    [PRO, '4K', '4K', '1:1'],
    [LITE, '4096x4096', '1K', '1:1'],
    [LITE, '2048x1536', '1K', '4:3'],
    [LITE, '1K', '1K', '1:1'],
  ])('%s size=%s -> tier %s, ratio %s', (id, size, tier, aspectRatio) => {
    expect(gen(id, { size })).toMatchObject({ tier, aspectRatio })
  })

  it.each([
    [1024, '1K'], [1025, '2K'], [2048, '2K'], [2049, '4K'], [8192, '4K'],
  ])('long edge %s -> %s', (edge, tier) => {
    expect(tierForLongEdge(edge)).toBe(tier)
  })

  it.each([
    ['4K', ['1K', '2K'], '2K'], ['4K', ['1K'], '1K'], ['2K', ['1K', '2K', '4K'], '2K'], ['1K', ['2K', '4K'], '2K'],
  ])('lowers %s within %j to %s', (tier, available, expected) => {
    expect(lowerToAvailable(tier, available)).toBe(expected)
  })

  it.each([
    [1, 1, '1:1'], [16, 9, '16:9'], [21, 9, '21:9'], [3, 1, '21:9'], [1, 3, '9:16'], [9, 10, '1:1'], [5, 6, '4:5'],
  ])('closest ratio of %s:%s by log distance is %s', (w, h, ratio) => {
    expect(closestAspectRatio(w, h, ALL_RATIOS)).toBe(ratio)
  })

  it('an explicit tier above the model\'s highest answers 400 unless image_size is sent', () => {
    expect400(() => gen(LITE, { size: '4K' }), 'The model `gemini-3.1-flash-lite-image` does not support the 4K output tier (size); supported: 1K.', 'size')
    expect400(() => gen(LITE, { size: '2K' }), 'The model `gemini-3.1-flash-lite-image` does not support the 2K output tier (size); supported: 1K.', 'size')
    expect(gen(LITE, { size: '4K', image_size: '1K' }).tier).toBe('1K')
  })

  it('refuses sizes that are neither auto, a tier nor WxH', () => {
    for (const size of ['2k', 'big', '1024*1024', 1024]) {
      expect400(() => gen(PRO, { size }), `Invalid size \`${String(size)}\` for the model \`gemini-3-pro-image\`: use auto, a tier (1K, 2K, 4K) or <W>x<H>.`, 'size')
    }
  })
})

describe('gemini-image image_size and aspect_ratio', () => {
  const forms: Array<[string, (v: Obj) => Obj, string]> = [
    ['top level', (v) => v, ''],
    ['google.image_config', (v) => ({ google: { image_config: v } }), 'google.image_config.'],
    ['extra_body.google.image_config', (v) => ({ extra_body: { google: { image_config: v } } }), 'extra_body.google.image_config.'],
  ]

  it.each(forms)('%s form sets tier and ratio, winning over size', (_name, wrap) => {
    expect(gen(PRO, { size: '1024x1024', ...wrap({ image_size: '4K', aspect_ratio: '16:9' }) })).toMatchObject({ tier: '4K', aspectRatio: '16:9' })
  })

  it.each(forms)('%s form: invalid values answer 400 naming the path', (_name, wrap, prefix) => {
    expect400(
      () => gen(LITE, wrap({ image_size: '2K' })),
      `The model \`gemini-3.1-flash-lite-image\` does not support the 2K output tier (${prefix}image_size); supported: 1K.`,
      `${prefix}image_size`,
    )
    expect400(
      () => gen(PRO, wrap({ aspect_ratio: '7:3' })),
      `${prefix}aspect_ratio \`7:3\` is not supported by the model \`gemini-3-pro-image\`; allowed values: ${ALL_RATIOS.join(', ')}.`,
      `${prefix}aspect_ratio`,
    )
  })

  it('the top-level form wins over the nested ones; image_config is not forwarded', () => {
    const out = gen(PRO, { image_size: '2K', google: { image_config: { image_size: '4K' }, safety: 'x' }, extra_body: { google: { image_config: {} }, other: 1 } })
    expect(out.tier).toBe('2K')
    expect(out.forward).toEqual({ google: { safety: 'x' }, extra_body: { google: {}, other: 1 } })
  })

  it('image_size overrides the tier derived from WxH; the ratio still comes from size', () => {
    expect(gen(PRO, { size: '3840x2160', image_size: '1K' })).toMatchObject({ tier: '1K', aspectRatio: '16:9' })
  })
})

describe('gemini-image n', () => {
  it.each([
    [PRO, {}, 10], [PRO, { image_size: '2K' }, 5], [PRO, { image_size: '4K' }, 2], [PRO, { size: '4096x4096' }, 2], [LITE, { size: '4096x4096' }, 10],
  ])('%s %j allows n up to %s', (id, body, max) => {
    expect(gen(id, { ...body, n: max }).n).toBe(max)
    expect(() => gen(id, { ...body, n: max + 1 })).toThrow()
  })

  it('answers 400 with the tier limit or the range', () => {
    expect400(() => gen(PRO, { image_size: '2K', n: 6 }), 'n must be at most 5 at 2K output for the model `gemini-3-pro-image` (got 6).', 'n')
    expect400(() => gen(PRO, { size: '4096x2304', n: 3 }), 'n must be at most 2 at 4K output for the model `gemini-3-pro-image` (got 3).', 'n')
    expect400(() => gen(PRO, { n: 11 }), 'n must be an integer from 1 to 10 for the model `gemini-3-pro-image` (got 11).', 'n')
    expect400(() => gen(PRO, { n: 0 }), 'n must be an integer from 1 to 10 for the model `gemini-3-pro-image` (got 0).', 'n')
    expect(gen(PRO, {}).n).toBe(1)
  })
})

describe('gemini-image references', () => {
  it('images wins over image; at most maxReferenceImages (14, lite 3)', () => {
    expect(gen(PRO, { image: urls(20), images: urls(14) }).references).toEqual(urls(14))
    expect(gen(PRO, { image: urls(2) }).references).toEqual(urls(2))
    expect400(() => gen(PRO, { images: urls(15) }), 'Too many reference images for the model `gemini-3-pro-image`: 15 sent, at most 14.', 'images')
    expect(gen(LITE, { image: urls(3) }).referenceCount).toBe(3)
    expect400(() => gen(LITE, { image: urls(4) }), 'Too many reference images for the model `gemini-3.1-flash-lite-image`: 4 sent, at most 3.', 'image')
    expect400(() => gen(LITE, { images: urls(2) }, { ...EDITS, imageFiles: 2 }), 'Too many reference images for the model `gemini-3.1-flash-lite-image`: 4 sent, at most 3.', 'images')
  })

  it('on the official-direct group each data URL is at most 20 MiB decoded', () => {
    // 6990507 base64 quads = 20971521 bytes; one '=' less payload char gives exactly 20971520.
    const exact = dataUrl(6990507 * 4 - 1) + '='
    const over = dataUrl(6990507 * 4)
    expect(gen(PRO, { images: [exact] }, { officialDirect: true }).referenceCount).toBe(1)
    expect400(() => gen(PRO, { images: ['https://example.com/a.png', over] }, { officialDirect: true }), 'images[1] is too large: 20971521 bytes, at most 20971520.', 'images[1]')
    expect(gen(PRO, { images: [over] }).referenceCount).toBe(1)
  })
})

describe('gemini-image refused fields', () => {
  it('mask (any value, or a file), background transparent, stream true', () => {
    const msg = 'The model `gemini-3-pro-image` does not support mask; omit the field.'
    expect400(() => gen(PRO, { mask: 'data:image/png;base64,AA==' }), msg, 'mask')
    expect400(() => gen(PRO, { mask: null }), msg, 'mask')
    expect400(() => gen(PRO, {}, { ...EDITS, maskFile: true }), msg, 'mask')
    expect400(() => gen(PRO, { background: 'transparent' }), 'The model `gemini-3-pro-image` does not support background `transparent`.', 'background')
    expect400(() => gen(PRO, { stream: true }), 'The model `gemini-3-pro-image` does not support streaming: omit stream or send false.', 'stream')
    expect(gen(PRO, { stream: false, background: 'opaque' }).stream).toBe(false)
  })

  it('prompt must not be empty; async is honoured', () => {
    expect400(() => gen(PRO, { prompt: '  ' }), 'prompt must not be empty', 'prompt')
    expect(gen(PRO, {}, { async: true }).async).toBe(true)
  })
})
