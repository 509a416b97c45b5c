import { describe, expect, it } from 'vitest'
import { createCatalog, loadBuiltinModels } from '../../../../electron/gateway/catalog/catalog.js'
import { FAMILY_MODULES } from '../../../../electron/gateway/families/index.js'
import { allowedDurations, durationRuleOf, withVendorDurations } from '../../../../electron/gateway/families/kit/video-durations.js'
import { checkOrder, generateOrder } from '../../../../electron/gateway/tasks/video-request.js'
import type { GatewayError } from '../../../../electron/gateway/errors.js'
import type { CatalogModel } from '../../../../shared/types.js'

const catalog = createCatalog(loadBuiltinModels(), [])
const seconds = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => from + i)

function refusal(model: CatalogModel, duration: number): GatewayError | undefined {
  try {
    checkOrder(generateOrder({ model: model.id, prompt: 'a boat', duration }), model, 'images')
    return undefined
  } catch (err) {
    return err as GatewayError
  }
}

describe('video durations come from the vendor’s real ranges (the family rules)', () => {
  it('Seedance 2.x: 4–15 s, whatever a row lists; 20 s is refused before any vendor call', () => {
    for (const id of ['doubao-seedance-2-5-260628', 'doubao-seedance-2-0-260128', 'doubao-seedance-2-0-fast-260128']) {
      const model = catalog.get(id)!
      expect([id, model.durations, model.maxDurationSeconds]).toEqual([id, seconds(4, 15), 15])
    }
    const model = catalog.get('doubao-seedance-2-5-260628')!
    const err = refusal(model, 20)!
    expect([err.status, err.code, err.message]).toEqual([400, 'invalid_request', 'duration `20` is not supported by the model `doubao-seedance-2-5-260628`; allowed values: 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15.'])
    expect(refusal(model, 15)).toBeUndefined()
    expect(refusal(model, 3)?.status).toBe(400)
  })

  it('a config row cannot offer more than the vendor takes; a row with no list gets the vendor’s', () => {
    const configured = createCatalog(loadBuiltinModels(), [
      { id: 'seedance-next', family: 'seedance', vendor: 'ark', pricing: { unit: 'second', price: 0.1 }, durations: [2, 4, 10, 20, 30], maxDurationSeconds: 30 } as never,
      { id: 'doubao-seedance-2-9', family: 'seedance', vendor: 'ark', pricing: { unit: 'second', price: 0.1 } } as never,
    ])
    // no rule covers `seedance-next`: its row stands
    expect(configured.get('seedance-next')).toMatchObject({ durations: [2, 4, 10, 20, 30], maxDurationSeconds: 30 })
    expect(configured.get('doubao-seedance-2-9')).toMatchObject({ durations: seconds(4, 15), maxDurationSeconds: 15 })
  })

  it.each([
    ['kling-v2-5-turbo', [5, 10], 10],
    ['MiniMax-Hailuo-02', [6, 10], 10],
    ['MiniMax-H3', seconds(4, 15), 15],
    ['grok-imagine-video', seconds(1, 15), 15],
    ['wan2.6-t2v', [5, 10, 15], 15],
    ['doubao-seedance-1-5-pro-251215', seconds(4, 12), 12],
  ])('%s: %j, at most %i s', (id, durations, max) => {
    expect(catalog.get(id)).toMatchObject({ durations, maxDurationSeconds: max })
  })

  it('every video model of the catalog offers only durations its vendor’s rule allows', () => {
    for (const model of catalog.all().filter((m) => m.type === 'video')) {
      const rule = durationRuleOf(FAMILY_MODULES[model.family].videoDurations, model.id)
      if (!rule) continue
      const allowed = allowedDurations(rule)
      expect((model.durations as number[]).filter((d) => !allowed.includes(d))).toEqual([])
      expect(model.maxDurationSeconds as number).toBeLessThanOrEqual(rule.max)
    }
  })

  it('a model no rule covers is left as it is', () => {
    const row = { id: 'kling-v3', durations: [3, 15] } as unknown as CatalogModel
    expect(withVendorDurations(row, FAMILY_MODULES['kling-video'].videoDurations)).toBe(row)
  })
})
