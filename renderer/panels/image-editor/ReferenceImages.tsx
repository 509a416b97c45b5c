import { DropZone } from '../../components/DropZone'
import type { ImageIntake } from '../../components/image-intake'
import { ImageIntakeNotice } from '../../components/ImageIntakeNotice'
import { useT } from '../../i18n'
import { useAppStore } from '../../stores/app-store'
import { STRINGS } from './strings'

/** The reference images: the drop zone (drop and paste work on the whole panel too) with thumbnails; the first one gets the mask. */
export function ReferenceImages({ onImages, intake, max }: { onImages: (files: File[]) => void; intake: ImageIntake; max?: number }) {
  const t = useT(STRINGS)
  const refs = useAppStore((s) => s.imageReferences)
  const remove = useAppStore((s) => s.removeImageReference)
  const makeFirst = useAppStore((s) => s.makeReferenceFirst)
  return (
    <div className="image-refs">
      <div className="row">
        <strong>{t('references')}</strong>
        {max !== undefined && <span className={refs.length > max ? 'small error-text' : 'muted small'}>{t('referencesMax', { count: refs.length, max })}</span>}
      </div>
      <p className="muted small">{t('referencesHint')}</p>
      <ImageIntakeNotice intake={intake} />
      <DropZone onImages={onImages} multiple testId="image-file">
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
        </div>
      </DropZone>
    </div>
  )
}
