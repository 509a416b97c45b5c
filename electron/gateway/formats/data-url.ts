/** RFC 2397 `data:` URLs, as clients send images inline. */
export interface DataUrl {
  /** lower-cased; '' when the URL names none */
  mimeType: string
  base64: boolean
  payload: string
}

/** Splits a `data:` URL into its MIME type, encoding and payload; undefined when the text is not one. */
export function parseDataUrl(url: string): DataUrl | undefined {
  const text = url.trim()
  if (!/^data:/i.test(text)) return undefined
  const comma = text.indexOf(',')
  if (comma < 0) return undefined
  const [mimeType, ...attrs] = text.slice(5, comma).split(';').map((s) => s.trim())
  return { mimeType: mimeType.toLowerCase(), base64: attrs.some((a) => a.toLowerCase() === 'base64'), payload: text.slice(comma + 1) }
}

export interface DataUrlBytes {
  bytes: Buffer
  /** false when `maxBytes` cut the decoding short */
  complete: boolean
}

/**
 * The payload's bytes (the one decoder of data URLs); `maxBytes` limits base64 decoding to a prefix (enough to
 * read an image header). Given text, undefined when it is not a data URL.
 */
export function dataUrlBytes(data: DataUrl, maxBytes?: number): DataUrlBytes
export function dataUrlBytes(url: string, maxBytes?: number): DataUrlBytes | undefined
export function dataUrlBytes(source: DataUrl | string, maxBytes = Infinity): DataUrlBytes | undefined {
  const data = typeof source === 'string' ? parseDataUrl(source) : source
  if (data === undefined) return undefined
  if (!data.base64) return { bytes: percentDecode(data.payload), complete: true }
  // Four base64 characters carry three bytes; whitespace inside the payload is ignored by Node's decoder.
  const chars = Number.isFinite(maxBytes) ? Math.ceil(maxBytes / 3) * 4 : data.payload.length
  const complete = chars >= data.payload.length
  return { bytes: Buffer.from(complete ? data.payload : data.payload.slice(0, chars), 'base64'), complete }
}

/** `%xx` escapes decoded, other characters taken as UTF-8 (a non-base64 data URL's payload). */
function percentDecode(s: string): Buffer {
  const bytes: number[] = []
  for (let k = 0; k < s.length; k++) {
    if (s[k] === '%' && /^[0-9a-f]{2}$/i.test(s.slice(k + 1, k + 3))) {
      bytes.push(parseInt(s.slice(k + 1, k + 3), 16))
      k += 2
    } else {
      bytes.push(...Buffer.from(s[k], 'utf8'))
    }
  }
  return Buffer.from(bytes)
}
