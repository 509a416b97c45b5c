import Ajv2020 from 'ajv/dist/2020.js'
import { describe, expect, it } from 'vitest'
import { isCallable } from '../../../../electron/gateway/catalog/catalog.js'
import { checkImageRequest } from '../../../../electron/gateway/images/image-rules.js'
import type { ImageEndpoint } from '../../../../electron/gateway/contract/image-request.js'
import { imageModelSchema, imageSchemaIndex } from '../../../../electron/gateway/families/image-schemas.js'
import { imageEditRequest, imageGenerationRequest, imageSizeKeyword } from '../../../../shared/schemas/images.js'
import { catalog, dataUrl, GPT_SIZE_CASES, model, SEEDREAM_SIZE_CASES, urls, type Obj } from './helpers.js'

const ajv = new Ajv2020.default({ strict: true, allErrors: true })
ajv.addKeyword(imageSizeKeyword)

const validators = new Map<string, (v: unknown) => boolean>()
function schemaAccepts(id: string, endpoint: ImageEndpoint, body: Obj): boolean {
  const key = `${id}/${endpoint}`
  if (!validators.has(key)) {
    const v = ajv.compile(imageModelSchema(model(id), endpoint))
    validators.set(key, (x) => v(x) as boolean)
  }
  return validators.get(key)!(body)
}

function rulesAccept(id: string, endpoint: ImageEndpoint, body: Obj): boolean {
  try {
    checkImageRequest(body, model(id), { endpoint, async: false })
    return true
  } catch {
    return false
  }
}

type Case = [string, string, ImageEndpoint, Obj, boolean]

const GPT = 'gpt-image-2'
const S50 = 'doubao-seedream-5-0-260128'
const S45 = 'doubao-seedream-4-5-251128'
const LITE = 'gemini-3.1-flash-lite-image'
const PRO = 'gemini-3-pro-image'

const CASES: Case[] = [
  ...GPT_SIZE_CASES.map(([name, size, ok]): Case => [`gpt size ${name}`, GPT, 'generations', { size }, ok]),
  ...GPT_SIZE_CASES.map(([name, size, ok]): Case => [`gpt 2.5 size ${name}`, 'gpt-image-2.5-sunburst', 'generations', { size }, ok]),
  ['gpt 2.0 tier 4K', GPT, 'generations', { size: '4K' }, true],
  ['gpt 2.5 tier 4K', 'gpt-image-2.5-sunburst', 'generations', { size: '4K' }, false],
  ['gpt prompt 32000', GPT, 'generations', { prompt: 'x'.repeat(32000) }, true],
  ['gpt prompt 32001', GPT, 'generations', { prompt: 'x'.repeat(32001) }, false],
  ['gpt blank prompt', GPT, 'generations', { prompt: ' \t' }, false],
  ['gpt n 10', GPT, 'generations', { n: 10 }, true],
  ['gpt n 11', GPT, 'generations', { n: 11 }, false],
  ['gpt n 0 (read as 1)', GPT, 'generations', { n: 0 }, true],
  ['gpt n 1.5', GPT, 'generations', { n: 1.5 }, false],
  ['gpt transparent jpeg', GPT, 'generations', { background: 'transparent', output_format: 'jpeg' }, false],
  ['gpt transparent webp', GPT, 'generations', { background: 'transparent', output_format: 'webp' }, true],
  ['gpt transparent default png', GPT, 'generations', { background: 'transparent' }, true],
  ['gpt compression 100', GPT, 'generations', { output_compression: 100 }, true],
  ['gpt compression 101', GPT, 'generations', { output_compression: 101 }, false],
  ['gpt moderation off', GPT, 'generations', { moderation: 'off' }, false],
  ['gpt quality free', GPT, 'generations', { quality: 'anything' }, true],
  ['gpt response_format ignored', GPT, 'generations', { response_format: 'url' }, true],
  ['gpt edits 16 images', GPT, 'edits', { image: urls(16) }, true],
  ['gpt edits 17 images', GPT, 'edits', { image: urls(17) }, false],
  ['gpt edits no image', GPT, 'edits', {}, false],
  ['gpt edits images only', GPT, 'edits', { images: urls(1) }, false],
  ['gpt edits raw base64', GPT, 'edits', { image: 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAAB' }, false],
  ['gpt edits data URL + mask', GPT, 'edits', { image: 'data:image/png;base64,AAAA', mask: 'data:image/png;base64,AAAA' }, true],
  ...SEEDREAM_SIZE_CASES.map(([name, id, size, ok]): Case => [`seedream size ${name}`, id, 'generations', { size }, ok]),
  ['seedream n 2', S50, 'generations', { n: 2 }, false],
  ['seedream n 0', S50, 'generations', { n: 0 }, false],
  ['seedream blank prompt', S50, 'generations', { prompt: '  ' }, false],
  ['seedream 4.5 png', S45, 'generations', { output_format: 'png' }, false],
  ['seedream 5.0 png', S50, 'generations', { output_format: 'png' }, true],
  ['seedream b64_json', S50, 'generations', { response_format: 'b64_json' }, false],
  ['seedream fast on 5.0', S50, 'generations', { optimize_prompt_options: { mode: 'fast' } }, false],
  ['seedream fast on 5.5', 'doubao-seedream-5-5-261028', 'generations', { optimize_prompt_options: { mode: 'fast' } }, true],
  ['seedream options null', S50, 'generations', { optimize_prompt_options: null }, false],
  ['seedream watermark anything', S50, 'generations', { watermark: 'yes' }, true],
  ['seedream edits no image', S50, 'edits', {}, false],
  ['seedream edits 14 images', S50, 'edits', { image: urls(14) }, true],
  ['seedream edits 15 images', S50, 'edits', { image: urls(15) }, false],
  ['seedream edits mask null', S50, 'edits', { image: urls(1), mask: null }, false],
  ['seedream data URL at the cap', S50, 'edits', { image: dataUrl(31457280 - 22) }, true],
  ['seedream data URL over the cap', S50, 'edits', { image: dataUrl(31457281 - 22) }, false],
  ['gemini lite size 4K', LITE, 'generations', { size: '4K' }, false],
  ['gemini lite size 4K with image_size', LITE, 'generations', { size: '4K', image_size: '1K' }, true],
  ['gemini lite size 4K with nested image_size', LITE, 'generations', { size: '4K', google: { image_config: { image_size: '1K' } } }, true],
  ['gemini lite image_size 2K', LITE, 'generations', { image_size: '2K' }, false],
  ['gemini pro 2K n 5', PRO, 'generations', { image_size: '2K', n: 5 }, true],
  ['gemini pro 2K n 6', PRO, 'generations', { image_size: '2K', n: 6 }, false],
  ['gemini pro size 4K n 3', PRO, 'generations', { size: '4K', n: 3 }, false],
  ['gemini pro size 4K overridden by image_size 1K, n 3', PRO, 'generations', { size: '4K', image_size: '1K', n: 3 }, true],
  ['gemini pro nested image_size 2K n 6', PRO, 'generations', { google: { image_config: { image_size: '2K' } }, n: 6 }, false],
  ['gemini pro extra_body image_size 4K n 3', PRO, 'generations', { extra_body: { google: { image_config: { image_size: '4K' } } }, n: 3 }, false],
  ['gemini pro top-level 1K wins over nested 4K, n 3', PRO, 'generations', { image_size: '1K', google: { image_config: { image_size: '4K' } }, n: 3 }, true],
  ['gemini lite size 2K with extra_body image_size', LITE, 'generations', { size: '2K', extra_body: { google: { image_config: { image_size: '1K' } } } }, true],
  ['gemini any-ratio WxH', PRO, 'generations', { size: '1234x567' }, true],
  ['gemini mask null', PRO, 'generations', { mask: null }, false],
  ['gemini stream true', PRO, 'generations', { stream: true }, false],
  ['gemini transparent', PRO, 'generations', { background: 'transparent' }, false],
  ['gemini 14 images', PRO, 'generations', { images: urls(14) }, true],
  ['gemini 15 images', PRO, 'generations', { images: urls(15) }, false],
  ['gemini bad aspect', PRO, 'generations', { aspect_ratio: '7:3' }, false],
  ['kling n 9', 'kling-v3-image', 'generations', { n: 9 }, true],
  ['kling n 10', 'kling-v3-image', 'generations', { n: 10 }, false],
  ['kling prompt 2501', 'kling-v3-image', 'generations', { prompt: 'x'.repeat(2501) }, false],
  ['kling v2.1 two references', 'kling-v2-1-image', 'generations', { image: urls(2) }, false],
  ['kling size 4K', 'kling-v3-image', 'generations', { size: '4K' }, false],
  ['kling size 2k', 'kling-v3-image', 'generations', { size: '2k' }, true],
  ['grok edits no reference', 'grok-imagine-image', 'edits', {}, false],
  ['grok edits 4 images', 'grok-imagine-image', 'edits', { images: urls(4) }, true],
  ['grok edits 5 images', 'grok-imagine-image', 'edits', { images: urls(5) }, false],
  ['grok png', 'grok-imagine-image', 'generations', { output_format: 'png' }, false],
  ['grok aspect auto', 'grok-imagine-image', 'generations', { aspect_ratio: 'auto' }, true],
]

describe('imageModelSchema agrees with the rules (one source of truth)', () => {
  // Named by the case and its expected answer, not by its fields (one is a 30 MB data URL: a name that size goes to every reporter).
  it.each(CASES.map(([name, id, endpoint, fields, ok]) => [name, id, endpoint, ok, fields] as const))('%s (%s %s) accepted=%s', (_name, id, endpoint, ok, fields) => {
    const body = { model: id, prompt: 'a fox', ...fields }
    expect(rulesAccept(id, endpoint, body)).toBe(ok)
    expect(schemaAccepts(id, endpoint, body)).toBe(ok)
  })
})

describe('imageModelSchema content', () => {
  it('is built from the catalog entry', () => {
    const gpt = imageModelSchema(model(GPT), 'edits') as Obj
    expect(gpt.properties.model).toMatchObject({ const: GPT })
    expect(gpt.properties.n.maximum).toBe(10)
    expect(gpt.properties.image.anyOf[1]).toMatchObject({ maxItems: 16, minItems: 1 })
    expect(gpt.properties.size.anyOf[0].enum).toEqual(['auto', '1K', '2K', '4K'])
    expect(gpt.properties.size.anyOf[1]['x-image-size']).toEqual({ multipleOf: 16, maxSide: 3840, minRatio: '1:3', maxRatio: '3:1', minPixels: 655360, maxPixels: 8294400 })
    expect(gpt.title).toContain('/v1/images/edits')
    const seed = imageModelSchema(model('doubao-seedream-5-5-261028'), 'generations') as Obj
    expect(seed.properties.size.anyOf[0].enum).toEqual(['1K', '1.5K', '2K'])
    expect(seed.properties.size.anyOf[1]['x-image-size']).toEqual({ minRatio: '1:16', maxRatio: '16:1', minPixels: 921600, maxPixels: 4624220 })
    expect(seed.properties.optimize_prompt_options.properties.mode.enum).toEqual(['standard', 'fast', null])
    const lite = imageModelSchema(model(LITE), 'generations') as Obj
    expect(lite.properties.image_size.enum).toEqual(['1K', null])
    expect(lite.properties.images.anyOf[1].maxItems).toBe(3)
  })

  it('without the x-image-size keyword a lenient validator still checks the size syntax', () => {
    const lenient = new Ajv2020.default({ strict: false }).compile(imageModelSchema(model(GPT), 'generations'))
    expect(lenient({ model: GPT, prompt: 'p', size: '1024x624' })).toBe(true)
    expect(lenient({ model: GPT, prompt: 'p', size: 'big' })).toBe(false)
  })

  it('the model-independent request schemas compile', () => {
    expect(ajv.compile(imageGenerationRequest)({ model: 'm', prompt: 'p', n: 2 })).toBe(true)
    expect(ajv.compile(imageEditRequest)({ model: 'm', prompt: 'p', 'image[]': ['https://x/y.png'] })).toBe(true)
  })
})

describe('imageSchemaIndex', () => {
  const index = imageSchemaIndex(catalog) as Obj

  it('is a 2020-12 document with the published version', () => {
    expect(index.$schema).toBe('https://json-schema.org/draft/2020-12/schema')
    expect(index.version).toBe('2026-09-25')
  })

  it('covers every non-retired image model of the catalog, and only those', () => {
    const expected = catalog.filter((m) => m.type === 'image' && !m.retired).map((m) => m.id).sort()
    expect(Object.keys(index.models).sort()).toEqual(expected)
    expect(expected.length).toBeGreaterThanOrEqual(15)
  })

  it('lists each model\'s endpoints with a compilable schema per endpoint', () => {
    for (const [id, entry] of Object.entries<Obj>(index.models)) {
      const m = model(id)
      const endpoints = (m.endpoints ?? []).filter((e) => e.startsWith('images.')).map((e) => e.slice('images.'.length))
      expect(entry.family).toBe(m.family)
      expect(entry.endpoints).toEqual(endpoints)
      for (const endpoint of endpoints) {
        expect(() => ajv.compile(entry[endpoint])).not.toThrow()
      }
      if (!endpoints.includes('edits')) expect(entry.edits).toBeUndefined()
      expect(Boolean(entry.deprecated)).toBe(!isCallable(m))
    }
  })
})
