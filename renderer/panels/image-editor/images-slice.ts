import type { StateCreator } from 'zustand'
import { emptyHistory, pushHistory, redoHistory, undoHistory, type History } from '../../canvas/history'
import type { MaskOp } from '../../canvas/mask-ops'
import { listModels, modelSpecs } from '../../api/gateway'
import { naturalSize } from '../../components/downscale-image'
import { askNotificationPermissionOnce, notifyTaskEnded } from '../../notify'
import type { AppState } from '../../stores/app-store'
import { DEFAULT_FEATHER } from '../../canvas/composite'
import { compositeResults, type CompositeHooks } from './composite-results'
import { carryOut, resumeRun, toRunError, type RunHooks } from './image-runs'
import { modeFor, modelFor, readyToSend, refit, typedN } from './image-form'
import type { BrushSettings, ImageMode, ImageModels, ImageRun, MaskState, ReferenceImage, RunImage, SelectSettings } from './image-types'
import { DEFAULT_BRUSH, DEFAULT_SELECT, fitBrush, fitFeather, fitSelect, withClear } from './mask-settings'
import { imageModelOptions } from './model-options'
import { withReferenceFirst, withReferences, withoutReference } from './references'
import {
  compositeBlobKey, MAX_RUNS, referenceBlobKey, resultBlobKey, withNewRun, withoutRun, withoutRunBlobs, withRunUpdated,
} from './run-history'
import { endedNotice, runFailed, runInterrupted, unfinishedRuns } from './run-status'
import { buildSubmission } from './submission'

// The panel's selectors, with the state they read.
export { selectedControls, selectedModel } from './image-form'

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
  /** object URLs of inline results, composites and sent references, by run (run-history.ts keys; this session only) */
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
  /** replaces image `index` of a run (its copy's state, followed from its card) */
  setRunImage(runId: string, index: number, image: RunImage): void
  submitImageRun(): Promise<void>
  resumeImageRuns(): void
  removeImageRun(id: string): void
  dismissImageFormError(): void
}

// Runs this session is carrying out; a saved run marked running but not here was cut off by a restart.
const active = new Set<string>()

/** A picked file as a reference: shown through an object URL, measured (the mask is painted at its natural size). */
async function readReference(file: File): Promise<ReferenceImage> {
  const url = URL.createObjectURL(file)
  try {
    return { id: crypto.randomUUID(), file, url, ...(await naturalSize(url)) }
  } catch (err) {
    URL.revokeObjectURL(url)
    throw new Error(`${file.name}: ${(err as Error).message}`)
  }
}

/** The panel before anything is picked, typed or run. */
const initialState = () => ({
  imageMode: 'generate' as ImageMode,
  imageModelId: null,
  imagePrompt: '',
  imageParams: {},
  imageSizeText: null,
  imageN: 1,
  imageReferences: [],
  imageMask: { refId: null, history: emptyHistory<MaskOp>() },
  imageBrush: DEFAULT_BRUSH,
  imageSelect: DEFAULT_SELECT,
  imageFeather: DEFAULT_FEATHER,
  imageModels: { group: null, options: [], loading: false, error: null },
  imageRuns: [],
  imageBlobUrls: {},
  imageFormError: null,
})

export const createImagesSlice: StateCreator<AppState, [], [], ImagesSlice> = (set, get) => {
  const updateRun = (id: string) => (fn: (run: ImageRun) => ImageRun) => set((s) => ({ imageRuns: withRunUpdated(s.imageRuns, id, fn) }))
  const showBlob = (key: string, blob: Blob) => set((s) => ({ imageBlobUrls: { ...s.imageBlobUrls, [key]: URL.createObjectURL(blob) } }))
  const hooksFor = (id: string): RunHooks => ({ update: updateRun(id), showBlob: (index, blob) => showBlob(resultBlobKey(id, index), blob) })
  const compositeHooks = (id: string): CompositeHooks => ({
    update: updateRun(id),
    resultBlob: (index) => get().imageBlobUrls[resultBlobKey(id, index)],
    showComposite: (index, png) => showBlob(compositeBlobKey(id, index), png),
  })
  const editMask = (fn: (h: History<MaskOp>) => History<MaskOp>) => set((s) => ({ imageMask: { ...s.imageMask, history: fn(s.imageMask.history) } }))
  /** The run is no longer carried out here; a long one that ended in the background gets a desktop notification. */
  const ended = (id: string) => {
    active.delete(id)
    const s = get()
    const notice = endedNotice(s.imageRuns.find((r) => r.id === id), Date.now())
    if (notice) void notifyTaskEnded(notice.kind, notice.model, notice.prompt, notice.elapsedMs, s.language)
  }

  return {
    ...initialState(),

    loadImageModels: async (group) => {
      set((s) => ({ imageModels: { ...s.imageModels, group, loading: true, error: null } }))
      try {
        const [listed, index] = await Promise.all([listModels(group), modelSpecs()])
        if (get().groupId !== group) return
        const options = imageModelOptions(listed, index, get().groups.find((g) => g.id === group)?.images ?? {})
        set((s) => {
          const mode = modeFor(options, s.imageMode)
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
    setImageN: (n) => set((s) => refit(s, { imageN: typedN(n) })),

    addImageReferences: async (files) => {
      try {
        const refs = await Promise.all(files.map(readReference))
        set((s) => withReferences(s.imageMask, [...s.imageReferences, ...refs]))
      } catch (error) {
        set({ imageFormError: error })
      }
    },
    removeImageReference: (id) =>
      set((s) => {
        const gone = s.imageReferences.find((r) => r.id === id)
        if (gone) URL.revokeObjectURL(gone.url)
        return withReferences(s.imageMask, withoutReference(s.imageReferences, id))
      }),
    makeReferenceFirst: (id) =>
      set((s) => {
        const imageReferences = withReferenceFirst(s.imageReferences, id)
        return imageReferences ? withReferences(s.imageMask, imageReferences) : {}
      }),

    commitMaskOp: (op) => editMask((h) => pushHistory(h, op)),
    undoMask: () => editMask(undoHistory),
    redoMask: () => editMask(redoHistory),
    clearMask: () => editMask(withClear),
    invertMask: () => editMask((h) => pushHistory(h, { kind: 'invert' })),
    setBrush: (patch) => set((s) => ({ imageBrush: fitBrush({ ...s.imageBrush, ...patch }) })),
    setSelect: (patch) => set((s) => ({ imageSelect: fitSelect({ ...s.imageSelect, ...patch }) })),
    setFeather: (px) => set({ imageFeather: fitFeather(px) }),
    setShowRaw: (runId, showRaw) => updateRun(runId)((r) => ({ ...r, showRaw })),
    setRunImage: (runId, index, image) => updateRun(runId)((r) => ({ ...r, images: r.images.map((img, i) => (i === index ? image : img)) })),

    submitImageRun: async () => {
      const s = get()
      const ready = readyToSend(s)
      if (!ready) return
      const { run, request, masked, before } = buildSubmission(s, ready.group, ready.option, ready.controls)
      const feather = s.imageFeather
      // Image tasks can take minutes: ask once whether the desktop may say when one ends in the background.
      askNotificationPermissionOnce()
      active.add(run.id)
      set((st) => ({
        imageFormError: null,
        imageRuns: withNewRun(st.imageRuns, run),
        // An edit's reference as it was sent, for the before/after comparison (this session only).
        ...(before ? { imageBlobUrls: { ...st.imageBlobUrls, [referenceBlobKey(run.id)]: URL.createObjectURL(before) } } : {}),
      }))
      const hooks = hooksFor(run.id)
      try {
        await carryOut(await request(), hooks)
        if (masked) await compositeResults(get().imageRuns.find((r) => r.id === run.id), masked.mask, masked.reference, feather, compositeHooks(run.id))
      } catch (err) {
        hooks.update((r) => runFailed(r, toRunError(err), Date.now()))
      } finally {
        ended(run.id)
      }
    },
    resumeImageRuns: () => {
      for (const run of unfinishedRuns(get().imageRuns, active)) {
        if (!run.taskId) {
          updateRun(run.id)((r) => runInterrupted(r, Date.now()))
          continue
        }
        active.add(run.id)
        void resumeRun(run.group, run.taskId, run.requestId ?? '', hooksFor(run.id)).finally(() => ended(run.id))
      }
    },
    removeImageRun: (id) =>
      set((s) => {
        const { kept, dropped } = withoutRunBlobs(s.imageBlobUrls, id)
        for (const url of dropped) URL.revokeObjectURL(url)
        return { imageRuns: withoutRun(s.imageRuns, id), imageBlobUrls: kept }
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
