/** An upstream HTTP call, as built by an adapter. */
export interface HttpSpec {
  method: 'GET' | 'POST'
  url: string
  headers: Record<string, string>
  /** JSON text or bytes, or the parts of a multipart/form-data body */
  body?: string | Buffer | { multipart: MultipartPart[] }
  /** the call's own deadlines (a stream's), in place of the whole-answer ones of `timeouts.firstByteMs` */
  deadlines?: { headersMs: number; bodyMs: number }
}

/** A text field, or a file (in the pieces it arrived in), of a multipart body. */
export type MultipartPart = { name: string; value: string } | { name: string; chunks: readonly Buffer[]; type: string; filename: string }
