import type { MaskStage } from '../../canvas/mask-stage'
import type { View } from '../../canvas/viewport'
import { canRedo, canUndo } from '../../canvas/history'
import { useT } from '../../i18n'
import { useAppStore } from '../../stores/app-store'
import { MAX_BRUSH, MIN_BRUSH } from './mask-keys'
import { runMaskAction } from './mask-actions'
import { STRINGS } from './strings'

const ZOOM_STEP = 1.25

/** Tools of the mask editor: brush/eraser, size, overlay opacity, undo/redo, clear, invert, zoom; and the shortcut hint. */
export function MaskToolbar({ stage, view }: { stage: MaskStage | null; view: View | null }) {
  const t = useT(STRINGS)
  const brush = useAppStore((s) => s.imageBrush)
  const setBrush = useAppStore((s) => s.setBrush)
  const undoable = useAppStore((s) => canUndo(s.imageMask.history))
  const redoable = useAppStore((s) => canRedo(s.imageMask.history))
  const tool = (name: 'brush' | 'eraser') => (
    <button type="button" className={brush.tool === name ? 'primary' : ''} aria-pressed={brush.tool === name} onClick={() => setBrush({ tool: name })} data-testid={`mask-${name}`}>
      {t(name)}
    </button>
  )
  return (
    <div className="mask-toolbar">
      <div className="row">
        {tool('brush')}
        {tool('eraser')}
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
      <p className="muted small" data-testid="mask-hint">{t('maskHint')}</p>
    </div>
  )
}
