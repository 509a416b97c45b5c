import { formatAmount, needsConfirmation, quoteFigures, type Quote } from '../api/quote'
import { translate, useT } from '../i18n'
import { useAppStore } from '../stores/app-store'
import { PRICE_STRINGS } from './price-strings'
import type { QuoteState } from './use-quote'

/** The live price of what the panel would send (or why it would be refused); nothing while it is not known. */
export function PriceTag({ state }: { state: QuoteState }) {
  const t = useT(PRICE_STRINGS)
  if (state.problem) return <span className="price-tag price-problem small" data-testid="price-problem">{state.problem.message}</span>
  const { quote } = state
  if (!quote) return null
  const tokens = quote.basis.unit === 'token'
  const title = tokens
    ? t('basisTokens', { input: String(quote.basis.input_tokens), expected: String(quote.basis.expected_output_tokens), output: String(quote.basis.max_output_tokens), cap: String(quote.basis.output_cap) })
    : t('basisUnits')
  const figures = quoteFigures(quote)
  const text = 'exact' in figures ? figures.exact : figures.expected ? t('expectedUpTo', { expected: figures.expected, max: figures.max }) : t('upTo', { max: figures.max })
  return (
    <span className="price-tag muted small" title={`${t('price')}: ${title}`} data-testid="price-tag" data-expected={quote.expected} data-max={quote.max}>
      {text}
    </span>
  )
}

/**
 * Whether to go on with a call: true unless the user set an amount in Settings, the call's quote (of the request as it
 * is now) is expected to cost more, and they decline in the confirmation dialog, which shows the expected cost and
 * the most it can cost. Without an amount set, nothing is waited for.
 */
export async function approveSpend(latest: () => Promise<Quote | undefined>): Promise<boolean> {
  const { confirmAbove } = useAppStore.getState()
  if (confirmAbove === null) return true
  const quote = await latest()
  if (!needsConfirmation(quote, confirmAbove)) return true
  const { language } = useAppStore.getState()
  return window.confirm(translate(PRICE_STRINGS, language, 'confirm', { expected: formatAmount(quote!.expected), max: formatAmount(quote!.max), limit: formatAmount(confirmAbove) }))
}
