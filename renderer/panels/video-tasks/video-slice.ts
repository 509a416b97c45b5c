import type { StateCreator } from 'zustand'
import { admin } from '../../api/admin'
import { fileToDataUrl } from '../../components/image-input'
import { askNotificationPermissionOnce } from '../../notify'
import type { AppState } from '../../stores/app-store'
import { storage } from '../../stores/gateway-storage'
import { bodyFromNote, newSubmission, noteOf, savedSubmissions, submissionFailed, submissionRetried } from './submissions'
import { fetchVideoModels, inlineImages, keepImages, sendSubmission, toSubmissionError } from './video-api'
import { refresh, startPolling, wake, type GetState, type SetState } from './video-poller'
import {
  EMPTY_FORM, fitVideoForm, videoBody, videoControls, videoFormProblem, type VideoControls, type VideoForm, type VideoModelOption,
} from './video-options'
import type { Submission, TaskNote, VideoTaskEntry, VideoTaskView } from './video-types'

/** The group's video models with their controls. */
export interface VideoModels {
  group: string | null
  options: VideoModelOption[]
  loading: boolean
  error: unknown
}

/**
 * The video panel: the form, the task list (from the gateway, merged with saved notes), the submissions still
 * without a task (saved with their Idempotency-Keys before they are sent), and the poller.
 */
export interface VideoSlice {
  videoForm: VideoForm
  videoModels: VideoModels
  videoTasks: Record<string, VideoTaskEntry>
  videoListLoading: boolean
  videoListError: unknown
  videoPollError: unknown
  /** task id → what was asked (saved) */
  videoNotes: Record<string, TaskNote>
  /** newest first (saved) */
  videoSubmissions: Submission[]
  /** row id → a problem of that row outside its submission (keeping its pictures, reading them for a retry) */
  videoRowErrors: Record<string, unknown>
  loadVideoModels(group: string): Promise<void>
  setVideoForm(patch: Partial<VideoForm>): void
  setVideoImage(slot: 'image' | 'lastFrame', file: File | null): Promise<void>
  refreshVideoTasks(): Promise<void>
  submitVideo(): Promise<void>
  retryVideo(rowId: string): Promise<void>
  dismissSubmission(id: string): void
  /** deletes a finished task in the gateway (with its kept video) and its card */
  deleteVideoTask(id: string): Promise<void>
  /** polls while the panel is shown; call the returned function to stop */
  startVideoPolling(): () => void
}

// Submissions being sent in this session.
const inFlight = new Set<string>()

const uuid = () => crypto.randomUUID()

/** The selected model's option and controls, or null before the models are loaded. */
export function videoControlsOf(s: Pick<AppState, 'videoForm' | 'videoModels'>): { option: VideoModelOption; controls: VideoControls } | null {
  const option = s.videoModels.options.find((o) => o.id === s.videoForm.modelId)
  return option ? { option, controls: videoControls(option, s.videoForm.resolution) } : null
}

function fitted(s: AppState, form: VideoForm): VideoForm {
  const option = s.videoModels.options.find((o) => o.id === form.modelId)
  if (!option) return form
  // Fit twice: clearing a resolution can widen the durations the model accepts.
  const once = fitVideoForm(form, videoControls(option, form.resolution))
  return fitVideoForm(once, videoControls(option, once.resolution))
}

const without = <T>(record: Record<string, T>, key: string): Record<string, T> => {
  const { [key]: _, ...rest } = record
  return rest
}

function patchSubmission(set: SetState, id: string, fn: (s: Submission) => Submission) {
  set((s) => ({ videoSubmissions: s.videoSubmissions.map((x) => (x.id === id ? fn(x) : x)) }))
}

/** Writes the saved state now: the submission's key must be on disk before the request leaves. */
async function saveNow(): Promise<void> {
  await storage.flush()
}

async function send(set: SetState, get: GetState, sub: Submission): Promise<void> {
  inFlight.add(sub.id)
  try {
    await saveNow()
    const view = await sendSubmission(sub)
    accepted(set, get, sub, view)
  } catch (err) {
    patchSubmission(set, sub.id, (s) => submissionFailed(s, toSubmissionError(err)))
  } finally {
    inFlight.delete(sub.id)
  }
}

/** The task is there: the submission becomes a note of it, and its pictures are kept under the task. */
function accepted(set: SetState, get: GetState, sub: Submission, view: VideoTaskView): void {
  const id = view.task_id
  const images = sub.body.images ?? []
  set((s) => ({
    videoSubmissions: s.videoSubmissions.filter((x) => x.id !== sub.id),
    videoNotes: { ...s.videoNotes, [id]: s.videoNotes[id] ?? noteOf(sub, images, Date.now()) },
    videoTasks: { ...s.videoTasks, [id]: { id, group: sub.group, view } },
  }))
  wake(set, get)
  if (!images.some((i) => i.url.startsWith('data:'))) return
  keepImages(id, images).then(
    (kept) => set((s) => (s.videoNotes[id] ? { videoNotes: { ...s.videoNotes, [id]: { ...s.videoNotes[id], images: kept } } } : {})),
    (err) => set((s) => ({ videoRowErrors: { ...s.videoRowErrors, [id]: err } })),
  )
}

export const createVideoSlice: StateCreator<AppState, [], [], VideoSlice> = (set, get) => ({
  videoForm: EMPTY_FORM,
  videoModels: { group: null, options: [], loading: false, error: null },
  videoTasks: {},
  videoListLoading: false,
  videoListError: null,
  videoPollError: null,
  videoNotes: {},
  videoSubmissions: [],
  videoRowErrors: {},

  loadVideoModels: async (group) => {
    set({ videoModels: { group, options: get().videoModels.group === group ? get().videoModels.options : [], loading: true, error: null } })
    try {
      const options = await fetchVideoModels(group)
      if (get().groupId !== group) return
      set((s) => {
        const modelId = options.some((o) => o.id === s.videoForm.modelId) ? s.videoForm.modelId : (options[0]?.id ?? null)
        const next = { ...s, videoModels: { group, options, loading: false, error: null } }
        return { videoModels: next.videoModels, videoForm: fitted(next, { ...s.videoForm, modelId }) }
      })
    } catch (error) {
      set({ videoModels: { group, options: [], loading: false, error } })
    }
  },

  setVideoForm: (patch) => set((s) => ({ videoForm: fitted(s, { ...s.videoForm, ...patch }) })),

  setVideoImage: async (slot, file) => {
    const url = file ? await fileToDataUrl(file) : null
    get().setVideoForm({ [slot]: url })
  },

  refreshVideoTasks: async () => {
    set({ videoListLoading: true })
    try {
      await refresh(set, get)
    } catch {
      // refresh() has put the error in videoListError, where the panel shows it.
    } finally {
      set({ videoListLoading: false })
    }
  },

  submitVideo: async () => {
    const s = get()
    const selected = videoControlsOf(s)
    // One at a time: a second click while the first is on its way would be a second task under another key.
    if (!s.groupId || videoFormProblem(s.videoForm, selected?.controls ?? null) || s.videoSubmissions.some((x) => x.state === 'pending')) return
    const sub = newSubmission(s.groupId, videoBody(s.videoForm), Date.now(), uuid)
    // Videos take minutes: ask once whether the desktop may say when one ends in the background.
    askNotificationPermissionOnce()
    set({ videoSubmissions: [sub, ...s.videoSubmissions] })
    await send(set, get, sub)
  },

  retryVideo: async (rowId) => {
    const s = get()
    const sub = s.videoSubmissions.find((x) => x.id === rowId)
    if (sub) {
      if (inFlight.has(sub.id) || sub.state === 'pending') return
      const again = submissionRetried(sub)
      patchSubmission(set, sub.id, () => again)
      return send(set, get, again)
    }
    const note = s.videoNotes[rowId]
    if (!note || note.retriedBy) return
    try {
      const fresh = newSubmission(note.group, bodyFromNote(note, await inlineImages(note.images)), Date.now(), uuid, rowId)
      // Marked at once, so the failed task cannot be retried a second time while this submission is under way.
      set((st) => ({
        videoSubmissions: [fresh, ...st.videoSubmissions],
        videoNotes: { ...st.videoNotes, [rowId]: { ...note, retriedBy: fresh.id } },
        videoRowErrors: without(st.videoRowErrors, rowId),
      }))
      await send(set, get, fresh)
    } catch (err) {
      set((st) => ({ videoRowErrors: { ...st.videoRowErrors, [rowId]: err } }))
    }
  },

  deleteVideoTask: async (id) => {
    await admin.deleteTask(id)
    set((s) => ({
      videoTasks: without(s.videoTasks, id),
      videoNotes: without(s.videoNotes, id),
      videoRowErrors: without(s.videoRowErrors, id),
    }))
  },

  dismissSubmission: (id) => {
    const sub = get().videoSubmissions.find((x) => x.id === id)
    if (!sub || inFlight.has(id)) return
    set((s) => {
      const notes = { ...s.videoNotes }
      const original = sub.retryOf ? notes[sub.retryOf] : undefined
      if (original && sub.retryOf) {
        // The task this retried may be retried again.
        const { retriedBy: _, ...note } = original
        notes[sub.retryOf] = note
      }
      return { videoSubmissions: s.videoSubmissions.filter((x) => x.id !== id), videoNotes: notes }
    })
  },

  startVideoPolling: () => startPolling(set, get),
})

/** What the `video` state document keeps: the notes, the submissions (with their keys) and the form without pictures. */
export const videoPersisted = (s: AppState) => ({
  videoNotes: s.videoNotes,
  videoSubmissions: savedSubmissions(s.videoSubmissions),
  videoForm: { ...s.videoForm, image: null, lastFrame: null },
})
