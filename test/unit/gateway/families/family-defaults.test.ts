import { describe, expect, it } from 'vitest'
import { createCatalog, endpointsOf, loadBuiltinModels } from '../../../../electron/gateway/catalog/catalog.js'
import { GatewayError } from '../../../../electron/gateway/errors.js'
import { effectiveModel, FAMILY_MODULES, familyModule } from '../../../../electron/gateway/families/index.js'
import { mergeDefaults } from '../../../../electron/gateway/families/kit/merge-defaults.js'
import { checkImageRequest } from '../../../../electron/gateway/images/image-rules.js'
import { FAMILIES, FAMILY_TYPE, type CatalogModel, type Family } from '../../../../shared/types.js'
import { thrownBy } from '../../../helpers/thrown.js'

type Obj = Record<string, any>

/** A row as the README's config section invites: an id, a family, a vendor and a price, nothing else. */
const bare = (family: Family, id = `next-${family}`): CatalogModel =>
  ({ id, family, vendor: 'openai', type: FAMILY_TYPE[family], created: 0, pricing: { unit: 'image', price: 1 } }) as CatalogModel

describe('mergeDefaults', () => {
  it('merges objects key by key at every depth; the row wins', () => {
    expect(mergeDefaults({ limits: { contextTokens: 10, maxOutputTokens: 5 }, maxN: 10 }, { limits: { maxOutputTokens: 7 } }))
      .toEqual({ limits: { contextTokens: 10, maxOutputTokens: 7 }, maxN: 10 })
    expect(mergeDefaults({ a: { b: { c: 1, d: 2 } } }, { a: { b: { d: 3 } } })).toEqual({ a: { b: { c: 1, d: 3 } } })
  })
  it('a row\'s list replaces the default list whole, an empty one included; an undefined field keeps the default', () => {
    expect(mergeDefaults({ aspectRatios: ['1:1', '16:9'], sizeTiers: ['1K'] }, { aspectRatios: ['4:3'], sizeTiers: [] })).toEqual({ aspectRatios: ['4:3'], sizeTiers: [] })
    expect(mergeDefaults({ maxN: 10 }, { maxN: undefined })).toEqual({ maxN: 10 })
  })
  it('a value of another kind replaces the default, and neither input changes', () => {
    const defaults = { limits: { contextTokens: 10 }, x: [1] }
    const row = { limits: 'none', x: { y: 1 } }
    expect(mergeDefaults(defaults, row)).toEqual({ limits: 'none', x: { y: 1 } })
    expect(defaults).toEqual({ limits: { contextTokens: 10 }, x: [1] })
    expect(row).toEqual({ limits: 'none', x: { y: 1 } })
  })
})

describe('the family registry', () => {
  it('has one module per family, of the family\'s type, naming its endpoints', () => {
    expect(Object.keys(FAMILY_MODULES).sort()).toEqual([...FAMILIES].sort())
    for (const family of FAMILIES) {
      const module = familyModule(family)
      expect([module.name, module.type]).toEqual([family, FAMILY_TYPE[family]])
      expect(module.defaults.endpoints?.length, family).toBeGreaterThan(0)
    }
  })
  it('gives rules to the families that have them: chat rules for GLM, GLM Flash and Qwen, an image rule and schema per image family', () => {
    const withChatRules = FAMILIES.filter((f) => familyModule(f).chatRules)
    const withImageRule = FAMILIES.filter((f) => familyModule(f).imageRule)
    const withImageSchema = FAMILIES.filter((f) => familyModule(f).imageSchema)
    expect(withChatRules).toEqual(['glm', 'glm-flash', 'qwen'])
    expect(withImageRule).toEqual(FAMILIES.filter((f) => FAMILY_TYPE[f] === 'image'))
    expect(withImageSchema).toEqual(withImageRule)
  })
  it('answers a family it does not know with an error, not with "no rules"', () => {
    expect(() => familyModule('nope' as Family)).toThrow('unknown model family nope')
  })
})

describe('effective models', () => {
  it.each(FAMILIES)('a bare %s row gets every default of its family', (family) => {
    const model = effectiveModel(bare(family))
    for (const [key, value] of Object.entries(familyModule(family).defaults)) expect(model[key], key).toEqual(value)
    expect(endpointsOf(model)).toEqual(familyModule(family).defaults.endpoints)
  })

  it('catalog data overrides the family: a variant\'s own lists, a Gemini model\'s tiers, a row\'s limits', () => {
    const catalog = createCatalog(loadBuiltinModels(), [])
    expect(catalog.get('gpt-image-2')).toMatchObject({ variant: '2.0', sizeTiers: ['auto', '1K', '2K', '4K'], maxN: 10 })
    expect(catalog.get('gemini-3.1-flash-lite-image')).toMatchObject({ imageSizes: ['1K'], maxReferenceImages: 3, maxNByTier: { '1K': 10, '2K': 5, '4K': 2 } })
    expect(catalog.get('doubao-seedream-4-5-251128')).toMatchObject({ sizeTiers: ['2K', '4K'], minPixels: 3686400, outputFormats: ['jpeg'] })
    expect(catalog.get('qwen3.8-max')).toMatchObject({ input: ['text'], limits: { contextTokens: 1000000, maxOutputTokens: 131072, maxInputTokens: 991808 } })
  })

  it('a config row over a catalog row keeps the catalog\'s data and its limits key by key, over the family\'s', () => {
    const catalog = createCatalog(loadBuiltinModels(), [
      { id: 'glm-5.3', family: 'glm', limits: { maxOutputTokens: 4096 } },
      { id: 'glm-next', family: 'glm', vendor: 'zhipu', pricing: { unit: 'token', input: 1, output: 1 }, limits: { contextTokens: 200000 } },
      { id: 'seedream-next', family: 'seedream', vendor: 'ark', pricing: { unit: 'image', price: 1 }, sizeTiers: ['2K', '4K'], maxPixels: 16777216 },
    ])
    expect(catalog.get('glm-5.3')).toMatchObject({ name: 'GLM-5.3', limits: { contextTokens: 1048576, maxOutputTokens: 4096 } })
    expect(catalog.get('glm-next')).toMatchObject({ type: 'chat', thinkingAlwaysOn: true, limits: { contextTokens: 200000, maxOutputTokens: 131072 } })
    expect(catalog.get('seedream-next')).toMatchObject({ type: 'image', sizeTiers: ['2K', '4K'], minPixels: 921600, maxPixels: 16777216, maxN: 1 })
  })

  it('every catalog model keeps its own data (merging adds only what the row lacks)', () => {
    const catalog = createCatalog(loadBuiltinModels(), [])
    for (const row of loadBuiltinModels()) expect(catalog.get(row.id)).toMatchObject(row as Obj)
  })
})

describe('image rules on bare rows of the families without an integration fake here', () => {
  const gen = (model: CatalogModel, body: Obj) => checkImageRequest({ model: model.id, prompt: 'a fox', ...body }, model, { endpoint: 'generations', async: false })
  it('kling-image: n 1..9, its ratios, size mapped to the closest of them', () => {
    const kling = effectiveModel(bare('kling-image'))
    expect(thrownBy(() => gen(kling, { n: 10 })).message).toBe('n must be an integer from 1 to 9 for the model `next-kling-image` (got 10).')
    expect(gen(kling, { size: '1920x1080' })).toMatchObject({ aspectRatio: '16:9', tier: '2K', resolution: '2k' })
    expect(thrownBy(() => gen(kling, { aspect_ratio: '5:4' })).message)
      .toBe('aspect_ratio `5:4` is not supported by the model `next-kling-image`; allowed values: 16:9, 9:16, 1:1, 4:3, 3:4, 3:2, 2:3, 21:9.')
  })
  it('grok-image: n 1..10, 1k/2k, at most 4 references', () => {
    const grok = effectiveModel(bare('grok-image'))
    expect(thrownBy(() => gen(grok, { n: 11 })).message).toBe('n must be an integer from 1 to 10 for the model `next-grok-image` (got 11).')
    expect(thrownBy(() => gen(grok, { resolution: '4k' })).message).toBe('resolution `4k` is not supported by the model `next-grok-image`; allowed values: 1k, 2k.')
    expect(thrownBy(() => gen(grok, { images: Array(5).fill('https://example.com/a.png') })).message)
      .toBe('Too many reference images for the model `next-grok-image`: 5 sent, at most 4.')
  })
})

describe('delivery data agrees with what the image rules do', () => {
  const catalog = createCatalog(loadBuiltinModels(), [])
  const current = catalog.all().filter((m) => m.type === 'image' && !m.deprecated && !m.retired)
  it.each(current.map((m) => [m.id, m] as const))('%s', (_id, model) => {
    const delivery = model.delivery as string[]
    const body: Obj = { model: model.id, prompt: 'a fox' }
    expect(checkImageRequest(body, model, { endpoint: 'generations', async: true }).async).toBe(delivery.includes('async'))
    if (!delivery.includes('stream')) {
      expect(() => checkImageRequest({ ...body, stream: true }, model, { endpoint: 'generations', async: false })).toThrow(GatewayError)
    } else {
      expect(checkImageRequest({ ...body, stream: true }, model, { endpoint: 'generations', async: false }).stream).toBe(true)
    }
  })
})
