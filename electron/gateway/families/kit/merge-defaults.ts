/** The effective data of a model: its row deep-merged over its family's defaults. */

type Obj = Record<string, unknown>

const isPlainObject = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v)

/**
 * `row` over `defaults`: objects merge key by key at every depth (a row's `limits.maxOutputTokens`
 * keeps the family's `limits.contextTokens`); any other value of the row, arrays included, replaces
 * the default whole (a row's list is the model's list, not an addition). `undefined` in the row keeps
 * the default. Neither input is modified.
 */
export function mergeDefaults<T extends Obj>(defaults: Obj, row: T): T {
  const out: Obj = { ...defaults }
  for (const [key, value] of Object.entries(row)) {
    if (value === undefined) continue
    const base = out[key]
    out[key] = isPlainObject(value) && isPlainObject(base) ? mergeDefaults(base, value) : value
  }
  return out as T
}
