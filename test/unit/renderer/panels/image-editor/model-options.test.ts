import { describe, expect, it } from 'vitest'
import { GPT_IMAGE, parseWxH, pixelSizeProblem } from '../../../../../shared/schemas/images'
import {
  deliveryOf, effectiveNMax, endpointControls, fitParams, imageModelOptions, type ImageModelOption,
} from '../../../../../renderer/panels/image-editor/model-options'
import { INDEX, listed } from './catalog-rows'

const ALL = ['gpt-image-2', 'gpt-image-2.5-flare', 'gpt-image-1.5', 'gemini-3-pro-image', 'gemini-3.1-flash-lite-image', 'doubao-seedream-5-5-261028', 'kling-v3-image', 'grok-imagine-image']
const options = (group = {}) => imageModelOptions(listed(...ALL), INDEX, group)
const byId = (id: string, group = {}): ImageModelOption => options(group).find((m) => m.id === id)!

describe('imageModelOptions', () => {
  it('keeps the group image models the index describes, without deprecated ids', () => {
    const ids = options().map((m) => m.id)
    expect(ids).not.toContain('gpt-image-1.5')
    expect(ids).toContain('gpt-image-2')
    expect(imageModelOptions([...listed('gpt-image-2'), { id: 'gpt-x', type: 'chat', family: 'gpt', owned_by: 'x' }, { id: 'unknown', type: 'image', family: 'x', owned_by: 'x' }], INDEX, {}).map((m) => m.id)).toEqual(['gpt-image-2'])
  })

  it('offers Edit only where the model lists the edits endpoint, and never in an official-direct group', () => {
    expect(byId('kling-v3-image').edits).toBeUndefined()
    expect(byId('gemini-3-pro-image').edits).toBeDefined()
    expect(byId('gemini-3-pro-image', { officialDirect: true }).edits).toBeUndefined()
    expect(byId('gemini-3-pro-image', { officialDirect: true }).generations).toBeDefined()
  })

  it('survives a malformed index', () => {
    expect(imageModelOptions(listed('gpt-image-2'), null, {})).toEqual([])
    expect(imageModelOptions(listed('gpt-image-2'), { models: { 'gpt-image-2': 'x' } }, {})).toEqual([])
  })
})

describe('endpointControls: GPT-style', () => {
  const gen = byId('gpt-image-2').generations!
  const edits = byId('gpt-image-2').edits!

  it('offers auto, the tiers and presets that pass the geometry rule, plus a custom size', () => {
    expect(gen.size!.options.slice(0, 4)).toEqual(['auto', '1K', '2K', '4K'])
    expect(gen.size!.custom).toBe(true)
    expect(gen.size!.rule).toEqual(GPT_IMAGE.size)
    expect(gen.size!.default).toBe('auto')
    const presets = gen.size!.options.filter((o) => parseWxH(o))
    expect(presets).toContain('1024x1024')
    expect(presets).toContain('3840x2160')
    expect(presets).not.toContain('4096x4096')
    for (const p of presets) expect(pixelSizeProblem(parseWxH(p)!.width, parseWxH(p)!.height, GPT_IMAGE.size)).toBeUndefined()
  })

  it('the 2.5 variant has no tiers: auto and <W>x<H> only', () => {
    const flare = byId('gpt-image-2.5-flare').generations!
    expect(flare.size!.options.filter((o) => !parseWxH(o))).toEqual(['auto'])
    expect(flare.choices.find((c) => c.field === 'quality')!.values).toEqual(['auto', 'low', 'medium', 'high', 'xhigh', 'max'])
  })

  it('quality from the examples list, formats from the enum, n up to 10; mask and references on edits only', () => {
    expect(gen.choices.map((c) => c.field)).toEqual(['quality', 'output_format'])
    expect(gen.choices[1]).toEqual({ field: 'output_format', values: ['png', 'jpeg', 'webp'], default: 'png' })
    expect(gen.nMax).toBe(10)
    expect(gen.mask).toBe(false)
    expect(gen.references.accepted).toBe(false)
    expect(edits.mask).toBe(true)
    expect(edits.references).toEqual({ accepted: true, max: 16 })
    expect(gen.stream).toBe(true)
    expect(gen.b64).toBe(false)
  })

  it('a single-image group allows n = 1 only', () => {
    expect(byId('gpt-image-2', { singleImage: true }).generations!.nMax).toBe(1)
  })
})

describe('endpointControls: Gemini-style', () => {
  const pro = byId('gemini-3-pro-image')

  it('offers image_size and aspect_ratio (which win over size), no size, no mask, no stream', () => {
    const gen = pro.generations!
    expect(gen.size).toBeUndefined()
    expect(gen.choices.map((c) => c.field)).toEqual(['image_size', 'aspect_ratio'])
    expect(gen.choices[0]).toEqual({ field: 'image_size', values: ['1K', '2K', '4K'], default: '1K' })
    expect(pro.edits!.mask).toBe(false)
    expect(gen.stream).toBe(false)
    expect(gen.references).toEqual({ accepted: true, max: 14 })
  })

  it('caps n by tier: 10 at 1K (the default), 5 at 2K, 2 at 4K', () => {
    const gen = pro.generations!
    expect(gen.nByTier).toEqual({ '1K': 10, '2K': 5, '4K': 2 })
    expect(effectiveNMax(gen, {})).toBe(10)
    expect(effectiveNMax(gen, { image_size: '2K' })).toBe(5)
    expect(effectiveNMax(gen, { image_size: '4K' })).toBe(2)
  })

  it('the lite model has only the 1K tier and at most 3 references', () => {
    const lite = byId('gemini-3.1-flash-lite-image').generations!
    expect(lite.choices[0].values).toEqual(['1K'])
    expect(lite.references.max).toBe(3)
  })
})

describe('endpointControls: Seedream, Kling, Grok', () => {
  it('Seedream: its tiers and presets within its pixel range; n 1; no mask on edits', () => {
    const s = byId('doubao-seedream-5-5-261028')
    const size = s.generations!.size!
    expect(size.options.slice(0, 3)).toEqual(['1K', '1.5K', '2K'])
    expect(size.default).toBe('1K')
    expect(size.options).toContain('2048x2048')
    expect(size.options).not.toContain('3840x2160')
    expect(s.generations!.nMax).toBe(1)
    expect(s.edits!.mask).toBe(false)
    expect(s.generations!.b64).toBe(false)
    expect(s.generations!.stream).toBe(true)
  })

  it('Kling: resolution and aspect ratio instead of size; n up to 9', () => {
    const k = byId('kling-v3-image').generations!
    expect(k.size).toBeUndefined()
    expect(k.choices.map((c) => c.field)).toEqual(['resolution', 'aspect_ratio'])
    expect(k.nMax).toBe(9)
  })

  it('Grok: asks for inline images where response_format offers b64_json', () => {
    const g = byId('grok-imagine-image')
    expect(g.generations!.b64).toBe(true)
    expect(g.edits!.references.max).toBe(4)
    expect(g.edits!.mask).toBe(false)
  })
})

describe('deliveryOf', () => {
  it('a task for GPT- and Gemini-style (spec §4.2), else the images SSE where stream is allowed, else one request', () => {
    expect(deliveryOf(byId('gpt-image-2').delivery, byId('gpt-image-2').generations!)).toBe('async')
    expect(deliveryOf(byId('gemini-3-pro-image').delivery, byId('gemini-3-pro-image').generations!)).toBe('async')
    expect(deliveryOf(byId('doubao-seedream-5-5-261028').delivery, byId('doubao-seedream-5-5-261028').generations!)).toBe('stream')
    expect(deliveryOf(byId('kling-v3-image').delivery, byId('kling-v3-image').generations!)).toBe('sync')
  })

  it('reads the modes from the index: the first the endpoint allows, one plain request when none is given', () => {
    const seedream = byId('doubao-seedream-5-5-261028')
    expect(seedream.delivery).toEqual(['stream', 'sync'])
    expect(deliveryOf(['stream', 'async'], { ...seedream.generations!, stream: false })).toBe('async')
    expect(deliveryOf([], seedream.generations!)).toBe('sync')
    const entry = (INDEX as { models: Record<string, object> }).models['gpt-image-2']
    const unknownModes = imageModelOptions(listed('gpt-image-2'), { models: { 'gpt-image-2': { ...entry, delivery: ['later', 'async'] } } }, {})
    expect(unknownModes[0].delivery).toEqual(['async'])
  })
})

describe('fitParams', () => {
  it('drops values the new model does not accept', () => {
    const seedream = byId('doubao-seedream-5-5-261028').generations!
    expect(fitParams({ size: '4K', quality: 'high', output_format: 'jpeg' }, seedream)).toEqual({ output_format: 'jpeg' })
    expect(fitParams({ size: '2K' }, seedream)).toEqual({ size: '2K' })
    expect(fitParams({ size: '2K' }, undefined)).toEqual({})
  })
})

describe('endpointControls on hand-written schemas', () => {
  it('a schema without n allows one image; a `mask: false` is no mask', () => {
    const c = endpointControls({ properties: { prompt: { type: 'string' }, mask: false } })
    expect(c.nMax).toBe(1)
    expect(c.mask).toBe(false)
    expect(c.size).toBeUndefined()
  })

  it('a <W>x<H> pattern without a geometry rule offers every preset', () => {
    const c = endpointControls({ properties: { size: { anyOf: [{ type: 'string', pattern: '^[1-9][0-9]*x[1-9][0-9]*$' }] } } })
    expect(c.size!.custom).toBe(true)
    expect(c.size!.options).toContain('4096x4096')
  })
})
