import { useRef } from 'react'
import { useT } from '../../i18n'
import { useAppStore } from '../../stores/app-store'
import { STRINGS } from './strings'
import { ImageFileInput } from '../../components/ImageFileInput'

/** The reference images: a file picker (drop and paste work on the whole panel) and thumbnails; the first one gets the mask. */
export function ReferenceImages({ onFiles, max }: { onFiles: (files: FileList | null) => void; max?: number }) {
  const t = useT(STRINGS)
  const refs = useAppStore((s) => s.imageReferences)
  const remove = useAppStore((s) => s.removeImageReference)
  const makeFirst = useAppStore((s) => s.makeReferenceFirst)
  const input = useRef<HTMLInputElement>(null)
  return (
    <div className="image-refs">
      <div className="row">
        <strong>{t('references')}</strong>
        {max !== undefined && <span className={refs.length > max ? 'small error-text' : 'muted small'}>{t('referencesMax', { count: refs.length, max })}</span>}
      </div>
      <p className="muted small">{t('referencesHint')}</p>
      <div className="image-ref-list">
        {refs.map((r, i) => (
          <figure key={r.id} className={i === 0 ? 'image-ref first' : 'image-ref'} data-testid="image-ref">
            <img src={r.url} alt={r.file.name} />
            <figcaption className="small">
              <span className="muted">{r.width}×{r.height}</span>
              {i === 0 ? <span className="badge">{t('firstRef')}</span> : (
                <button type="button" className="link" onClick={() => makeFirst(r.id)} data-testid="image-ref-first">{t('makeFirst')}</button>
              )}
              <button type="button" className="link" onClick={() => remove(r.id)} aria-label={t('remove')} data-testid="image-ref-remove">×</button>
            </figcaption>
          </figure>
        ))}
        <button type="button" className="image-ref-add" onClick={() => input.current?.click()} title={t('dropHint')}>
          + {t('addImages')}
        </button>
      </div>
      <ImageFileInput ref={input} onFiles={onFiles} multiple hidden testId="image-file" />
    </div>
  )
}
