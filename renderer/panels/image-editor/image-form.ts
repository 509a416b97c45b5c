/**
 * The form as pure functions of the panel's state: the model and controls chosen, the model each mode uses, the
 * form fitted to the model, and whether it can be sent.
 */
import type { ImageMode, ImageModels } from './image-types'
import { fitParams, type EndpointControls, type ImageModelOption } from './model-options'
import { formProblem, type FormState } from './submission'

/** The parts of the panel's state that say which model and controls the form uses. */
export interface ModelChoice {
  imageMode: ImageMode
  imageModelId: string | null
  imageModels: Pick<ImageModels, 'options'>
}

/** The fields a change of model or mode fits to the model's controls. */
export interface FittedFields {
  imageParams: Record<string, string>
  imageSizeText: string | null
  imageN: number
}

/** The option of the chosen model, if the group has it. */
export const selectedModel = (s: ModelChoice): ImageModelOption | undefined => s.imageModels.options.find((m) => m.id === s.imageModelId)

/** The controls of the chosen model on the current mode's endpoint. */
export const selectedControls = (s: ModelChoice): EndpointControls | undefined => {
  const option = selectedModel(s)
  return s.imageMode === 'edit' ? option?.edits : option?.generations
}

/** The model to use in `mode`: the current one if it serves that endpoint, else the first that does. */
export function modelFor(options: readonly ImageModelOption[], mode: ImageMode, current: string | null): string | null {
  const serves = (m: ImageModelOption) => (mode === 'edit' ? m.edits : m.generations) !== undefined
  if (options.some((m) => m.id === current && serves(m))) return current
  return options.find(serves)?.id ?? null
}

/** The mode once the group's models are known: Edit only while one of them can edit. */
export const modeFor = (options: readonly ImageModelOption[], mode: ImageMode): ImageMode =>
  mode === 'edit' && !options.some((m) => m.edits) ? 'generate' : mode

/** The form fitted to a (possibly new) model: unsupported values fall back to defaults, n within bounds. */
export function refit<P extends Partial<ModelChoice & FittedFields>>(s: ModelChoice & FittedFields, patch: P): P & FittedFields {
  const next = { ...s, ...patch }
  const controls = selectedControls(next)
  return {
    ...patch,
    imageParams: fitParams(next.imageParams, controls),
    imageSizeText: controls?.size?.custom ? next.imageSizeText : null,
    imageN: Math.max(1, Math.min(next.imageN, controls?.nMax ?? 1)),
  }
}

/** n as typed: a whole number, 1 for anything that is not a number. */
export const typedN = (n: number): number => (Number.isFinite(n) ? Math.round(n) : 1)

/** What a submission is made from, when the form can be sent: the group, and the chosen model's option and controls. */
export function readyToSend(s: ModelChoice & FormState & { groupId: string | null }): { group: string; option: ImageModelOption; controls: EndpointControls } | undefined {
  const option = selectedModel(s)
  const controls = selectedControls(s)
  if (!s.groupId || !option || !controls || formProblem(s, controls)) return undefined
  return { group: s.groupId, option, controls }
}
