/**
 * What the form offers for a video model, from the catalog data the gateway publishes (GET /api/v1/models/pricing):
 * resolutions, durations, aspect ratios and modes (text, first frame, first and last frame, references) where the
 * entry lists them; where it does not, the field is free and the gateway's own check (400 naming the allowed values)
 * has the last word. Only what the model accepts is sent.
 */
import type { ModelEntry } from '../../api/gateway'
import type { VideoBody, VideoImage } from './video-types'

/** One entry of GET /api/v1/models/pricing; catalog fields beyond these are read when present. */
export interface PricingEntry {
  model: string
  type: string
  family: string
  vendor?: string
  pricing: { unit: string; price?: number; byResolution?: Record<string, number>; [k: string]: unknown }
  deprecated?: boolean
  [field: string]: unknown
}

/** A video model with the values it accepts; null: the catalog does not say. */
export interface VideoModelOption {
  id: string
  family: string
  resolutions: string[] | null
  durations: number[] | null
  aspectRatios: string[] | null
  /** catalog words: t2v, i2v, first-last-frame, reference */
  modes: string[] | null
  /** a lower cap on the duration at some resolutions */
  maxDurationByResolution: Record<string, number>
  /** USD per second of video, by resolution where it differs */
}

/** What the form holds; '' for a field means "the model's default" (the field is left out). */
export interface VideoForm {
  modelId: string | null
  prompt: string
  duration: string
  resolution: string
  aspectRatio: string
  imageRole: 'first_frame' | 'reference'
  /** data URL */
  image: string | null
  /** data URL of the closing frame (first-and-last-frame models) */
  lastFrame: string | null
}

export const EMPTY_FORM: VideoForm = {
  modelId: null, prompt: '', duration: '', resolution: '', aspectRatio: '', imageRole: 'first_frame', image: null, lastFrame: null,
}

/** The controls the form shows for a model at the chosen resolution. */
export interface VideoControls {
  resolutions: string[] | null
  durations: number[] | null
  aspectRatios: string[] | null
  /** text-to-video is offered */
  text: boolean
  /** roles the (first) picture may take; empty: the model takes no picture */
  imageRoles: Array<VideoForm['imageRole']>
  lastFrame: boolean
  /** image-to-video only: a picture must be given */
  imageRequired: boolean
}

export type VideoFormProblem = 'noModel' | 'unsupported' | 'noInput' | 'imageRequired'

const strings = (v: unknown): string[] | null =>
  Array.isArray(v) && v.every((x) => typeof x === 'string') ? (v as string[]) : null
const numbers = (v: unknown): number[] | null =>
  Array.isArray(v) && v.every((x) => typeof x === 'number') ? (v as number[]) : null
const numberRecord = (v: unknown): Record<string, number> =>
  v !== null && typeof v === 'object' ? Object.fromEntries(Object.entries(v).filter(([, n]) => typeof n === 'number')) : {}

/** The option of one listed video model, from its catalog entry (resolutions fall back to the keys of its per-resolution prices). */
export function videoOption(model: Pick<ModelEntry, 'id' | 'family'>, entry: PricingEntry | undefined): VideoModelOption {
  const byResolution = numberRecord(entry?.pricing.byResolution)
  const priced = Object.keys(byResolution)
  return {
    id: model.id,
    family: model.family,
    resolutions: strings(entry?.resolutions) ?? (priced.length > 0 ? priced : null),
    durations: numbers(entry?.durations),
    aspectRatios: strings(entry?.aspectRatios),
    modes: strings(entry?.modes),
    maxDurationByResolution: numberRecord(entry?.maxDurationByResolution),
  }
}

/** The controls for a model; durations are cut to the resolution's cap where the catalog gives one. */
export function videoControls(option: VideoModelOption, resolution: string): VideoControls {
  const modes = option.modes
  const has = (mode: string) => modes === null || modes.includes(mode)
  const cap = resolution ? option.maxDurationByResolution[resolution] : undefined
  const imageRoles: VideoControls['imageRoles'] = []
  if (has('i2v') || has('first-last-frame')) imageRoles.push('first_frame')
  if (has('reference')) imageRoles.push('reference')
  return {
    resolutions: option.resolutions,
    durations: option.durations && cap !== undefined ? option.durations.filter((d) => d <= cap) : option.durations,
    aspectRatios: option.aspectRatios,
    text: has('t2v'),
    imageRoles,
    lastFrame: has('first-last-frame'),
    imageRequired: !has('t2v') && imageRoles.length > 0,
  }
}

const offered = <T>(list: T[] | null, value: T): boolean => list === null || list.includes(value)

/** The form with whatever the model does not accept cleared (after a change of model or resolution). */
export function fitVideoForm(form: VideoForm, controls: VideoControls): VideoForm {
  const imageRole = controls.imageRoles.includes(form.imageRole) ? form.imageRole : (controls.imageRoles[0] ?? 'first_frame')
  const keepsImage = controls.imageRoles.length > 0
  return {
    ...form,
    resolution: form.resolution && offered(controls.resolutions, form.resolution) ? form.resolution : '',
    duration: form.duration && offered(controls.durations, Number(form.duration)) ? form.duration : '',
    aspectRatio: form.aspectRatio && offered(controls.aspectRatios, form.aspectRatio) ? form.aspectRatio : '',
    imageRole,
    image: keepsImage ? form.image : null,
    lastFrame: controls.lastFrame && imageRole === 'first_frame' ? form.lastFrame : null,
  }
}

/** Why the form cannot be sent yet, or null. */
export function videoFormProblem(form: VideoForm, controls: VideoControls | null): VideoFormProblem | null {
  if (!form.modelId || !controls) return 'noModel'
  if (!controls.text && controls.imageRoles.length === 0) return 'unsupported'
  if (controls.imageRequired && !form.image) return 'imageRequired'
  if (form.prompt.trim() === '' && !form.image) return 'noInput'
  return null
}

/** The request body of the form (fields left at the default are left out). */
export function videoBody(form: VideoForm): VideoBody {
  const images: VideoImage[] = []
  if (form.image) images.push({ role: form.imageRole, url: form.image })
  if (form.image && form.lastFrame && form.imageRole === 'first_frame') images.push({ role: 'last_frame', url: form.lastFrame })
  const prompt = form.prompt.trim()
  const duration = Number(form.duration)
  return {
    model: form.modelId ?? '',
    ...(prompt ? { prompt } : {}),
    ...(images.length > 0 ? { images } : {}),
    ...(form.duration && Number.isFinite(duration) && duration > 0 ? { duration } : {}),
    ...(form.resolution ? { resolution: form.resolution } : {}),
    ...(form.aspectRatio ? { aspect_ratio: form.aspectRatio } : {}),
  }
}
