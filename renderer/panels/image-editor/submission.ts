/**
 * From the form to a submission: what keeps the form from being sent, the size actually sent, and the
 * request (JSON generation or multipart edit with the mask PNG) with the run record that tracks it.
 */
import { quoteBody, type QuoteBody } from '../../api/quote'
import type { History } from '../../canvas/history'
import { countPainted, rasterizeStrokes, type MaskOp } from '../../canvas/mask-ops'
import { encodeMaskPng } from '../../canvas/mask-png'
import { fileToDataUrl } from '../../components/image-input'
import type { ImageMode, ImageRun, ReferenceImage } from './image-types'
import type { Submission } from './images-api'
import { deliveryOf, effectiveNMax, type EndpointControls, type ImageModelOption } from './model-options'
import { commonFields, editFormData, generationBody, type ImageForm } from './request-build'
import { checkCustomSize } from './size-presets'

/** The parts of the panel's state a submission reads. */
export interface FormState {
  imageMode: ImageMode
  imagePrompt: string
  imageParams: Record<string, string>
  imageSizeText: string | null
  imageN: number
  imageReferences: ReferenceImage[]
  imageMask: { refId: string | null; history: History<MaskOp> }
}

export type FormProblem = 'noPrompt' | 'noReference' | 'badSize' | 'tooMany' | 'tooManyReferences'

/** The body fields besides model/prompt/n: size (typed, picked or the model's default) and the closed-list choices. */
export function formParams(s: Pick<FormState, 'imageParams' | 'imageSizeText'>, controls: EndpointControls): Record<string, string> {
  const params: Record<string, string> = {}
  for (const c of controls.choices) if (s.imageParams[c.field]) params[c.field] = s.imageParams[c.field]
  if (!controls.size) return params
  if (s.imageSizeText !== null) {
    const typed = checkCustomSize(s.imageSizeText, controls.size.rule)
    if (typed.ok) params.size = typed.value
  } else {
    params.size = s.imageParams.size || controls.size.default
  }
  return params
}

/** Why the form cannot be sent yet, or undefined when it can. */
export function formProblem(s: FormState, controls: EndpointControls): FormProblem | undefined {
  if (s.imagePrompt.trim() === '') return 'noPrompt'
  if (s.imageMode === 'edit' && s.imageReferences.length === 0) return 'noReference'
  if (controls.references.max !== undefined && s.imageReferences.length > controls.references.max && (s.imageMode === 'edit' || controls.references.accepted)) return 'tooManyReferences'
  if (controls.size && s.imageSizeText !== null && !checkCustomSize(s.imageSizeText, controls.size.rule).ok) return 'badSize'
  if (s.imageN > effectiveNMax(controls, formParams(s, controls))) return 'tooMany'
  return undefined
}

/** The mask a request was sent with, kept to composite its results (coverage at the reference's size, 1 = painted). */
export interface SentMask {
  coverage: Uint8Array
  width: number
  height: number
}

/** The painted coverage of the first reference's mask, or undefined when nothing is painted on it. */
function maskCoverage(mask: FormState['imageMask'], first: ReferenceImage | undefined): SentMask | undefined {
  if (!first || mask.refId !== first.id || mask.history.done.length === 0) return undefined
  const coverage = rasterizeStrokes(mask.history.done, first.width, first.height)
  return countPainted(coverage) === 0 ? undefined : { coverage, width: first.width, height: first.height }
}

export type PreparedSubmission = Omit<Submission, 'onProgress' | 'onRequestId'>

/**
 * The run that tracks a submission, made at once (so the status shows it straight away), the request
 * to send, made by `request()` (reading files and encoding the mask take a moment), and for a masked edit
 * the mask sent with the reference it was painted on (to put the reference back outside it afterwards). An edit's
 * first reference is `before`, what its result is compared with.
 */
export function buildSubmission(s: FormState, group: string, option: ImageModelOption, controls: EndpointControls): { run: ImageRun; request(): Promise<PreparedSubmission>; masked?: { mask: SentMask; reference: Blob }; before?: Blob } {
  const edit = s.imageMode === 'edit'
  const delivery = deliveryOf(option.delivery, controls)
  const form: ImageForm = { model: option.id, prompt: s.imagePrompt, n: s.imageN, params: formParams(s, controls) }
  const refs = edit || controls.references.accepted ? s.imageReferences : []
  const mask = edit && controls.mask ? maskCoverage(s.imageMask, refs[0]) : undefined
  const { model: _model, prompt: _prompt, ...params } = commonFields(form, controls, delivery)
  const run: ImageRun = {
    id: crypto.randomUUID(), group, createdAt: Date.now(), mode: s.imageMode, model: option.id, prompt: s.imagePrompt, params,
    references: refs.length, masked: mask !== undefined, status: 'running', phase: 'submitting', images: [],
  }
  const request = async (): Promise<PreparedSubmission> => {
    const body = edit
      ? editFormData(form, controls, delivery, refs.map((r) => ({ blob: r.file, name: r.file.name || 'image.png' })), mask && (await encodeMaskPng(mask.coverage, mask.width, mask.height)))
      : generationBody(form, controls, delivery, await Promise.all(refs.map((r) => fileToDataUrl(r.file))))
    return { group, endpoint: edit ? 'edits' : 'generations', delivery, body }
  }
  return { run, request, ...(mask ? { masked: { mask, reference: refs[0].file } } : {}), ...(edit && refs[0] ? { before: refs[0].file } : {}) }
}

/**
 * The quote of what Generate would send: the generation body, or an edit in its JSON form (`image` as data URLs of the
 * references; a painted mask does not change the price and is left out).
 */
export function submissionQuote(s: Omit<FormState, 'imageReferences' | 'imageMask'>, option: ImageModelOption, controls: EndpointControls, references: string[]): QuoteBody {
  const form: ImageForm = { model: option.id, prompt: s.imagePrompt, n: s.imageN, params: formParams(s, controls) }
  const delivery = deliveryOf(option.delivery, controls)
  if (s.imageMode === 'edit') return quoteBody('/v1/images/edits', { ...commonFields(form, controls, delivery), image: references })
  return quoteBody('/v1/images/generations', generationBody(form, controls, delivery, controls.references.accepted ? references : []))
}
