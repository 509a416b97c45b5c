/** A key path inside a tool's settings file: `['env', 'ANTHROPIC_BASE_URL']`. */
export type KeyPath = readonly string[]

/**
 * Why a tool's file cannot be changed (it is left exactly as it is): `syntax`, it does not parse (at `line`);
 * `not_table`, a key's parent (`key`) is some other value; `not_kept`, the edit would change more than the keys
 * Gatehouse owns; `backup_gone`, Undo's backup was removed; `too_large`, it is larger than a settings file can be
 * (`max` bytes: a wrong path may name a large file or a device).
 */
export class UnreadableFile extends Error {
  constructor(
    readonly path: string,
    readonly kind: 'syntax' | 'not_table' | 'not_kept' | 'backup_gone' | 'too_large',
    readonly detail: { format?: string; line?: number; key?: string; max?: number } = {},
  ) {
    super(`${path}: ${kind}`)
  }
}

/**
 * One settings-file format, edited in place: every function takes the file's text and gives the new text, touching
 * only the key named (comments, order, spacing and every other key stay as they were). `read` throws UnreadableFile
 * for a text that does not parse, or whose top level is not a table/object.
 */
export interface ConfigFormat {
  readonly name: 'JSON' | 'TOML'
  read(path: string, text: string): Record<string, unknown>
  set(text: string, key: KeyPath, value: string): string
  remove(text: string, key: KeyPath): string
}

/** The value at `key` of a parsed document, or undefined. */
export function valueAt(doc: unknown, key: KeyPath): unknown {
  let at: unknown = doc
  for (const part of key) {
    if (typeof at !== 'object' || at === null || Array.isArray(at)) return undefined
    at = (at as Record<string, unknown>)[part]
  }
  return at
}

/** A deep copy of a parsed document without the keys named (for checking that nothing else changed). */
export function without(doc: Record<string, unknown>, keys: readonly KeyPath[]): unknown {
  const copy = structuredClone(doc)
  for (const key of keys) {
    const parent = valueAt(copy, key.slice(0, -1))
    if (typeof parent === 'object' && parent !== null && !Array.isArray(parent)) delete (parent as Record<string, unknown>)[key[key.length - 1]]
  }
  return copy
}

/** A copy of the document without the tables named when they are empty (deepest first). */
export function withoutEmpty(doc: unknown, tables: readonly KeyPath[]): unknown {
  const copy = structuredClone(doc)
  for (const table of [...tables].sort((a, b) => b.length - a.length)) {
    const at = valueAt(copy, table)
    const parent = valueAt(copy, table.slice(0, -1)) as Record<string, unknown> | undefined
    if (parent && typeof at === 'object' && at !== null && Object.keys(at).length === 0) delete parent[table[table.length - 1]]
  }
  return copy
}

/** Whether the key's parents are tables/objects (or absent), so that the key can be set without replacing a value. */
export function parentsAreTables(doc: Record<string, unknown>, key: KeyPath): string | undefined {
  for (let i = 1; i < key.length; i++) {
    const at = valueAt(doc, key.slice(0, i))
    if (at !== undefined && (typeof at !== 'object' || at === null || Array.isArray(at))) return key.slice(0, i).join('.')
  }
  return undefined
}
