/**
 * A base64 data URL as a Blob, decoded here: the page's CSP (connect-src 'self') does not let fetch() read data: URLs.
 */
export function dataUrlToBlob(dataUrl: string): Blob {
  const comma = dataUrl.indexOf(',')
  const header = dataUrl.slice(5, comma)
  const type = header.split(';')[0] || 'application/octet-stream'
  const payload = dataUrl.slice(comma + 1)
  if (!header.endsWith(';base64')) return new Blob([decodeURIComponent(payload)], { type })
  const binary = atob(payload)
  const bytes = new Uint8Array(binary.length)
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i)
  return new Blob([bytes], { type })
}
