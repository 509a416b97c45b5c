import type { Language } from '../shared/admin'
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

/** Formats USD amounts the way the usage views show them. */
export function formatUsd(usd: number): string {
  if (usd === 0) return '$0'
  if (Math.abs(usd) < 0.01) return `$${usd.toFixed(6).replace(/0+$/, '')}`
  return `$${usd.toFixed(2)}`
}
