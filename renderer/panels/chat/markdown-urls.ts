/**
 * Which URLs in a model's markdown survive: text from a model may be steered by a prompt injection, so a link
 * must not run script or open a local file, and an image must not load from anywhere without the user's click.
 */
import type { UrlTransform } from 'react-markdown'

/** Links open outside the app: the web and mail only (not javascript:, data:, file:, vbscript: or custom schemes). */
const LINK_PROTOCOLS: ReadonlySet<string> = new Set(['http:', 'https:', 'mailto:'])
/** Images that load only when clicked, through the gateway. */
const REMOTE_IMAGE_PROTOCOLS: ReadonlySet<string> = new Set(['http:', 'https:'])
/** Images carried in the answer itself, which load nothing from anywhere. */
const INLINE_IMAGE = /^data:image\//i

/** The URL when it is absolute; a relative one would point into the gateway's own pages and is dropped. */
function absolute(value: string): URL | undefined {
  try {
    return new URL(value)
  } catch {
    return undefined
  }
}

/** An http(s) image link, which the page shows only after a click. */
export function isRemoteImage(src: string): boolean {
  const url = absolute(src)
  return url !== undefined && REMOTE_IMAGE_PROTOCOLS.has(url.protocol)
}

/** A data: image, shown as it is. */
export const isInlineImage = (src: string): boolean => INLINE_IMAGE.test(src)

/**
 * react-markdown's `urlTransform`: a link keeps an http(s) or mailto address, or an in-page `#fragment` (footnotes);
 * an image keeps a data: or http(s) source. Anything else becomes '' and is rendered as plain text.
 */
export const markdownUrl: UrlTransform = (value, key, node) => {
  if (node.tagName === 'a' && key === 'href') {
    if (value.startsWith('#')) return value
    const url = absolute(value)
    return url && LINK_PROTOCOLS.has(url.protocol) ? url.href : ''
  }
  if (node.tagName === 'img' && key === 'src') {
    if (isInlineImage(value)) return value
    return isRemoteImage(value) ? new URL(value).href : ''
  }
  return ''
}
