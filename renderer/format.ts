/**
 * How the app writes money and counts, in every panel (pure: no store, so any module and test can use it).
 * `useCount` in i18n.ts binds `formatCount` to the chosen language.
 */
import type { Language } from '../shared/admin'

/** The ledger keeps nano-USD: no amount has more decimals than this. */
const MAX_DECIMALS = 9

/**
 * USD with two decimals ($1.50, $0.00), and below a cent with two significant digits so a small cost never shows
 * as $0.00 ($0.0042, $0.00008).
 */
export function formatUsd(usd: number): string {
  const sign = usd < 0 ? '-' : ''
  const abs = Math.abs(usd)
  if (abs === 0 || abs >= 0.01 || !Number.isFinite(abs)) return `${sign}$${abs.toFixed(2)}`
  // Decimals for two significant digits: 0.0042 needs 4, 0.00008 needs 6 (then its trailing zero goes).
  const decimals = Math.min(MAX_DECIMALS, 1 - Math.floor(Math.log10(abs)))
  const text = abs.toFixed(decimals).replace(/0+$/, '')
  return /^0\.0*$/.test(text) ? `${sign}$0.00` : `${sign}$${text}`
}

/** Plural forms of a counted phrase (CLDR categories; `{n}` is the count). Chinese needs only `other`. */
export type PluralForms = Partial<Record<Intl.LDMLPluralRule, string>> & { other: string }

/** Counted phrases of a panel in every language. */
export type Plurals<K extends string> = Record<Language, Record<K, PluralForms>>

const LOCALES: Record<Language, string> = { en: 'en-US', zh: 'zh-CN' }
const rules = new Map<Language, Intl.PluralRules>()

/** A number written for the language (grouping: 1,234). */
export const formatNumber = (language: Language, n: number): string => n.toLocaleString(LOCALES[language])

/** `3 requests`, `1 request`, `3 个请求`: the language's plural form of the phrase, with the count written in. */
export function formatCount(language: Language, n: number, forms: PluralForms): string {
  let rule = rules.get(language)
  if (!rule) rules.set(language, (rule = new Intl.PluralRules(LOCALES[language])))
  const form = forms[rule.select(n)] ?? forms.other
  return form.replace(/\{n\}/g, formatNumber(language, n))
}

/** A latency: one decimal below 10 ms, whole milliseconds from there (0 ms, 1,234 ms). */
export const formatMs = (ms: number): string => (ms < 9.95 && ms !== 0 ? `${ms.toFixed(1)} ms` : `${Math.round(ms).toLocaleString('en-US')} ms`)
