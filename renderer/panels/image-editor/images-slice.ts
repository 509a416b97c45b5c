import type { StateCreator } from 'zustand'
import { emptyHistory, pushHistory, redoHistory, undoHistory, type History } from '../../canvas/history'
import type { MaskOp } from '../../canvas/mask-ops'
import { listModels, modelSpecs } from '../../api/gateway'
import { naturalSize } from '../../components/downscale-image'
import { askNotificationPermissionOnce, notifyTaskEnded } from '../../notify'
import type { AppState } from '../../stores/app-store'
import { carryOut, resumeRun, toRunError, type RunHooks } from './image-runs'
import { DEFAULT_FEATHER } from '../../canvas/composite'
import { compositeResult } from './composite-run'
import type { BrushSettings, ImageMode, ImageRun, ReferenceImage, ResultComposite, SelectSettings } from './image-types'
import { keepImage } from './images-api'
import { mediaSrc } from '../../api/admin'
import { MAX_BRUSH, MIN_BRUSH } from './mask-keys'
import { fitParams, imageModelOptions, type EndpointControls, type ImageModelOption } from './model-options'
import { buildSubmission, formProblem, type SentMask } from './submission'

/** The image models of the group the panel works in, with their controls. */
export interface ImageModels {
  group: string | null
  options: ImageModelOption[]
  loading: boolean
  error: unknown
}

/** The mask painted over the first reference image: its history, reset when that image changes. */
export interface MaskState {
  refId: string | null
  history: History<MaskOp>
}

/** The images panel: the form, references and mask (not saved), brush settings and the run history (saved). */
export interface ImagesSlice {
  imageMode: ImageMode
  imageModelId: string | null
  imagePrompt: string
  /** size and the closed-list fields; absent or '' = the model's default */
  imageParams: Record<string, string>
  /** a hand-typed `<W>x<H>` size, or null when the size comes from the list */
  imageSizeText: string | null
  imageN: number
  imageReferences: ReferenceImage[]
  imageMask: MaskState
  imageBrush: BrushSettings
  imageSelect: SelectSettings
  /** the composite's edge feather in result pixels (0 = a hard edge), for the next masked edits */
  imageFeather: number
  imageModels: ImageModels
  /** newest first */
  imageRuns: ImageRun[]
  /** `<runId>:<index>` → object URL of an inline result (this session only) */
  imageBlobUrls: Record<string, string>
  imageFormError: unknown
  loadImageModels(group: string): Promise<void>
  setImageMode(mode: ImageMode): void
  setImageModel(id: string): void
  setImagePrompt(prompt: string): void
  setImageParam(field: string, value: string): void
  setImageSizeText(text: string | null): void
  setImageN(n: number): void
  addImageReferences(files: File[]): Promise<void>
  removeImageReference(id: string): void
  makeReferenceFirst(id: string): void
  commitMaskOp(op: MaskOp): void
  undoMask(): void
  redoMask(): void
  clearMask(): void
  invertMask(): void
  setBrush(patch: Partial<BrushSettings>): void
  setSelect(patch: Partial<SelectSettings>): void
  setFeather(px: number): void
  /** shows a masked run's raw output (true) or its composite (false) */
  setShowRaw(runId: string, showRaw: boolean): void
  submitImageRun(): Promise<void>
  resumeImageRuns(): void
  removeImageRun(id: string): void
  dismissImageFormError(): void
}

/** Most runs the history keeps. */
export const MAX_RUNS = 200
/** The widest feather offered: beyond a few pixels the seam only gets blurrier. */
export const MAX_FEATHER = 16
const DEFAULT_BRUSH: BrushSettings = { tool: 'brush', size: 48, opacity: 0.5 }
const DEFAULT_SELECT: SelectSettings = { tolerance: 32, mode: 'add', busy: false, error: null }

// Runs this session is carrying out; a saved run marked running but not here was cut off by a restart.
const active = new Set<string>()

/** The option of the chosen model, if the group has it. */
export const selectedModel = (s: AppState): ImageModelOption | undefined => s.imageModels.options.find((m) => m.id === s.imageModelId)

/** The controls of the chosen model on the current mode's endpoint. */
export const selectedControls = (s: AppState): EndpointControls | undefined => {
  const option = selectedModel(s)
  return s.imageMode === 'edit' ? option?.edits : option?.generations
}

/** The model to use in `mode`: the current one if it serves that endpoint, else the first that does. */
function modelFor(options: ImageModelOption[], mode: ImageMode, current: string | null): string | null {
  const serves = (m: ImageModelOption) => (mode === 'edit' ? m.edits : m.generations) !== undefined
  if (options.some((m) => m.id === current && serves(m))) return current
  return options.find(serves)?.id ?? null
}

/** The form fitted to a (possibly new) model: unsupported values fall back to defaults, n within bounds. */
function refit(s: AppState, patch: Partial<ImagesSlice>): Partial<ImagesSlice> {
  const next = { ...s, ...patch } as AppState
  const controls = selectedControls(next)
  return {
    ...patch,
    imageParams: fitParams(next.imageParams, controls),
    imageSizeText: controls?.size?.custom ? next.imageSizeText : null,
    imageN: Math.max(1, Math.min(next.imageN, controls?.nMax ?? 1)),
  }
}

/** A desktop notification for a long run that ended while the window was in the background. */
function notifyRunEnded(s: AppState, id: string): void {
  const run = s.imageRuns.find((r) => r.id === id)
  if (!run || run.status === 'running') return
  void notifyTaskEnded(run.status === 'succeeded' ? 'imageDone' : 'imageFailed', run.model, run.prompt, (run.finishedAt ?? Date.now()) - run.createdAt, s.language)
}

/** The mask state for the current first reference: kept when it is the same image, empty otherwise. */
const maskFor = (mask: MaskState, refs: ReferenceImage[]): MaskState =>
  mask.refId === (refs[0]?.id ?? null) ? mask : { refId: refs[0]?.id ?? null, history: emptyHistory() }

export const createImagesSlice: StateCreator<AppState, [], [], ImagesSlice> = (set, get) => {
  const updateRun = (id: string) => (fn: (run: ImageRun) => ImageRun) => set((s) => ({ imageRuns: s.imageRuns.map((r) => (r.id === id ? fn(r) : r)) }))
  const hooksFor = (id: string): RunHooks => ({
    update: updateRun(id),
    showBlob: (index, blob) => set((s) => ({ imageBlobUrls: { ...s.imageBlobUrls, [`${id}:${index}`]: URL.createObjectURL(blob) } })),
  })
  const patchComposite = (runId: string, index: number, patch: Partial<ResultComposite>) =>
    updateRun(runId)((r) => ({ ...r, images: r.images.map((img, i) => (i === index ? { ...img, composite: { state: 'pending', ...img.composite, ...patch } } : img)) }))

  /**
   * Puts the reference back outside the mask in each result of a finished masked run, shows the composite at
   * once and keeps it in the media store; a result that cannot be read (say, only a vendor link) stays raw.
   */
  const compositeRunImages = async (runId: string, mask: SentMask, reference: Blob, feather: number) => {
    const run = get().imageRuns.find((r) => r.id === runId)
    if (!run || run.status !== 'succeeded') return
    await Promise.all(
      run.images.map(async (image, i) => {
        const src = get().imageBlobUrls[`${runId}:${i}`] ?? (image.url ? mediaSrc(image.url) : undefined)
        if (!src) return
        patchComposite(runId, i, { state: 'pending' })
        try {
          const { png, stats } = await compositeResult(src, reference, mask, feather)
          set((s) => ({ imageBlobUrls: { ...s.imageBlobUrls, [`${runId}:${i}:composite`]: URL.createObjectURL(png) } }))
          patchComposite(runId, i, { stats })
          const media = await keepImage(run.requestId ?? '', png)
          patchComposite(runId, i, { state: 'kept', mediaId: media.id, url: media.url })
        } catch (err) {
          patchComposite(runId, i, { state: 'failed', error: toRunError(err).message })
        }
      }),
    )
  }
  const editMask = (fn: (h: History<MaskOp>) => History<MaskOp>) => set((s) => ({ imageMask: { ...s.imageMask, history: fn(s.imageMask.history) } }))

  return {
    imageMode: 'generate',
    imageModelId: null,
    imagePrompt: '',
    imageParams: {},
    imageSizeText: null,
    imageN: 1,
    imageReferences: [],
    imageMask: { refId: null, history: emptyHistory() },
    imageBrush: DEFAULT_BRUSH,
    imageSelect: DEFAULT_SELECT,
    imageFeather: DEFAULT_FEATHER,
    imageModels: { group: null, options: [], loading: false, error: null },
    imageRuns: [],
    imageBlobUrls: {},
    imageFormError: null,

    loadImageModels: async (group) => {
      set((s) => ({ imageModels: { ...s.imageModels, group, loading: true, error: null } }))
      try {
        const [listed, index] = await Promise.all([listModels(group), modelSpecs()])
        if (get().groupId !== group) return
        const options = imageModelOptions(listed, index, get().groups.find((g) => g.id === group)?.images ?? {})
        set((s) => {
          const mode = s.imageMode === 'edit' && !options.some((m) => m.edits) ? 'generate' : s.imageMode
          return refit(s, { imageModels: { group, options, loading: false, error: null }, imageMode: mode, imageModelId: modelFor(options, mode, s.imageModelId) })
        })
      } catch (error) {
        set((s) => ({ imageModels: { ...s.imageModels, group, options: [], loading: false, error } }))
      }
    },
    setImageMode: (mode) => set((s) => refit(s, { imageMode: mode, imageModelId: modelFor(s.imageModels.options, mode, s.imageModelId) })),
    setImageModel: (id) => set((s) => refit(s, { imageModelId: id })),
    setImagePrompt: (imagePrompt) => set({ imagePrompt }),
    setImageParam: (field, value) => set((s) => refit(s, { imageParams: { ...s.imageParams, [field]: value } })),
    setImageSizeText: (imageSizeText) => set({ imageSizeText }),
    setImageN: (n) => set((s) => refit(s, { imageN: Number.isFinite(n) ? Math.round(n) : 1 })),

    addImageReferences: async (files) => {
      try {
        const refs = await Promise.all(
          files.map(async (file) => {
            const url = URL.createObjectURL(file)
            try {
              return { id: crypto.randomUUID(), file, url, ...(await naturalSize(url)) }
            } catch (err) {
              URL.revokeObjectURL(url)
              throw new Error(`${file.name}: ${(err as Error).message}`)
            }
          }),
        )
        set((s) => {
          const imageReferences = [...s.imageReferences, ...refs]
          return { imageReferences, imageMask: maskFor(s.imageMask, imageReferences) }
        })
      } catch (error) {
        set({ imageFormError: error })
      }
    },
    removeImageReference: (id) =>
      set((s) => {
        const gone = s.imageReferences.find((r) => r.id === id)
        if (gone) URL.revokeObjectURL(gone.url)
        const imageReferences = s.imageReferences.filter((r) => r.id !== id)
        return { imageReferences, imageMask: maskFor(s.imageMask, imageReferences) }
      }),
    makeReferenceFirst: (id) =>
      set((s) => {
        const ref = s.imageReferences.find((r) => r.id === id)
        if (!ref) return {}
        const imageReferences = [ref, ...s.imageReferences.filter((r) => r.id !== id)]
        return { imageReferences, imageMask: maskFor(s.imageMask, imageReferences) }
      }),

    commitMaskOp: (op) => editMask((h) => pushHistory(h, op)),
    undoMask: () => editMask(undoHistory),
    redoMask: () => editMask(redoHistory),
    // A clear of an empty mask would only add a step that undoes nothing.
    clearMask: () => editMask((h) => (h.done.length === 0 || h.done[h.done.length - 1].kind === 'clear' ? h : pushHistory(h, { kind: 'clear' }))),
    invertMask: () => editMask((h) => pushHistory(h, { kind: 'invert' })),
    setBrush: (patch) =>
      set((s) => {
        const brush = { ...s.imageBrush, ...patch }
        return { imageBrush: { ...brush, size: Math.min(MAX_BRUSH, Math.max(MIN_BRUSH, Math.round(brush.size))), opacity: Math.min(1, Math.max(0, brush.opacity)) } }
      }),

    setSelect: (patch) =>
      set((s) => {
        const select = { ...s.imageSelect, ...patch }
        return { imageSelect: { ...select, tolerance: Math.min(255, Math.max(0, Math.round(select.tolerance))) } }
      }),
    setFeather: (px) => set({ imageFeather: Number.isFinite(px) ? Math.min(MAX_FEATHER, Math.max(0, Math.round(px))) : DEFAULT_FEATHER }),
    setShowRaw: (runId, showRaw) => updateRun(runId)((r) => ({ ...r, showRaw })),

    submitImageRun: async () => {
      const s = get()
      const option = selectedModel(s)
      const controls = selectedControls(s)
      if (!s.groupId || !option || !controls || formProblem(s, controls)) return
      const { run, request, masked } = buildSubmission(s, s.groupId, option, controls)
      const feather = s.imageFeather
      // Image tasks can take minutes: ask once whether the desktop may say when one ends in the background.
      askNotificationPermissionOnce()
      active.add(run.id)
      set((st) => ({
        imageFormError: null,
        imageRuns: [run, ...st.imageRuns].slice(0, MAX_RUNS),
        // The reference as it was sent, for the before/after comparison (this session only).
        ...(masked ? { imageBlobUrls: { ...st.imageBlobUrls, [`${run.id}:reference`]: URL.createObjectURL(masked.reference) } } : {}),
      }))
      const hooks = hooksFor(run.id)
      try {
        await carryOut(await request(), hooks)
        if (masked) await compositeRunImages(run.id, masked.mask, masked.reference, feather)
      } catch (err) {
        hooks.update((r) => ({ ...r, status: 'failed', phase: undefined, error: toRunError(err), finishedAt: Date.now() }))
      } finally {
        active.delete(run.id)
        notifyRunEnded(get(), run.id)
      }
    },
    resumeImageRuns: () => {
      for (const run of get().imageRuns) {
        if (run.status !== 'running' || active.has(run.id)) continue
        if (!run.taskId) {
          updateRun(run.id)((r) => ({ ...r, status: 'failed', phase: undefined, interrupted: true, finishedAt: Date.now() }))
          continue
        }
        active.add(run.id)
        void resumeRun(run.group, run.taskId, run.requestId ?? '', hooksFor(run.id)).finally(() => {
          active.delete(run.id)
          notifyRunEnded(get(), run.id)
        })
      }
    },
    removeImageRun: (id) =>
      set((s) => {
        const blobUrls = { ...s.imageBlobUrls }
        for (const key of Object.keys(blobUrls)) {
          if (!key.startsWith(`${id}:`)) continue
          URL.revokeObjectURL(blobUrls[key])
          delete blobUrls[key]
        }
        return { imageRuns: s.imageRuns.filter((r) => r.id !== id), imageBlobUrls: blobUrls }
      }),
    dismissImageFormError: () => set({ imageFormError: null }),
  }
}

/** What the `images` state document keeps: the history (gateway media links, never image bytes), the draft and the brush. */
export const imagesPersisted = (s: AppState) => ({
  imageRuns: s.imageRuns.slice(0, MAX_RUNS),
  imageMode: s.imageMode,
  imageModelId: s.imageModelId,
  imagePrompt: s.imagePrompt,
  imageBrush: s.imageBrush,
})
