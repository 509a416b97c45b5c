/**
 * GET /spec/models/index.json must not change when the code that builds it moves: the index of the
 * built-in catalog, and of rows declared with only an id, a family, a vendor and a price (the family
 * defaults alone), is compared with the serialized snapshot in image-schema-index.snapshot.json.
 */
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { createCatalog, loadBuiltinModels } from '../../../../electron/gateway/catalog/catalog.js'
import { imageSchemaIndex } from '../../../../electron/gateway/families/image-schemas.js'
import type { CatalogModel } from '../../../../shared/types.js'

type Index = { models: Record<string, unknown> }

const SNAPSHOT = JSON.parse(readFileSync(new URL('./image-schema-index.snapshot.json', import.meta.url), 'utf8')) as Record<'builtin' | 'declared', Index>

const IMAGE_FAMILIES = ['gpt-image', 'gemini-image', 'seedream', 'kling-image', 'grok-image'] as const
const declared = IMAGE_FAMILIES.map((family) => ({ id: `declared-${family}`, family, vendor: 'openai', created: 0, pricing: { unit: 'image', price: 0.01 } })) as CatalogModel[]

const served: Record<'builtin' | 'declared', Index> = {
  builtin: imageSchemaIndex(createCatalog(loadBuiltinModels(), []).all()) as Index,
  declared: imageSchemaIndex(createCatalog([], declared).all()) as Index,
}

describe.each(['builtin', 'declared'] as const)('the %s image schema index', (name) => {
  it('lists the same models with the same schemas as the snapshot', () => {
    expect(Object.keys(served[name].models)).toEqual(Object.keys(SNAPSHOT[name].models))
    for (const id of Object.keys(SNAPSHOT[name].models)) expect(served[name].models[id], id).toEqual(SNAPSHOT[name].models[id])
  })

  it('serializes to the snapshot byte for byte (key order included)', () => {
    expect(JSON.stringify(served[name])).toBe(JSON.stringify(SNAPSHOT[name]))
  })
})
