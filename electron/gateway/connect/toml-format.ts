import { parse, patch } from '@decimalturn/toml-patch'
import { UnreadableFile, valueAt, type ConfigFormat, type KeyPath } from './config-doc.js'

/** A key as TOML writes it: bare when it can be, else quoted. */
const tomlKey = (part: string) => (/^[A-Za-z0-9_-]+$/.test(part) ? part : JSON.stringify(part))

/** New tables become `[a.b]` sections down to this depth, not inline tables. */
const FORMAT = { inlineTableStart: 3 }

/**
 * TOML (toml-patch: parses to a syntax tree that keeps comments, whitespace and order, and patches only the values
 * that differ between the file and the object given).
 */
export const tomlFormat: ConfigFormat = {
  name: 'TOML',
  read(path, text) {
    try {
      return parse(text) as Record<string, unknown>
    } catch (err) {
      // toml-patch's message starts "Error parsing TOML (line, column):"
      const line = Number(/\((\d+), \d+\)/.exec((err as Error).message)?.[1] ?? 0)
      throw new UnreadableFile(path, 'syntax', { format: 'TOML', ...(line > 0 ? { line } : {}) })
    }
  },
  set(text, key, value) {
    // A missing table is started as its own `[a.b]` section at the end: toml-patch would otherwise write a dotted key
    // (`a.b = {…}`) among the root keys when `a` is already made by another section.
    if (key.length > 1 && valueAt(parse(text), key.slice(0, -1)) === undefined) {
      text = `${text}${text === '' || text.endsWith('\n') ? '' : '\n'}${text === '' ? '' : '\n'}[${key.slice(0, -1).map(tomlKey).join('.')}]\n`
    }
    const doc = parse(text) as Record<string, unknown>
    let at = doc
    for (const part of key.slice(0, -1)) {
      if (typeof at[part] !== 'object' || at[part] === null) at[part] = {}
      at = at[part] as Record<string, unknown>
    }
    at[key[key.length - 1]] = value
    const patched = patch(text, doc, FORMAT)
    // A file begun here ends its last line, as an editor would.
    return text === '' && !patched.endsWith('\n') ? `${patched}\n` : patched
  },
  remove(text, key: KeyPath) {
    const doc = parse(text) as Record<string, unknown>
    let at: Record<string, unknown> | undefined = doc
    for (const part of key.slice(0, -1)) at = typeof at?.[part] === 'object' ? (at[part] as Record<string, unknown>) : undefined
    if (!at || !(key[key.length - 1] in at)) return text
    delete at[key[key.length - 1]]
    return patch(text, doc, FORMAT)
  },
}
