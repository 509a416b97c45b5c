import { describe, expect, it } from 'vitest'
import Ajv2020 from 'ajv/dist/2020.js'
import { endpointsOf, loadBuiltinModels } from '../../../electron/gateway/catalog/catalog.js'
import { pricing } from '../../../shared/schemas/common.js'
import { FAMILIES, FAMILY_TYPE, VENDORS } from '../../../shared/types.js'

const models = loadBuiltinModels()
const byId = new Map(models.map((m) => [m.id, m]))
const validPricing = new Ajv2020.default({ strict: false }).compile(pricing)

describe('built-in catalog (data, not code)', () => {
  it.each(models.map((m) => [m.id, m] as const))('%s is well formed', (_, m) => {
    expect(FAMILIES).toContain(m.family)
    expect(m.type).toBe(FAMILY_TYPE[m.family])
    expect(VENDORS).toContain(m.vendor)
    expect(Number.isInteger(m.created)).toBe(true)
    expect(validPricing(m.pricing), JSON.stringify(validPricing.errors)).toBe(true)
    if (m.deprecated) expect(byId.get(m.deprecated.replacement)?.retired ?? false).toBe(false)
    if (m.deprecated) expect(byId.has(m.deprecated.replacement)).toBe(true)
  })
  it('every family has a callable model', () => {
    for (const family of FAMILIES) expect(models.some((m) => m.family === family && !m.retired && !m.deprecated), family).toBe(true)
  })
  it('holds deprecated and retired ids (spec §9)', () => {
    expect(models.some((m) => m.deprecated)).toBe(true)
    expect(models.some((m) => m.retired)).toBe(true)
  })
  it('encodes spec §1: one chat family only on chat completions, another without Responses', () => {
    const chat = models.filter((m) => m.type === 'chat' && !m.retired)
    const onlyChat = chat.filter((m) => endpointsOf(m).length === 1 && endpointsOf(m)[0] === 'chat.completions')
    expect(onlyChat.length).toBeGreaterThan(0)
    expect(chat.some((m) => !endpointsOf(m).includes('responses'))).toBe(true)
  })
})
