/**
 * The poller of the video panel, while it is shown: the app's own unfinished tasks by GET /v1/video/tasks/{id}
 * (2 s after a change, backing off to 5 s), the others (made with other keys) through the admin task list, and
 * when nothing is under way, the admin list now and then so that tasks made from SDKs appear.
 */
import type { StateCreator } from 'zustand'
import { admin } from '../../api/admin'
import { notifyTaskEnded } from '../../notify'
import type { AppState } from '../../stores/app-store'
import { changed, entriesFromSummaries, hasEnded, mergeEntries, needsPoll, nextDelay, pruneNotes } from './task-list'
import { isForeignTask, pollTask } from './video-api'
import type { VideoSlice } from './video-slice'
import type { VideoTaskEntry, VideoTaskView } from './video-types'

export type SetState = Parameters<StateCreator<AppState, [], [], VideoSlice>>[0]
export type GetState = () => AppState

const TASK_LIST_LIMIT = 500
const IDLE_REFRESH_MS = 15_000

// The poller is not state: nothing renders it, and it must not be saved.
const poller = { users: 0, timer: undefined as ReturnType<typeof setTimeout> | undefined, delay: 2_000, running: false, wake: false }
// Tasks whose GET answers 404 for the app key (another key's): followed through the admin list instead.
const foreign = new Set<string>()

/** Reads the admin task list into the store; true when a task moved. Throws (after recording it) on error. */
export async function refresh(set: SetState, get: GetState): Promise<boolean> {
  try {
    const entries = entriesFromSummaries(await admin.tasks('video', TASK_LIST_LIMIT))
    const before = get().videoTasks
    const moved = entries.some((e) => changed(before[e.id]?.view, e.view))
    const listed = new Set(entries.map((e) => e.id))
    set((s) => ({
      videoTasks: mergeEntries(s.videoTasks, entries, Date.now()),
      videoNotes: pruneNotes(s.videoNotes, listed, Date.now()),
      videoListError: null,
    }))
    return moved
  } catch (err) {
    set({ videoListError: err })
    throw err
  }
}

/** The poll answer that first shows the task ended. */
const endedNow = (before: VideoTaskView, after: VideoTaskView) => !hasEnded(before) && hasEnded(after)

/** One round: the app's own unfinished tasks by their GET endpoint, the others through the admin list. */
async function pollDue(set: SetState, get: GetState, due: VideoTaskEntry[]): Promise<'changed' | 'same' | 'error'> {
  const notes = get().videoNotes
  const own = due.filter((e) => notes[e.id] && !foreign.has(e.id))
  let moved = false
  let failed: unknown
  await Promise.all(own.map(async (e) => {
    try {
      const view = await pollTask(e.group, e.id)
      if (!changed(get().videoTasks[e.id]?.view, view)) return
      moved = true
      set((s) => ({ videoTasks: { ...s.videoTasks, [e.id]: { ...e, view } } }))
      if (endedNow(e.view, view)) void notifyTaskEnded(view.status === 'succeeded' ? 'videoDone' : 'videoFailed', view.model, notes[e.id]?.prompt ?? '', (view.updated_at - view.created_at) * 1000, get().language)
    } catch (err) {
      if (isForeignTask(err)) foreign.add(e.id)
      else failed = err
    }
  }))
  if (due.some((e) => !notes[e.id] || foreign.has(e.id))) {
    try {
      moved = (await refresh(set, get)) || moved
    } catch (err) {
      failed = err
    }
  }
  set({ videoPollError: failed ?? null })
  return moved ? 'changed' : failed ? 'error' : 'same'
}

async function tick(set: SetState, get: GetState): Promise<void> {
  poller.timer = undefined
  if (poller.users === 0) return
  poller.running = true
  try {
    const due = Object.values(get().videoTasks).filter((e) => needsPoll(e.view))
    if (due.length > 0) poller.delay = nextDelay(poller.delay, await pollDue(set, get, due))
    else {
      // Nothing under way: only look for tasks made elsewhere (SDKs) now and then.
      // An error is shown through videoListError (refresh records it); the next round tries again.
      await refresh(set, get).catch(() => undefined)
      poller.delay = IDLE_REFRESH_MS
    }
  } finally {
    poller.running = false
  }
  schedule(set, get, poller.wake ? 0 : poller.delay)
}

/** The next round in `ms`, unless one is already set or the panel is closed. */
export function schedule(set: SetState, get: GetState, ms: number): void {
  poller.wake = false
  if (poller.users === 0 || poller.timer) return
  poller.timer = setTimeout(() => void tick(set, get), ms)
}

/** Polls soon (a task was just accepted). */
export function wake(set: SetState, get: GetState): void {
  poller.delay = 2_000
  if (poller.running) {
    poller.wake = true
    return
  }
  if (poller.timer) clearTimeout(poller.timer)
  poller.timer = undefined
  schedule(set, get, 0)
}

/** Polling while the panel is shown; the returned function stops it (several users may hold it, as in StrictMode). */
export function startPolling(set: SetState, get: GetState): () => void {
  poller.users++
  // The panel loads the list itself when it opens; the first round follows shortly.
  schedule(set, get, 2_000)
  return () => {
    poller.users--
    if (poller.users > 0 || !poller.timer) return
    clearTimeout(poller.timer)
    poller.timer = undefined
  }
}
