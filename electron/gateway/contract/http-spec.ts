/** An upstream HTTP call, as built by an adapter. */
export interface HttpSpec {
  method: 'GET' | 'POST'
  url: string
  headers: Record<string, string>
  /** JSON text or bytes, or the parts of a multipart/form-data body */
  body?: string | Buffer | { multipart: MultipartPart[] }
}

/** A text field, or a file (in the pieces it arrived in), of a multipart body. */
export type MultipartPart = { name: string; value: string } | { name: string; chunks: readonly Buffer[]; type: string; filename: string }
