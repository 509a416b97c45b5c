/** An undo/redo history: `done` replayed in order is the current state; `undone` is the redo stack (last = next). */
export interface History<T> {
  done: readonly T[]
  undone: readonly T[]
}

/** A history with nothing in it. */
export const emptyHistory = <T>(): History<T> => ({ done: [], undone: [] })

/** Records a new step; a new step forgets what could have been redone. */
export const pushHistory = <T>(h: History<T>, step: T): History<T> => ({ done: [...h.done, step], undone: [] })

export const canUndo = (h: History<unknown>): boolean => h.done.length > 0
export const canRedo = (h: History<unknown>): boolean => h.undone.length > 0

/** Moves the last step to the redo stack (no change when there is nothing to undo). */
export function undoHistory<T>(h: History<T>): History<T> {
  if (h.done.length === 0) return h
  return { done: h.done.slice(0, -1), undone: [...h.undone, h.done[h.done.length - 1]] }
}

/** Replays the most recently undone step (no change when there is nothing to redo). */
export function redoHistory<T>(h: History<T>): History<T> {
  if (h.undone.length === 0) return h
  return { done: [...h.done, h.undone[h.undone.length - 1]], undone: h.undone.slice(0, -1) }
}
