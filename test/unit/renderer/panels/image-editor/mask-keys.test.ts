import { describe, expect, it } from 'vitest'
import { MAX_BRUSH, MIN_BRUSH, maskShortcut, stepBrushSize, type KeyInput } from '../../../../../renderer/panels/image-editor/mask-keys'

const key = (k: string, mods: Partial<KeyInput> = {}): KeyInput => ({ key: k, ctrlKey: false, metaKey: false, shiftKey: false, altKey: false, ...mods })

describe('maskShortcut', () => {
  it.each([
    [key('b'), 'brush'], [key('B', { shiftKey: true }), 'brush'], [key('e'), 'eraser'], [key('['), 'smaller'], [key(']'), 'bigger'],
    [key('w'), 'wand'], [key('O', { shiftKey: true }), 'object'], [key('a'), 'add'], [key('s'), 'subtract'],
    [key('i'), 'invert'], [key('0'), 'fit'], [key('Delete'), 'clear'], [key('Backspace'), 'clear'],
    [key('z', { ctrlKey: true }), 'undo'], [key('z', { metaKey: true }), 'undo'],
    [key('Z', { ctrlKey: true, shiftKey: true }), 'redo'], [key('z', { metaKey: true, shiftKey: true }), 'redo'], [key('y', { ctrlKey: true }), 'redo'],
  ])('%j -> %s', (input, action) => {
    expect(maskShortcut(input)).toBe(action)
  })

  it.each([[key('b', { ctrlKey: true })], [key('z')], [key('e', { altKey: true })], [key('x')], [key('c', { metaKey: true })], [key('y', { metaKey: true })], [key('s', { ctrlKey: true })], [key('a', { metaKey: true })], [key('w', { altKey: true })]])('%j is left alone', (input) => {
    expect(maskShortcut(input)).toBeUndefined()
  })
})

describe('stepBrushSize', () => {
  it('steps by about a fifth, at least a pixel, within bounds', () => {
    expect(stepBrushSize(50, 1)).toBe(60)
    expect(stepBrushSize(50, -1)).toBe(40)
    expect(stepBrushSize(2, 1)).toBe(3)
    expect(stepBrushSize(MIN_BRUSH, -1)).toBe(MIN_BRUSH)
    expect(stepBrushSize(MAX_BRUSH, 1)).toBe(MAX_BRUSH)
  })
})
