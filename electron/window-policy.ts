/** The one permission the window gets: writing sanitized text to the clipboard (navigator.clipboard.writeText). */
export const ALLOWED_PERMISSIONS: ReadonlySet<string> = new Set(['clipboard-sanitized-write'])

/** True when `url` parses and has exactly this origin. */
export function isSameOrigin(url: string, origin: string): boolean {
  try {
    return new URL(url).origin === origin
  } catch {
    return false
  }
}

/** True for http and https URLs, the only ones handed to the system browser. */
export function isExternalHttpUrl(url: string): boolean {
  try {
    const { protocol } = new URL(url)
    return protocol === 'http:' || protocol === 'https:'
  } catch {
    return false
  }
}

/**
 * Adds `csp` to response headers that carry no Content-Security-Policy. The gateway sends its own strict
 * one with every page; this only covers responses that lack it (error pages, anything a future route forgets).
 */
export function withFallbackCsp(headers: Record<string, string[]> | undefined, csp: string): Record<string, string[]> {
  const current = headers ?? {}
  if (Object.keys(current).some((name) => name.toLowerCase() === 'content-security-policy')) return current
  return { ...current, 'Content-Security-Policy': [csp] }
}

/** What becomes of a navigation or a new window a page asks for. */
export type NavigationAction = 'allow' | 'open-outside' | 'deny'

/**
 * A page's main frame may go to the gateway's own pages; http(s) links elsewhere open in the system browser;
 * anything else (file:, custom schemes, javascript:) is refused. Without a gateway (`origin` undefined), nothing stays.
 */
export function navigationAction(url: string, origin: string | undefined): NavigationAction {
  if (origin !== undefined && isSameOrigin(url, origin)) return 'allow'
  return isExternalHttpUrl(url) ? 'open-outside' : 'deny'
}

/** A new window is never opened inside the app: a link to elsewhere goes to the system browser, the rest is dropped. */
export const windowOpenAction = (url: string, origin: string | undefined): Exclude<NavigationAction, 'allow'> =>
  navigationAction(url, origin) === 'open-outside' ? 'open-outside' : 'deny'

/** A frame (or a redirect) may load only the gateway's origin: never another site inside the app. */
export const frameMayLoad = (url: string, origin: string | undefined): boolean => origin !== undefined && isSameOrigin(url, origin)
