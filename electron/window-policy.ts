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
