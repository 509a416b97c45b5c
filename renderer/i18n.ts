import type { Language } from '../shared/admin'
import { formatCount, type Plurals } from './format'
import { useAppStore } from './stores/app-store'
import { translate, type Strings } from './translate'

// The strings' type and their one filler live apart from the store (translate.ts), for modules the store's slices import.
export { translate, type Strings } from './translate'

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

/**
 * The names the gateway gives its built-in groups (electron/gateway/config/defaults.ts), in every language.
 * A group renamed by the user keeps its own name.
 */
const BUILTIN_GROUP_NAMES: Record<string, { seeded: string } & Record<Language, string>> = {
  default: { seeded: 'All models', en: 'All models', zh: '全部模型' },
  claude: { seeded: 'Claude (messages protocol)', en: 'Claude (messages protocol)', zh: 'Claude（Messages 协议）' },
}

/** A group's name as shown: built-in names translated, others as the user wrote them. */
export function groupName(group: { id: string; name?: string | null }, language: Language): string {
  const builtin = BUILTIN_GROUP_NAMES[group.id]
  if (builtin && group.name === builtin.seeded) return builtin[language]
  return group.name ?? ''
}
