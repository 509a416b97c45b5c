import { describe, expect, it } from 'vitest'
import { check, EDITS, expect400, GPT_SIZE_CASES, urls, type Obj } from './helpers.js'

const GPT2 = 'gpt-image-2'
const GPT25 = 'gpt-image-2.5-flare'
const gen = (body: Obj, opts = {}) => check(GPT2, { prompt: 'a fox', ...body }, opts)
const edit = (body: Obj, opts = {}) => check(GPT2, { prompt: 'a fox', ...body }, { ...EDITS, ...opts })

describe('gpt-image prompt', () => {
  it('is required, trimmed non-empty, and at most 32000 characters', () => {
    expect400(() => check(GPT2, {}), 'missing prompt field', 'prompt')
    expect400(() => gen({ prompt: '' }), 'prompt must not be empty', 'prompt')
    expect400(() => gen({ prompt: ' \n\t ' }), 'prompt must not be empty', 'prompt')
    expect400(() => gen({ prompt: 42 }), 'prompt: must be a string', 'prompt')
    expect(gen({ prompt: 'x' }).prompt).toBe('x')
    expect(gen({ prompt: 'x'.repeat(32000) }).prompt).toHaveLength(32000)
    expect400(
      () => gen({ prompt: 'x'.repeat(32001) }),
      'prompt is too long: 32001 characters, at most 32000 for the model `gpt-image-2`.',
      'prompt',
    )
  })

  it('counts characters as code points (an emoji is one character)', () => {
    expect(() => gen({ prompt: '😀'.repeat(32000) })).not.toThrow()
  })
})

describe('gpt-image size', () => {
  it.each(GPT_SIZE_CASES)('%s: %s accepted=%s', (_name, size, ok) => {
    if (ok) expect(() => gen({ size })).not.toThrow()
    else expect(() => gen({ size })).toThrow()
  })

  it.each([
    ['3856x1296', 'each side must be at most 3840 pixels'],
    ['1024x624', 'the total pixels (638976) must be between 655360 and 8294400'],
    ['3840x2176', 'the total pixels (8355840) must be between 655360 and 8294400'],
    ['2320x768', 'the width:height ratio must be between 1:3 and 3:1'],
    ['768x2320', 'the width:height ratio must be between 1:3 and 3:1'],
    ['1032x1024', 'width and height must be multiples of 16'],
    ['big', 'use auto, a tier (1K, 2K, 4K) or <W>x<H>'],
  ])('%s answers 400 explaining: %s', (size, reason) => {
    expect400(() => gen({ size }), `Invalid size \`${size}\` for the model \`gpt-image-2\`: ${reason}.`, 'size')
  })

  it('normalizes auto, WxH and the 2.0 variant tier names', () => {
    expect(gen({ size: 'auto' }).size).toBe('auto')
    expect(gen({ size: '1536x1024' }).size).toEqual({ width: 1536, height: 1024 })
    expect(gen({ size: '2K' })).toMatchObject({ tier: '2K' })
    expect(gen({ size: '2K' }).size).toBeUndefined()
    expect(gen({ size: null }).size).toBeUndefined()
    expect(gen({}).size).toBeUndefined()
  })

  it('refuses tier names on the 2.5 variant', () => {
    expect400(
      () => check(GPT25, { prompt: 'p', size: '1K' }),
      'Invalid size `1K` for the model `gpt-image-2.5-flare`: the size tier 1K is not accepted by this model; use auto or <W>x<H>.',
      'size',
    )
    expect(check(GPT25, { prompt: 'p', size: '3840x1280' }).size).toEqual({ width: 3840, height: 1280 })
  })
})

describe('gpt-image n', () => {
  it.each([
    [undefined, 1], [null, 1], [1, 1], [10, 10], [0, 1], [-5, 1],
  ])('n=%s -> %s', (n, expected) => {
    expect(gen({ n }).n).toBe(expected)
  })

  it('refuses more than maxN and non-integers', () => {
    expect400(() => gen({ n: 11 }), 'n must be an integer from 1 to 10 for the model `gpt-image-2` (got 11).', 'n')
    expect400(() => gen({ n: 1.5 }), 'n: must be an integer', 'n')
    expect400(() => gen({ n: '2' }), 'n: must be an integer', 'n')
  })

  it('a group limited to one image refuses n > 1 but still reads n <= 0 as 1', () => {
    expect(gen({ n: 1 }, { singleImageGroup: true }).n).toBe(1)
    expect(gen({ n: 0 }, { singleImageGroup: true }).n).toBe(1)
    expect400(() => gen({ n: 2 }, { singleImageGroup: true }), "This API key's group supports only one image per request: n must be 1 (got 2).", 'n')
  })
})

describe('gpt-image background, formats, compression', () => {
  it('transparent needs png or webp (png is the default)', () => {
    expect(gen({ background: 'transparent' }).background).toBe('transparent')
    expect(gen({ background: 'transparent', output_format: 'png' }).outputFormat).toBe('png')
    expect(gen({ background: 'transparent', output_format: 'webp' }).outputFormat).toBe('webp')
    expect400(
      () => gen({ background: 'transparent', output_format: 'jpeg' }),
      'background `transparent` requires output_format png or webp (got jpeg).',
      'background',
    )
    expect(gen({ background: 'opaque', output_format: 'jpeg' }).background).toBe('opaque')
  })

  it('closed value lists answer 400 naming the allowed values', () => {
    expect400(() => gen({ background: 'clear' }), 'background `clear` is not supported by the model `gpt-image-2`; allowed values: auto, opaque, transparent.', 'background')
    expect400(() => gen({ output_format: 'gif' }), 'output_format `gif` is not supported by the model `gpt-image-2`; allowed values: png, jpeg, webp.', 'output_format')
    expect400(() => gen({ moderation: 'off' }), 'moderation `off` is not supported by the model `gpt-image-2`; allowed values: auto, low.', 'moderation')
  })

  it('output_compression is an integer 0..100', () => {
    expect(gen({ output_compression: 0 }).outputCompression).toBe(0)
    expect(gen({ output_compression: 100 }).outputCompression).toBe(100)
    for (const bad of [-1, 101, 50.5, '50']) {
      expect400(() => gen({ output_compression: bad }), 'output_compression: must be an integer from 0 to 100', 'output_compression')
    }
  })

  it('quality is forwarded without validation', () => {
    expect(gen({ quality: 'ultra' }).quality).toBe('ultra')
    expect(check(GPT25, { prompt: 'p', quality: 'xhigh' }).quality).toBe('xhigh')
  })
})

describe('gpt-image kept and dropped fields', () => {
  const extras = { output_compression: 80, moderation: 'low', user: 'u-1', response_format: 'url', input_fidelity: 'high' }

  it.each([
    ['sync JSON generations', { endpoint: 'generations' }, true],
    ['async JSON generations', { endpoint: 'generations', async: true }, false],
    ['sync JSON edits', { endpoint: 'edits' }, false],
    ['sync multipart edits', { endpoint: 'edits', multipart: true }, true],
    ['async multipart edits', { endpoint: 'edits', multipart: true, async: true }, false],
  ])('%s keeps output_compression/moderation/user: %s', (_name, opts, kept) => {
    const image = (opts as Obj).endpoint === 'edits' ? { image: urls(1) } : {}
    const out = check(GPT2, { prompt: 'p', ...image, ...extras }, opts as Obj)
    expect(out.outputCompression).toBe(kept ? 80 : undefined)
    expect(out.forward).toEqual(kept ? { moderation: 'low', user: 'u-1', input_fidelity: 'high' } : { input_fidelity: 'high' })
  })

  it('response_format is always dropped; stream is off for async tasks', () => {
    expect(gen({ response_format: 'b64_json' }).forward).toEqual({})
    expect(gen({ stream: true }).stream).toBe(true)
    expect(gen({ stream: true }, { async: true })).toMatchObject({ stream: false, async: true })
    expect400(() => gen({ stream: 'yes' }), 'stream: must be a boolean (true or false)', 'stream')
  })
})

describe('gpt-image edits references', () => {
  it('needs 1..16 images, URLs and files counted together', () => {
    expect400(() => edit({}), 'The edits endpoint needs at least one reference image in image.', 'image')
    expect(edit({ image: urls(16) }).referenceCount).toBe(16)
    expect(edit({}, { imageFiles: 16 }).referenceCount).toBe(16)
    expect(edit({ image: urls(15) }, { imageFiles: 1 }).referenceCount).toBe(16)
    expect400(() => edit({ image: urls(17) }), 'Too many reference images for the model `gpt-image-2`: 17 sent, at most 16.', 'image')
    expect400(() => edit({ image: urls(16) }, { imageFiles: 1 }), 'Too many reference images for the model `gpt-image-2`: 17 sent, at most 16.', 'image')
  })

  it('reads image (and image[]), never images', () => {
    expect(edit({ image: 'https://example.com/a.png' }).references).toEqual(['https://example.com/a.png'])
    expect(edit({ 'image[]': urls(2) }).references).toEqual(urls(2))
    expect400(() => edit({ images: urls(1) }), 'The edits endpoint needs at least one reference image in image.', 'image')
    expect(edit({ image: urls(1), images: urls(1) }).forward).toEqual({})
  })

  it('accepts HTTP(S) and data URLs; refuses raw base64 and file ids', () => {
    expect(edit({ image: ['data:image/png;base64,iVBORw0KGgo=', 'http://example.com/x'] }).referenceCount).toBe(2)
    expect400(
      () => edit({ image: ['https://example.com/a.png', 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAAB'] }),
      'image[1]: raw base64 is not accepted; send a data URL (data:image/png;base64,...) or an HTTP(S) URL.',
      'image[1]',
    )
    expect400(() => edit({ image: 'file-abc123' }), 'image: file IDs are not accepted; upload the image as a file, or send a data URL or an HTTP(S) URL.', 'image')
    expect400(() => edit({ image: [{ file_id: 'file-1' }] }), 'image[0]: file IDs are not accepted; upload the image as a file, or send a data URL or an HTTP(S) URL.', 'image[0]')
    expect400(() => edit({ image: 'ftp://x' }), 'image must be an HTTP(S) URL or a data URL (data:image/...;base64,...).', 'image')
  })

  it('the mask is a URL/data URL in JSON or a file part', () => {
    expect(edit({ image: urls(1), mask: 'data:image/png;base64,iVBORw0KGgo=' }).mask).toBe('data:image/png;base64,iVBORw0KGgo=')
    expect(edit({ image: urls(1) }, { maskFile: true }).mask).toBe(true)
    expect(edit({ image: urls(1) }).mask).toBeUndefined()
    expect400(() => edit({ image: urls(1), mask: 'mask' }), 'mask must be an HTTP(S) URL or a data URL (data:image/...;base64,...).', 'mask')
  })

  it('multipart text fields are read as JSON would carry them', () => {
    const out = edit({ n: '3', stream: 'true', output_compression: '70' }, { multipart: true, imageFiles: 1 })
    expect(out).toMatchObject({ n: 3, stream: true, outputCompression: 70 })
  })
})
