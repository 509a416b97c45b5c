import { describe, expect, it } from 'vitest'
import { canRedo, canUndo, emptyHistory, pushHistory, redoHistory, undoHistory } from '../../../../renderer/canvas/history'

describe('history', () => {
  it('undoes and redoes in order', () => {
    let h = emptyHistory<string>()
    h = pushHistory(pushHistory(pushHistory(h, 'a'), 'b'), 'c')
    h = undoHistory(h)
    expect(h.done).toEqual(['a', 'b'])
    h = undoHistory(h)
    expect(h.done).toEqual(['a'])
    expect(h.undone).toEqual(['c', 'b'])
    h = redoHistory(h)
    expect(h.done).toEqual(['a', 'b'])
    h = redoHistory(h)
    expect(h).toEqual({ done: ['a', 'b', 'c'], undone: [] })
  })

  it('a new step forgets the redo stack', () => {
    const h = pushHistory(undoHistory(pushHistory(pushHistory(emptyHistory<number>(), 1), 2)), 3)
    expect(h).toEqual({ done: [1, 3], undone: [] })
    expect(canRedo(h)).toBe(false)
  })

  it('undo and redo at the ends change nothing (same object)', () => {
    const empty = emptyHistory<number>()
    expect(undoHistory(empty)).toBe(empty)
    expect(redoHistory(empty)).toBe(empty)
    expect(canUndo(empty)).toBe(false)
    const one = pushHistory(empty, 1)
    expect(redoHistory(one)).toBe(one)
    expect(canUndo(one)).toBe(true)
  })

  it('never mutates the history it is given', () => {
    const h = pushHistory(emptyHistory<number>(), 1)
    const frozen = JSON.stringify(h)
    undoHistory(h)
    pushHistory(h, 2)
    expect(JSON.stringify(h)).toBe(frozen)
  })
})
