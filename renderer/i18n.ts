import type { Language } from '../shared/admin'
import { formatCount, type Plurals } from './format'
import { useAppStore } from './stores/app-store'

/** A panel's strings in every language; `{name}` placeholders are filled from `vars`. */
export type Strings<K extends string> = Record<Language, Record<K, string>>

export function translate<K extends string>(strings: Strings<K>, language: Language, key: K, vars?: Record<string, string | number>): string {
  const text = strings[language][key] ?? strings.en[key]
  return vars ? text.replace(/\{(\w+)\}/g, (m, name: string) => (name in vars ? String(vars[name]) : m)) : text
}

/** `const t = useT(STRINGS); t('send')`: re-renders when the language changes. */
export function useT<K extends string>(strings: Strings<K>) {
  const language = useAppStore((s) => s.language)
  return (key: K, vars?: Record<string, string | number>) => translate(strings, language, key, vars)
}

// Money and counts: one helper for every panel (format.ts).
export { formatUsd } from './format'

/** `const count = useCount(PLURALS); count('requests', 3)` → "3 requests" / "3 个请求"; re-renders when the language changes. */
export function useCount<K extends string>(plurals: Plurals<K>) {
  const language = useAppStore((s) => s.language)
  return (key: K, n: number) => formatCount(language, n, plurals[language][key] ?? plurals.en[key])
}
