/**
 * Request bodies of POST /v1/images/generations (JSON) and /v1/images/edits (multipart/form-data),
 * spec §4.2, from what the form holds and what the model's controls allow.
 */
import type { Delivery, EndpointControls } from './model-options'

/** What the user chose; `params` holds size and the closed-list fields (empty: leave out). */
export interface ImageForm {
  model: string
  prompt: string
  n: number
  params: Record<string, string>
}

/** A reference image file as the multipart body carries it. */
export interface NamedBlob {
  blob: Blob
  name: string
}

/** The text fields both endpoints share: only fields the model's controls offer, and only when set. */
export function commonFields(form: ImageForm, controls: EndpointControls, delivery: Delivery): Record<string, string | number | boolean> {
  const fields: Record<string, string | number | boolean> = { model: form.model, prompt: form.prompt, n: form.n }
  const size = form.params.size
  if (controls.size && size) fields.size = size
  for (const choice of controls.choices) {
    const value = form.params[choice.field]
    if (value && choice.values.includes(value)) fields[choice.field] = value
  }
  // Inline bytes are kept by the app; a vendor link expires (spec §8: 24 hours).
  if (controls.b64) fields.response_format = 'b64_json'
  if (delivery === 'stream') fields.stream = true
  return fields
}

/** The JSON body of a generation; `references` (data URLs) go in `image` where the model takes them. */
export function generationBody(form: ImageForm, controls: EndpointControls, delivery: Delivery, references: string[] = []): Record<string, unknown> {
  const body: Record<string, unknown> = commonFields(form, controls, delivery)
  if (controls.references.accepted && references.length > 0) body.image = references.length === 1 ? references[0] : references
  return body
}

/**
 * The multipart body of an edit: files under `image` (one) or `image[]` (several, spec §4.2 "reference
 * field image or image[], repeatable") and the mask PNG under `mask` when the model takes one.
 */
export function editFormData(form: ImageForm, controls: EndpointControls, delivery: Delivery, images: NamedBlob[], mask?: Blob): FormData {
  const data = new FormData()
  for (const [key, value] of Object.entries(commonFields(form, controls, delivery))) data.append(key, String(value))
  const field = images.length > 1 ? 'image[]' : 'image'
  for (const image of images) data.append(field, image.blob, image.name)
  if (mask && controls.mask) data.append('mask', mask, 'mask.png')
  return data
}

/** Headers of the submission: `Prefer: respond-async` asks for a 202 and a task (spec §4.2). */
export const submitHeaders = (delivery: Delivery): Record<string, string> => (delivery === 'async' ? { prefer: 'respond-async' } : {})
