import { useRef, type ReactNode } from 'react'
import { useT } from '../i18n'
import { useImageInput } from './image-input'
import { ImageFileInput } from './ImageFileInput'
import { STRINGS } from './strings'

/**
 * The one file picker for images: a dashed area that takes dropped and pasted images and has a button for the
 * file dialog. `children` (thumbnails) sit inside it; `compact` makes it a single line.
 */
export function DropZone({ onImages, testId, multiple = false, compact = false, children }: {
  onImages: (files: File[]) => void
  testId: string
  multiple?: boolean
  compact?: boolean
  children?: ReactNode
}) {
  const t = useT(STRINGS)
  const input = useRef<HTMLInputElement>(null)
  const { addFiles, dragging, handlers } = useImageInput(onImages)
  return (
    <div
      className={`drop-zone${compact ? ' compact' : ''}${dragging ? ' dragging' : ''}`}
      tabIndex={0}
      onPaste={handlers.onPaste}
      onDragOver={handlers.onDragOver}
      onDragLeave={handlers.onDragLeave}
      onDrop={(e) => {
        handlers.onDrop(e)
        // The panel around it takes drops too: one drop adds the image once.
        e.stopPropagation()
      }}
      data-testid={`${testId}-zone`}
    >
      {children}
      <span className="muted small">{t('dropHere')}</span>
      <button type="button" onClick={() => input.current?.click()}>{t('choose')}</button>
      <ImageFileInput ref={input} onFiles={addFiles} multiple={multiple} hidden testId={testId} />
    </div>
  )
}
