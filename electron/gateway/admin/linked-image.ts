import { linkedImageRequest } from '../../../shared/schemas/admin.js'
import type { RequestContext } from '../context.js'
import { GatewayError, gatewayError } from '../errors.js'
import { DownloadError, transportFailure } from '../upstreams/http.js'
import { checkImageHeader } from '../images/image-limits.js'
import { mediaHeaders } from '../media/send-file.js'
import type { Services } from '../services.js'
import { bodyReader } from './admin-io.js'

/** An image shown in a chat answer is far smaller; past this the page would hold megabytes it never asked for. */
export const MAX_LINKED_IMAGE_BYTES = 16 * 1024 * 1024
/** The longest a download may take (less when the gateway's own first-byte timeout is shorter). */
export const LINKED_IMAGE_TIMEOUT_MS = 30_000
/** How much of the link an error message quotes. */
const QUOTED_CHARS = 200

const readBody = bodyReader<{ url: string }>(linkedImageRequest)

/**
 * POST /admin/v1/linked-image: the image a chat answer links to, fetched when the user clicks "load image". The page's
 * CSP lets no remote image load, so the gateway fetches it through the link agent (the link guard on every hop, at
 * most MAX_LINKED_IMAGE_BYTES, a deadline) and answers the bytes only when they are a PNG, JPEG, WebP or GIF of a
 * sane size; the page shows them from a blob: URL. No cookie, referrer or key of the user goes to the image's host.
 */
export async function fetchLinkedImage(ctx: RequestContext, services: Services): Promise<void> {
  const { url } = await readBody(ctx)
  const link = parseLink(url)
  const timeoutMs = Math.min(LINKED_IMAGE_TIMEOUT_MS, services.http.timeouts.firstByteMs)
  // A timer of our own, not AbortSignal.timeout() inside AbortSignal.any(): Node may collect that one before it fires.
  const stop = new AbortController()
  const timer = setTimeout(() => stop.abort(new DOMException(`no image within ${timeoutMs} ms`, 'TimeoutError')), timeoutMs)
  const clientGone = () => stop.abort(new DOMException('the client left', 'AbortError'))
  ctx.abort.once('abort', clientGone)
  if (ctx.abort.aborted) clientGone()
  let image: { bytes: Buffer; mimeType: string }
  try {
    image = await services.http.download(link.href, MAX_LINKED_IMAGE_BYTES, stop.signal)
  } catch (err) {
    throw downloadFailure(err, link, timeoutMs)
  } finally {
    clearTimeout(timer)
    ctx.abort.off('abort', clientGone)
  }
  // A small file claiming a huge size would make the page decode gigabytes.
  checkImageHeader(image.bytes, 'url')
  ctx.res.writeHead(200, { ...mediaHeaders(image.mimeType), 'content-length': image.bytes.length, 'cache-control': 'no-store' }).end(image.bytes)
}

function parseLink(url: string): URL {
  try {
    return new URL(url)
  } catch {
    throw gatewayError('invalid_request', 'invalid_field', { field: 'url', detail: { en: 'is not a valid URL', zh: '不是有效的 URL' } }, { param: 'url' })
  }
}

/** Why a download failed, as the page shows it: the link's fault (400), too slow (504), or its host unreachable (502). */
function downloadFailure(err: unknown, link: URL, timeoutMs: number): GatewayError {
  const quoted = link.href.slice(0, QUOTED_CHARS)
  if (err instanceof DownloadError) return gatewayError('invalid_request', 'linked_image_unusable', { url: quoted, detail: err.message }, { param: 'url' })
  const failure = transportFailure(err)
  if (failure === 'timeout') return gatewayError('upstream_timeout', 'linked_image_timeout', { url: quoted, seconds: timeoutMs / 1000 }, { cause: err })
  if (failure === 'aborted') return gatewayError('client_closed_request', 'client_gone', {}, { cause: err })
  return gatewayError('upstream_error', 'linked_image_unreachable', { url: quoted, host: link.host }, { cause: err })
}
