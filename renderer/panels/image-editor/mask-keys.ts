/** Keyboard shortcuts of the mask editor, as a pure mapping from a key event to an action. */

export type MaskAction = 'brush' | 'eraser' | 'wand' | 'object' | 'add' | 'subtract' | 'smaller' | 'bigger' | 'undo' | 'redo' | 'invert' | 'fit' | 'clear'

/** The parts of a KeyboardEvent the mapping reads. */
export interface KeyInput {
  key: string
  ctrlKey: boolean
  metaKey: boolean
  shiftKey: boolean
  altKey: boolean
}

/**
 * B brush, E eraser, W magic wand, O select object, A add to the mask, S subtract from it, [ and ] size, Ctrl/Cmd+Z undo, Ctrl/Cmd+Shift+Z or Ctrl+Y redo, I invert, 0 fit,
 * Delete (or Backspace) clear. Plain letters only without modifiers, so browser and system shortcuts still work.
 */
export function maskShortcut(e: KeyInput): MaskAction | undefined {
  if (e.altKey) return undefined
  const key = e.key.length === 1 ? e.key.toLowerCase() : e.key
  if (e.ctrlKey || e.metaKey) {
    if (key === 'z') return e.shiftKey ? 'redo' : 'undo'
    if (key === 'y' && e.ctrlKey && !e.shiftKey) return 'redo'
    return undefined
  }
  switch (key) {
    case 'b': return 'brush'
    case 'e': return 'eraser'
    case 'w': return 'wand'
    case 'o': return 'object'
    case 'a': return 'add'
    case 's': return 'subtract'
    case '[': return 'smaller'
    case ']': return 'bigger'
    case 'i': return 'invert'
    case '0': return 'fit'
    case 'Delete': case 'Backspace': return 'clear'
    default: return undefined
  }
}

/** Whether key presses go to a text field (then the editor's shortcuts stay out of the way). */
export function isTypingTarget(target: EventTarget | null): boolean {
  if (typeof HTMLElement === 'undefined' || !(target instanceof HTMLElement)) return false
  if (target.isContentEditable) return true
  if (target instanceof HTMLTextAreaElement || target instanceof HTMLSelectElement) return true
  // Range sliders and buttons take no text; every other input does.
  return target instanceof HTMLInputElement && !['range', 'button', 'checkbox', 'radio', 'file', 'submit', 'color'].includes(target.type)
}

export const MIN_BRUSH = 1
export const MAX_BRUSH = 512

/** The next brush diameter for `[` (down) and `]` (up): about 20% a step, at least 1 pixel, within bounds. */
export function stepBrushSize(size: number, direction: -1 | 1): number {
  const step = Math.max(1, Math.round(size * 0.2))
  return Math.min(MAX_BRUSH, Math.max(MIN_BRUSH, size + direction * step))
}

/** Arrow keys and the cursor move they make. */
const ARROWS: Record<string, readonly [number, number]> = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] }

/**
 * Keyboard painting's cursor step in image pixels: a quarter of the brush (at least 1 pixel), four times that with
 * Shift, so a stroke drawn with the arrows is continuous.
 */
export function cursorStep(brushSize: number, shift: boolean): number {
  const step = Math.max(1, Math.round(brushSize / 4))
  return shift ? step * 4 : step
}

/** Where an arrow key moves the keyboard cursor (image pixels, kept inside the image); undefined for other keys. */
export function moveCursor(cursor: readonly [number, number], key: string, step: number, width: number, height: number): [number, number] | undefined {
  const arrow = ARROWS[key]
  if (!arrow) return undefined
  const clamp = (v: number, max: number) => Math.min(max - 1, Math.max(0, v))
  return [clamp(cursor[0] + arrow[0] * step, width), clamp(cursor[1] + arrow[1] * step, height)]
}
