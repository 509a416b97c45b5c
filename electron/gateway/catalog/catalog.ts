import { readFileSync } from 'node:fs'
import type { CatalogModel } from '../../../shared/types.js'

/** The catalog file: `_spec` documents the fields, every other key is a model id. */
type CatalogFile = Record<string, Omit<CatalogModel, 'id'>>

const CATALOG_URL = new URL('./models.json', import.meta.url)

/** Reads the built-in catalog (data only: adding a model needs no code change). */
export function loadBuiltinModels(): CatalogModel[] {
  const file = JSON.parse(readFileSync(CATALOG_URL, 'utf8')) as CatalogFile
  return Object.entries(file)
    .filter(([id]) => id !== '_spec')
    .map(([id, entry]) => ({ ...entry, id }) as CatalogModel)
}

export interface Catalog {
  get(id: string): CatalogModel | undefined
  all(): CatalogModel[]
}

/** Builds the lookup, with configured entries added or merged over the built-in ones. */
export function createCatalog(builtin: CatalogModel[], overrides: Array<Partial<CatalogModel> & { id: string }>): Catalog {
  const byId = new Map(builtin.map((m) => [m.id, m]))
  for (const override of overrides) {
    const base = byId.get(override.id)
    byId.set(override.id, { ...base, ...override, limits: { ...base?.limits, ...override.limits } } as CatalogModel)
  }
  return { get: (id) => byId.get(id), all: () => [...byId.values()] }
}

/** A model is callable when it is neither deprecated nor retired. */
export const isCallable = (m: CatalogModel): boolean => !m.retired && !m.deprecated

/** Endpoints a model may be called on; defaults by type where the catalog entry names none. */
export function endpointsOf(m: CatalogModel): readonly string[] {
  if (m.endpoints) return m.endpoints
  switch (m.type) {
    case 'chat': return m.vendor === 'anthropic' ? ['messages', 'chat.completions'] : ['chat.completions', 'responses']
    case 'image': return ['images.generations', 'images.edits']
    case 'video': return ['video.generate']
    case 'speech': return ['audio.speech']
    case 'interactions': return ['interactions']
  }
}
