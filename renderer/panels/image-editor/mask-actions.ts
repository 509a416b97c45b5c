import type { MaskStage } from '../../canvas/mask-stage'
import { useAppStore } from '../../stores/app-store'
import { stepBrushSize, type MaskAction } from './mask-keys'

/** Runs one shortcut or toolbar action. */
export function runMaskAction(action: MaskAction, stage: MaskStage | null): void {
  const s = useAppStore.getState()
  switch (action) {
    case 'brush': case 'eraser': case 'wand': case 'object': return s.setBrush({ tool: action })
    case 'add': case 'subtract': return s.setSelect({ mode: action })
    case 'smaller': return s.setBrush({ size: stepBrushSize(s.imageBrush.size, -1) })
    case 'bigger': return s.setBrush({ size: stepBrushSize(s.imageBrush.size, 1) })
    case 'undo': return s.undoMask()
    case 'redo': return s.redoMask()
    case 'invert': return s.invertMask()
    case 'clear': return s.clearMask()
    case 'fit': return stage?.fit()
  }
}
