import { useCallback, useEffect, useRef, useState } from 'react'
import { callGatewayJson } from '../api/gateway'
import { ApiError } from '../api/http'
import type { Quote, QuoteBody } from '../api/quote'

/** What a panel shows next to its send button: the quote of what it would send, or why that request is refused. */
export interface QuoteState {
  quote?: Quote
  /** a 4xx answer: the request as it stands would be refused with this */
  problem?: ApiError
}

/** Waits this long after the last change before asking: typing never waits for the gateway. */
export const QUOTE_DEBOUNCE_MS = 400

const askGateway = (group: string, body: QuoteBody, signal?: AbortSignal) =>
  callGatewayJson<Quote>(group, '/v1/quote', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body), signal })

/**
 * The live quote of `body` (null: nothing to price), asked again, debounced, whenever it changes. `latest()` is the
 * quote of the body as it is now: the one shown, or asked at once when the last change is still being waited for
 * (sending must not confirm against an older price).
 */
export function useQuote(group: string | null, body: QuoteBody | null): QuoteState & { latest(): Promise<Quote | undefined> } {
  const key = group && body ? JSON.stringify(body) : null
  const [state, setState] = useState<QuoteState & { key?: string }>({})
  const current = useRef<{ key: string | null; group: string | null; body: QuoteBody | null }>({ key, group, body })
  current.current = { key, group, body }
  const asked = useRef<{ key: string; answer: Promise<Quote | undefined> } | null>(null)

  const ask = useCallback((signal?: AbortSignal): Promise<Quote | undefined> => {
    const { key: k, group: g, body: b } = current.current
    if (!k || !g || !b) return Promise.resolve(undefined)
    if (asked.current?.key === k) return asked.current.answer
    const answer = askGateway(g, b, signal).then(
      (quote) => {
        if (current.current.key === k) setState({ key: k, quote })
        return quote
      },
      (err: unknown) => {
        if (asked.current?.key === k) asked.current = null
        // Only a refusal of the request itself is worth showing; a network hiccup or an aborted ask shows nothing.
        if (current.current.key === k && !signal?.aborted) setState(err instanceof ApiError && err.status >= 400 && err.status < 500 ? { key: k, problem: err } : { key: k })
        return undefined
      },
    )
    asked.current = { key: k, answer }
    return answer
  }, [])

  useEffect(() => {
    if (!key) return
    const controller = new AbortController()
    const timer = setTimeout(() => void ask(controller.signal), QUOTE_DEBOUNCE_MS)
    return () => {
      clearTimeout(timer)
      if (asked.current?.key === key) controller.abort()
    }
  }, [key, ask])

  const latest = useCallback(() => ask(), [ask])
  // A figure for an earlier body is not shown.
  const shown = state.key === key ? state : {}
  return { quote: shown.quote, problem: shown.problem, latest }
}
