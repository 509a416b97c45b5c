import { useT } from '../i18n'
import { megabytes } from './image-fit'
import type { ImageIntake } from './image-intake'
import { STRINGS } from './strings'

/** The images waiting for consent to be made smaller, and those left out with the reason; shown where they were dropped. */
export function ImageIntakeNotice({ intake }: { intake: ImageIntake }) {
  const t = useT(STRINGS)
  const { pending, problems, limits } = intake
  if (pending.length === 0 && problems.length === 0) return null
  return (
    <div className="intake-notices">
      {pending.map((p) => (
        <div key={p.id} className="intake-notice" role="alert" data-testid="image-oversize">
          <span>
            {t('tooBig', { name: p.file.name, width: p.width, height: p.height, size: megabytes(p.file.size), maxSide: limits.maxSide, maxSize: megabytes(limits.maxBytes) })}
          </span>
          <button type="button" className="primary" onClick={() => void intake.accept(p.id)} data-testid="image-downscale">
            {t('downscaleTo', { width: p.to.width, height: p.to.height })}
          </button>
          <button type="button" onClick={() => intake.skip(p.id)} data-testid="image-downscale-skip">{t('skip')}</button>
        </div>
      ))}
      {problems.map((p) => (
        <div key={p.id} className="error-note" role="alert" data-testid="image-refused">
          <span>{t(p.key, p.vars)}</span>
          <button type="button" className="link" onClick={() => intake.dismiss(p.id)} aria-label={t('dismiss')}>×</button>
        </div>
      ))}
    </div>
  )
}
