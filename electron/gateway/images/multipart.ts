import busboy from 'busboy'
import type { RequestContext } from '../context.js'
import { gatewayError } from '../errors.js'

export interface UploadedFile {
  field: string
  filename: string
  mimeType: string
  /** the file as it arrived, never joined: slices of the request body, forwarded as these pieces */
  chunks: Buffer[]
  size: number
}

export interface MultipartBody {
  /** repeated fields (`image[]`-style or plain repeats) become arrays */
  fields: Record<string, string | string[]>
  files: UploadedFile[]
}

/** At most this many parts (fields and files together) in one multipart body. */
export const MAX_MULTIPART_PARTS = 1000
/** At most this many files (an edit takes up to 16 references and a mask). */
export const MAX_MULTIPART_FILES = 64
/** At most this many text fields. */
export const MAX_MULTIPART_FIELDS = 256
/** A text field's value: room for one data-URL reference image of 31,457,280 bytes (spec §4.2, Seedream). */
export const MAX_MULTIPART_FIELD_BYTES = 32 * 1024 * 1024
/** A field's or file part's name (busboy's multipart parser caps part headers itself: 16 KiB, 2000 lines). */
export const MAX_MULTIPART_NAME_BYTES = 256

const tooMany = (limit: number, what: { en: string; zh: string }) => gatewayError('invalid_request', 'multipart_too_many', { limit, what })
const tooLong = (limit: number, what: { en: string; zh: string }) => gatewayError('invalid_request', 'multipart_field_too_long', { limit, what })
const NAME = { en: 'name', zh: '名称' }

/**
 * Parses a multipart/form-data body already read whole (the server bounds its size and time): busboy is fed
 * the buffer at once, and file parts stay slices of it. Past a count or size limit above: 400.
 */
export function readMultipart(ctx: RequestContext): Promise<MultipartBody> {
  return new Promise((resolve, reject) => {
    let parser: busboy.Busboy
    try {
      parser = busboy({
        headers: ctx.req.headers,
        limits: {
          parts: MAX_MULTIPART_PARTS, files: MAX_MULTIPART_FILES, fields: MAX_MULTIPART_FIELDS,
          fieldSize: MAX_MULTIPART_FIELD_BYTES,
        },
      })
    } catch (err) {
      reject(gatewayError('invalid_request', 'invalid_multipart', { detail: (err as Error).message }))
      return
    }
    const body: MultipartBody = { fields: {}, files: [] }
    let failed = false
    const fail = (err: unknown) => {
      if (failed) return
      failed = true
      reject(err)
    }
    // busboy names a part without a name `undefined`; it can be neither a field nor a file, so the form is refused.
    const unnamed = () => fail(gatewayError('invalid_request', 'invalid_multipart', { detail: 'a part has no name' }))
    parser.on('field', (name: string | undefined, value, info) => {
      if (name === undefined) unnamed()
      else if (Buffer.byteLength(name) > MAX_MULTIPART_NAME_BYTES) fail(tooLong(MAX_MULTIPART_NAME_BYTES, NAME))
      else if (info.valueTruncated) fail(tooLong(MAX_MULTIPART_FIELD_BYTES, { en: 'value', zh: '值' }))
      else if (!failed) addField(body.fields, name, value)
    })
    parser.on('file', (field: string | undefined, stream, info) => {
      if (field === undefined) {
        stream.resume()
        return unnamed()
      }
      const chunks: Buffer[] = []
      let size = 0
      // A form cut short inside a file destroys that file's stream with the error (the parser reports it too).
      stream.on('error', (err: Error) => fail(gatewayError('invalid_request', 'invalid_multipart', { detail: err.message })))
      stream.on('data', (chunk: Buffer) => {
        size += chunk.length
        if (!failed) chunks.push(chunk)
      })
      stream.on('end', () => {
        if (Buffer.byteLength(field) > MAX_MULTIPART_NAME_BYTES) fail(tooLong(MAX_MULTIPART_NAME_BYTES, NAME))
        else if (!failed) body.files.push({ field, filename: info.filename ?? field, mimeType: info.mimeType, chunks, size })
      })
    })
    parser.on('partsLimit', () => fail(tooMany(MAX_MULTIPART_PARTS, { en: 'parts', zh: '部分' })))
    parser.on('filesLimit', () => fail(tooMany(MAX_MULTIPART_FILES, { en: 'files', zh: '文件' })))
    parser.on('fieldsLimit', () => fail(tooMany(MAX_MULTIPART_FIELDS, { en: 'fields', zh: '字段' })))
    parser.on('error', (err: Error) => fail(gatewayError('invalid_request', 'invalid_multipart', { detail: err.message })))
    parser.on('close', () => {
      if (!failed) resolve(body)
    })
    parser.end(ctx.body)
  })
}

function addField(fields: MultipartBody['fields'], rawName: string, value: string): void {
  // `image[]` and a repeated `image` mean the same: a list. Appended in place: a copy per repeat is quadratic.
  const name = baseField(rawName)
  const existing = fields[name]
  if (existing === undefined) fields[name] = rawName.endsWith('[]') ? [value] : value
  else if (Array.isArray(existing)) existing.push(value)
  else fields[name] = [existing, value]
}

/** The field name without a trailing `[]`. */
export const baseField = (name: string): string => (name.endsWith('[]') ? name.slice(0, -2) : name)
