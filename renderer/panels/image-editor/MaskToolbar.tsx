import type { MaskStage } from '../../canvas/mask-stage'
import type { View } from '../../canvas/viewport'
import { canRedo, canUndo } from '../../canvas/history'
import { useT } from '../../i18n'
import { useAppStore } from '../../stores/app-store'
import { MAX_BRUSH, MIN_BRUSH } from './mask-keys'
import { runMaskAction } from './mask-actions'
import { STRINGS } from './strings'

const ZOOM_STEP = 1.25

const TOOL_KEYS = { brush: 'B', eraser: 'E', wand: 'W', object: 'O' } as const

/**
 * Tools of the mask editor: brush/eraser, magic wand and "select object" (add or subtract, wand tolerance),
 * size, overlay opacity, undo/redo, clear, invert, zoom; and the shortcut hint.
 */
export function MaskToolbar({ stage, view }: { stage: MaskStage | null; view: View | null }) {
  const t = useT(STRINGS)
  const brush = useAppStore((s) => s.imageBrush)
  const setBrush = useAppStore((s) => s.setBrush)
  const undoable = useAppStore((s) => canUndo(s.imageMask.history))
  const redoable = useAppStore((s) => canRedo(s.imageMask.history))
  const select = useAppStore((s) => s.imageSelect)
  const setSelect = useAppStore((s) => s.setSelect)
  const tool = (name: keyof typeof TOOL_KEYS) => (
    <button
      type="button"
      className={brush.tool === name ? 'primary' : ''}
      aria-pressed={brush.tool === name}
      onClick={() => setBrush({ tool: name })}
      title={name === 'wand' ? t('wandTitle') : name === 'object' ? t('objectTitle') : `${t(name)} (${TOOL_KEYS[name]})`}
      data-testid={`mask-${name}`}
    >
      {t(name)}
    </button>
  )
  const mode = (name: 'add' | 'subtract') => (
    <button type="button" className={select.mode === name ? 'primary' : ''} aria-pressed={select.mode === name} onClick={() => setSelect({ mode: name })} title={`${t(name === 'add' ? 'selectAdd' : 'selectSubtract')} (${name === 'add' ? 'A' : 'S'})`} data-testid={`mask-${name}`}>
      {t(name === 'add' ? 'selectAdd' : 'selectSubtract')}
    </button>
  )
  return (
    <div className="mask-toolbar">
      <div className="row">
        {tool('brush')}
        {tool('eraser')}
        {tool('wand')}
        {tool('object')}
        <span className="mask-select">
          {mode('add')}
          {mode('subtract')}
        </span>
        <label title={t('wandTitle')}>
          <span>{t('tolerance')}</span>
          <input type="range" min={0} max={255} value={select.tolerance} onChange={(e) => setSelect({ tolerance: e.target.valueAsNumber })} data-testid="mask-tolerance" />
          <span className="muted small mask-number" data-testid="mask-tolerance-value">{select.tolerance}</span>
        </label>
        <label>
          <span>{t('brushSize')}</span>
          <input type="range" min={MIN_BRUSH} max={MAX_BRUSH} value={brush.size} onChange={(e) => setBrush({ size: e.target.valueAsNumber })} data-testid="mask-size" />
          <span className="muted small mask-number" data-testid="mask-size-value">{brush.size}px</span>
        </label>
        <label>
          <span>{t('opacity')}</span>
          <input type="range" min={0} max={100} value={Math.round(brush.opacity * 100)} onChange={(e) => setBrush({ opacity: e.target.valueAsNumber / 100 })} data-testid="mask-opacity" />
        </label>
      </div>
      <div className="row">
        <button type="button" disabled={!undoable} onClick={() => runMaskAction('undo', stage)} data-testid="mask-undo">{t('undo')}</button>
        <button type="button" disabled={!redoable} onClick={() => runMaskAction('redo', stage)} data-testid="mask-redo">{t('redo')}</button>
        <button type="button" onClick={() => runMaskAction('clear', stage)} data-testid="mask-clear">{t('clear')}</button>
        <button type="button" onClick={() => runMaskAction('invert', stage)} data-testid="mask-invert">{t('invert')}</button>
        <span className="mask-zoom">
          <button type="button" onClick={() => stage?.zoom(1 / ZOOM_STEP)} aria-label={t('zoomOut')} data-testid="mask-zoom-out">−</button>
          <span className="muted small mask-number" data-testid="mask-zoom">{view ? `${Math.round(view.scale * 100)}%` : ''}</span>
          <button type="button" onClick={() => stage?.zoom(ZOOM_STEP)} aria-label={t('zoomIn')} data-testid="mask-zoom-in">+</button>
          <button type="button" onClick={() => stage?.fit()} data-testid="mask-fit">{t('fit')}</button>
        </span>
      </div>
      {select.busy && <p className="small mask-busy" role="status" data-testid="mask-selecting">{t('selecting')}</p>}
      {select.error && <p className="small error-text" data-testid="mask-select-error">{t('selectFailed', { error: select.error })}</p>}
      <p className="muted small" data-testid="mask-hint">{t('maskHint')}</p>
    </div>
  )
}
