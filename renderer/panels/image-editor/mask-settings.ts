/** The mask tools' settings (defaults and bounds), and the rule of the one mask step that may add nothing. */
import { DEFAULT_FEATHER } from '../../canvas/composite'
import { pushHistory, type History } from '../../canvas/history'
import type { MaskOp } from '../../canvas/mask-ops'
import type { BrushSettings, SelectSettings } from './image-types'
import { MAX_BRUSH, MIN_BRUSH } from './mask-keys'

/** The widest feather offered: beyond a few pixels the seam only gets blurrier. */
export const MAX_FEATHER = 16
export const DEFAULT_BRUSH: BrushSettings = { tool: 'brush', size: 48, opacity: 0.5 }
export const DEFAULT_SELECT: SelectSettings = { tolerance: 32, mode: 'add', busy: false, error: null }

const clamp = (n: number, min: number, max: number): number => Math.min(max, Math.max(min, n))

/** A whole brush size within MIN_BRUSH..MAX_BRUSH, an opacity within 0..1. */
export const fitBrush = (brush: BrushSettings): BrushSettings => ({ ...brush, size: clamp(Math.round(brush.size), MIN_BRUSH, MAX_BRUSH), opacity: clamp(brush.opacity, 0, 1) })

/** A whole wand tolerance within 0..255. */
export const fitSelect = (select: SelectSettings): SelectSettings => ({ ...select, tolerance: clamp(Math.round(select.tolerance), 0, 255) })

/** A whole feather within 0..MAX_FEATHER pixels; the default for anything that is not a number. */
export const fitFeather = (px: number): number => (Number.isFinite(px) ? clamp(Math.round(px), 0, MAX_FEATHER) : DEFAULT_FEATHER)

/** The history with a clear step, unless the mask is empty or just cleared: that step would undo nothing. */
export const withClear = (h: History<MaskOp>): History<MaskOp> =>
  h.done.length === 0 || h.done[h.done.length - 1].kind === 'clear' ? h : pushHistory(h, { kind: 'clear' })
