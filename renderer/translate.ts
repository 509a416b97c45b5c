import type { Language } from '../shared/admin'

/** A panel's strings in every language; `{name}` placeholders are filled from `vars`. */
export type Strings<K extends string> = Record<Language, Record<K, string>>

/** The text of `key` in the language (English where the language lacks it), its placeholders filled. */
export function translate<K extends string>(strings: Strings<K>, language: Language, key: K, vars?: Record<string, string | number>): string {
  const text = strings[language][key] ?? strings.en[key]
  return vars ? text.replace(/\{(\w+)\}/g, (m, name: string) => (name in vars ? String(vars[name]) : m)) : text
}
