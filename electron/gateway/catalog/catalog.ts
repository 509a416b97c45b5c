import { readFileSync } from 'node:fs'
import type { CatalogModel } from '../../../shared/types.js'
import { effectiveModel, familyModule } from '../families/index.js'

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

/**
 * Builds the lookup: configured entries are added, or merged over the built-in ones (field by field,
 * `limits` key by key); then every model gets its family's defaults under its own data
 * (families/index.ts effectiveModel), so a model known only by its family has that family's rules.
 */
export function createCatalog(builtin: CatalogModel[], overrides: Array<Partial<CatalogModel> & { id: string }>): Catalog {
  const rows = new Map(builtin.map((m) => [m.id, m]))
  for (const override of overrides) {
    const base = rows.get(override.id)
    rows.set(override.id, { ...base, ...override, limits: { ...base?.limits, ...override.limits } } as CatalogModel)
  }
  const byId = new Map([...rows].map(([id, row]) => [id, effectiveModel(row)]))
  return { get: (id) => byId.get(id), all: () => [...byId.values()] }
}

/** A model is callable when it is neither deprecated nor retired. */
export const isCallable = (m: CatalogModel): boolean => !m.retired && !m.deprecated

/** Endpoints a model may be called on: its own list, else its family's. */
export function endpointsOf(m: CatalogModel): readonly string[] {
  return m.endpoints ?? familyModule(m.family).defaults.endpoints ?? []
}
