import { describe, expect, it } from 'vitest'
import { check, dataUrl, EDITS, expect400, SEEDREAM_SIZE_CASES, urls, type Obj } from './helpers.js'

const S55 = 'doubao-seedream-5-5-261028'
const S50 = 'doubao-seedream-5-0-260128'
const S45 = 'doubao-seedream-4-5-251128'
const gen = (id: string, body: Obj, opts = {}) => check(id, { prompt: 'a fox', ...body }, opts)
const edit = (id: string, body: Obj, opts = {}) => check(id, { prompt: 'a fox', ...body }, { ...EDITS, ...opts })

describe('seedream prompt', () => {
  it('missing or blank answers 400 `missing prompt`', () => {
    expect400(() => check(S50, {}), 'missing prompt', 'prompt')
    expect400(() => gen(S50, { prompt: '' }), 'missing prompt', 'prompt')
    expect400(() => gen(S50, { prompt: ' \n ' }), 'missing prompt', 'prompt')
    expect(gen(S50, { prompt: 'x' }).prompt).toBe('x')
  })
})

describe('seedream size', () => {
  it.each(SEEDREAM_SIZE_CASES)('%s (%s, %s) accepted=%s', (_name, id, size, ok) => {
    if (ok) expect(() => gen(id, { size })).not.toThrow()
    else expect(() => gen(id, { size })).toThrow()
  })

  it.each([
    [S55, '959x961', 'the total pixels (921599) must be between 921600 and 4624220'],
    [S55, '1634x2831', 'the total pixels (4625854) must be between 921600 and 4624220'],
    [S45, '4096x4097', 'the total pixels (16781312) must be between 3686400 and 16777216'],
    [S45, '7681x480', 'the width:height ratio must be between 1:16 and 16:1'],
    [S45, '480x7681', 'the width:height ratio must be between 1:16 and 16:1'],
    [S55, '4K', 'the size tier 4K is not accepted by this model; use a tier (1K, 1.5K, 2K) or <W>x<H>'],
    [S50, 'auto', 'use a tier (2K, 3K, 4K) or <W>x<H>'],
  ])('%s %s answers 400: %s', (id, size, reason) => {
    expect400(() => gen(id, { size }), `Invalid size \`${size}\` for the model \`${id}\`: ${reason}.`, 'size')
  })

  it('null is refused; absent means the vendor default', () => {
    expect400(() => gen(S45, { size: null }), `Invalid size \`null\` for the model \`${S45}\`: use a tier (2K, 4K) or <W>x<H>.`, 'size')
    expect(gen(S45, {}).size).toBeUndefined()
    expect(gen(S45, { size: '2K' })).toMatchObject({ tier: '2K' })
    expect(gen(S45, { size: '7680x480' }).size).toEqual({ width: 7680, height: 480 })
  })
})

describe('seedream n, formats, options', () => {
  it('n is only 1', () => {
    expect(gen(S50, {}).n).toBe(1)
    expect(gen(S50, { n: 1 }).n).toBe(1)
    for (const n of [0, 2]) {
      expect400(() => gen(S50, { n }), `The model \`${S50}\` generates one image per request: n must be 1 (got ${n}).`, 'n')
    }
  })

  it('output_format follows the model (4.5: jpeg only)', () => {
    expect(gen(S50, { output_format: 'png' }).outputFormat).toBe('png')
    expect(gen(S45, { output_format: 'jpeg' }).outputFormat).toBe('jpeg')
    expect400(() => gen(S45, { output_format: 'png' }), `output_format \`png\` is not supported by the model \`${S45}\`; allowed values: jpeg.`, 'output_format')
  })

  it('response_format is url only', () => {
    expect(gen(S50, { response_format: 'url' }).forward).toEqual({})
    expect400(() => gen(S50, { response_format: 'b64_json' }), `response_format \`b64_json\` is not supported by the model \`${S50}\`; allowed values: url.`, 'response_format')
  })

  it('optimize_prompt_options must be an object with one of the model\'s modes', () => {
    expect(gen(S55, { optimize_prompt_options: { mode: 'fast' } }).forward).toEqual({ optimize_prompt_options: { mode: 'fast' } })
    expect400(() => gen(S50, { optimize_prompt_options: { mode: 'fast' } }), `mode \`fast\` is not supported by the model \`${S50}\`; allowed values: standard.`, 'optimize_prompt_options.mode')
    for (const bad of ['fast', null, []]) {
      expect400(() => gen(S50, { optimize_prompt_options: bad }), 'optimize_prompt_options: must be an object', 'optimize_prompt_options')
    }
  })

  it('ignores Prefer: respond-async and drops the watermark flag', () => {
    expect(gen(S50, { watermark: true, stream: true }, { async: true })).toMatchObject({ async: false, stream: true, forward: {} })
  })
})

describe('seedream references', () => {
  it('edits need at least one; at most maxReferenceImages', () => {
    expect400(() => edit(S55, {}), 'The edits endpoint needs at least one reference image in image.', 'image')
    expect(edit(S55, {}, { imageFiles: 1 }).referenceCount).toBe(1)
    expect(edit(S55, { image: urls(10) }).referenceCount).toBe(10)
    expect400(() => edit(S55, { image: urls(11) }), `Too many reference images for the model \`${S55}\`: 11 sent, at most 10.`, 'image')
    expect(gen(S50, { image: urls(14) }).referenceCount).toBe(14)
    expect400(() => gen(S50, { image: urls(15) }), `Too many reference images for the model \`${S50}\`: 15 sent, at most 14.`, 'image')
    expect(gen(S50, {}).referenceCount).toBe(0)
  })

  it('data URLs at most 31457280 bytes each; HTTP URLs unchecked', () => {
    const prefix = 'data:image/png;base64,'
    const exact = dataUrl(31457280 - prefix.length)
    expect(exact).toHaveLength(31457280)
    expect(edit(S50, { image: exact }).references).toEqual([exact])
    expect400(() => edit(S50, { image: [exact + 'A'] }), 'image[0] is too large: 31457281 bytes, at most 31457280.', 'image[0]')
    const longUrl = `https://example.com/${'a'.repeat(31457300)}`
    expect(edit(S50, { image: longUrl }).referenceCount).toBe(1)
  })

  it('a mask on edits answers 400, even null; on generations it is forwarded', () => {
    const msg = `The model \`${S50}\` does not support mask; omit the field.`
    expect400(() => edit(S50, { image: urls(1), mask: null }), msg, 'mask')
    expect400(() => edit(S50, { image: urls(1), mask: 'https://example.com/m.png' }), msg, 'mask')
    expect400(() => edit(S50, { image: urls(1) }, { maskFile: true }), msg, 'mask')
    expect(gen(S50, { mask: null }).forward).toEqual({ mask: null })
  })
})
