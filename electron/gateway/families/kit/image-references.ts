/**
 * Reference images in the JSON/text fields of an image request (spec §4.2): each an HTTP(S) URL or a
 * data: URL. Remote URLs are not fetched here (type and size checks happen at download, if at all);
 * multipart file parts stay with the caller and only count toward the limits.
 */
import type { CatalogModel } from '../../../../shared/types.js'
import { catalogNumber } from '../../../../shared/schemas/images.js'
import { dataUrlBytes, parseDataUrl } from '../../formats/data-url.js'
import type { ImageCheckOptions } from '../../contract/image-request.js'
import { invalid, isAbsent, isObj, type Obj } from './image-fields.js'

export interface ReferenceSpec {
  /** Fields read and concatenated, e.g. `image` and its multipart spelling `image[]`. */
  fields: readonly string[]
  /** A field that, when sent, is read instead of `fields` (Gemini/Grok: `images` wins over `image`). */
  preferred?: string
  /** Largest data: URL, in bytes of the URL text (Seedream). */
  dataUrlMaxBytes?: number
  /** Largest data: URL payload once decoded (Gemini official-direct group). */
  decodedMaxBytes?: number
  /** The edits endpoint needs at least one reference. */
  requireOnEdits: boolean
}

export interface References {
  references: string[]
  /** references plus the caller's image file parts */
  count: number
}

const HTTP_URL = /^https?:\/\//i
const FILE_ID = /^file[-_][A-Za-z0-9_-]+$/
// Long runs of base64 alphabet only: a client that forgot the data: prefix.
const RAW_BASE64 = /^[A-Za-z0-9+/_-]{16,}={0,2}$/

/** One reference value: returned as given when it is an HTTP(S) or data: URL, else a 400 naming why. */
export function checkReference(value: unknown, param: string): string {
  if (isObj(value) && 'file_id' in value) throw invalid('image_reference_file_id', { field: param }, param)
  if (typeof value !== 'string') throw invalid('image_reference_invalid', { field: param }, param)
  // The scheme must open the value, as the published schema's pattern says.
  if (HTTP_URL.test(value)) return value
  if (/^data:/i.test(value) && parseDataUrl(value)) return value
  const text = value.trim()
  if (FILE_ID.test(text)) throw invalid('image_reference_file_id', { field: param }, param)
  if (RAW_BASE64.test(text.replace(/\s+/g, ''))) throw invalid('image_reference_base64', { field: param }, param)
  throw invalid('image_reference_invalid', { field: param }, param)
}

/** Bytes a data: URL's payload decodes to, computed from its length (no decoding of base64). */
export function decodedDataUrlBytes(url: string): number {
  const data = parseDataUrl(url)
  if (!data) return 0
  if (!data.base64) return dataUrlBytes(data).bytes.length
  // Every 4 characters carry 3 bytes; '=' padding and whitespace carry nothing.
  let chars = 0
  for (let i = 0; i < data.payload.length; i++) {
    const c = data.payload.charCodeAt(i)
    if (c !== 0x3d && c > 0x20) chars++
  }
  return Math.floor((chars * 3) / 4)
}

function entries(body: Obj, field: string): Array<{ value: unknown; param: string }> {
  const v = body[field]
  if (isAbsent(v)) return []
  return Array.isArray(v) ? v.map((value, i) => ({ value, param: `${field}[${i}]` })) : [{ value: v, param: field }]
}

function checkSize(url: string, param: string, spec: ReferenceSpec): void {
  if (!/^data:/i.test(url)) return
  if (spec.dataUrlMaxBytes !== undefined) {
    const size = Buffer.byteLength(url, 'utf8')
    if (size > spec.dataUrlMaxBytes) throw invalid('image_reference_too_large', { field: param, size, max: spec.dataUrlMaxBytes }, param)
  }
  if (spec.decodedMaxBytes !== undefined) {
    const size = decodedDataUrlBytes(url)
    if (size > spec.decodedMaxBytes) throw invalid('image_reference_too_large', { field: param, size, max: spec.decodedMaxBytes }, param)
  }
}

/** The largest file whose data: URL (`data:image/<type>;base64,` and 4 characters per 3 bytes) fits in `dataUrlMax` bytes. */
function fileAsDataUrlMax(dataUrlMax: number): number {
  const prefix = 'data:image/jpeg;base64,'.length
  return Math.floor((dataUrlMax - prefix) / 4) * 3
}

/** The request's references, checked one by one and counted against the catalog's maxReferenceImages. */
export function readReferences(body: Obj, model: CatalogModel, opts: ImageCheckOptions, spec: ReferenceSpec): References {
  const usePreferred = spec.preferred !== undefined && !isAbsent(body[spec.preferred])
  const fields = usePreferred ? [spec.preferred as string] : spec.fields
  const found = fields.flatMap((field) => entries(body, field))
  const references = found.map(({ value, param }) => {
    const url = checkReference(value, param)
    checkSize(url, param, spec)
    return url
  })
  // File parts go to such a vendor as data: URLs (routes/images.ts): the same limit, on the bytes they carry.
  if (spec.dataUrlMaxBytes !== undefined) {
    const max = fileAsDataUrlMax(spec.dataUrlMaxBytes)
    opts.imageFileBytes?.forEach((size, i) => {
      if (size > max) throw invalid('image_reference_too_large', { field: `image[${i}]`, size, max }, 'image')
    })
  }
  const count = references.length + (opts.imageFiles ?? 0)
  const field = fields[0]
  if (spec.requireOnEdits && opts.endpoint === 'edits' && count === 0) throw invalid('image_references_missing', { field }, field)
  const max = catalogNumber(model, 'maxReferenceImages')
  if (max !== undefined && count > max) throw invalid('image_references_too_many', { model: model.id, count, max }, field)
  return { references, count }
}
