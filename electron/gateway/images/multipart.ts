import type { IncomingMessage } from 'node:http'
import busboy from 'busboy'
import { checkDeclaredLength, MAX_BODY_BYTES, tooLarge } from '../body.js'
import { gatewayError } from '../errors.js'

export interface UploadedFile {
  field: string
  filename: string
  mimeType: string
  /** the file as it arrived, never joined: a large upload is held once and forwarded as these pieces */
  chunks: Buffer[]
  size: number
}

export interface MultipartBody {
  /** repeated fields (`image[]`-style or plain repeats) become arrays */
  fields: Record<string, string | string[]>
  files: UploadedFile[]
}

/**
 * Parses multipart/form-data as a stream (busboy): each file is held once, as the Buffer it arrives in,
 * and the whole request stops at the 60 MB cap (spec §8) without reading further.
 */
export function readMultipart(req: IncomingMessage): Promise<MultipartBody> {
  checkDeclaredLength(req)
  return new Promise((resolve, reject) => {
    let parser: busboy.Busboy
    try {
      parser = busboy({ headers: req.headers, limits: { fileSize: MAX_BODY_BYTES, fieldSize: MAX_BODY_BYTES } })
    } catch (err) {
      reject(gatewayError('invalid_request', 'invalid_multipart', { detail: (err as Error).message }))
      return
    }
    const body: MultipartBody = { fields: {}, files: [] }
    let total = 0
    let failed = false
    const fail = (err: unknown) => {
      if (failed) return
      failed = true
      req.unpipe(parser)
      req.pause()
      reject(err)
    }
    const count = (n: number) => {
      total += n
      if (total > MAX_BODY_BYTES) fail(tooLarge())
    }
    // busboy names a part without a name `undefined`; it can be neither a field nor a file, so the form is refused.
    const unnamed = () => fail(gatewayError('invalid_request', 'invalid_multipart', { detail: 'a part has no name' }))
    parser.on('field', (name: string | undefined, value) => {
      if (name === undefined) return unnamed()
      count(value.length)
      addField(body.fields, name, value)
    })
    parser.on('file', (field: string | undefined, stream, info) => {
      if (field === undefined) {
        stream.resume()
        return unnamed()
      }
      const chunks: Buffer[] = []
      let size = 0
      stream.on('data', (chunk: Buffer) => {
        size += chunk.length
        count(chunk.length)
        if (!failed) chunks.push(chunk)
      })
      stream.on('end', () => {
        if (!failed) body.files.push({ field, filename: info.filename ?? field, mimeType: info.mimeType, chunks, size })
      })
    })
    parser.on('error', (err: Error) => fail(gatewayError('invalid_request', 'invalid_multipart', { detail: err.message })))
    parser.on('close', () => {
      if (!failed) resolve(body)
    })
    req.on('aborted', () => fail(new Error('client aborted')))
    req.pipe(parser)
  })
}

function addField(fields: MultipartBody['fields'], rawName: string, value: string): void {
  // `image[]` and a repeated `image` mean the same: a list.
  const name = rawName.endsWith('[]') ? rawName.slice(0, -2) : rawName
  const existing = fields[name]
  if (existing === undefined) fields[name] = rawName.endsWith('[]') ? [value] : value
  else fields[name] = Array.isArray(existing) ? [...existing, value] : [existing, value]
}

/** The field name without a trailing `[]`. */
export const baseField = (name: string): string => (name.endsWith('[]') ? name.slice(0, -2) : name)
