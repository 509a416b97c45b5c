import { useEffect, useId, useState, type ReactNode } from 'react'
import { ActionError } from '../../components/ActionError'
import { ErrorNote } from '../../components/ErrorNote'
import { copyShown } from '../../components/kept-copy-view'
import { KeptCopyStatus } from '../../components/KeptCopyStatus'
import { mediaSrc } from '../../api/admin'
import { useCount, useT } from '../../i18n'
import { useAppStore } from '../../stores/app-store'
import { downloadName } from './image-results'
import type { ImageRun, RunImage } from './image-types'
import { compositeBlobKey, referenceBlobKey, resultBlobKey } from './run-history'
import { PLURALS, STRINGS, type ImageCount, type ImageT } from './strings'
import { useCopyFollow } from './use-copy-follow'

/** The current time, ticking every second while `active`. */
export function useNow(active: boolean): number {
  const [now, setNow] = useState(() => Date.now())
  useEffect(() => {
    if (!active) return
    const timer = setInterval(() => setNow(Date.now()), 1000)
    return () => clearInterval(timer)
  }, [active])
  return active ? now : Date.now()
}

/** Seconds between two times, for the status line. */
const seconds = (from: number, to: number) => Math.max(0, Math.round((to - from) / 1000))

/** The status of a run in words: phase and elapsed time while it runs, the outcome after. */
export function runStatus(run: ImageRun, now: number, t: ImageT, count: ImageCount): string {
  const elapsed = t('elapsed', { s: seconds(run.createdAt, run.finishedAt ?? now) })
  if (run.status === 'failed') return run.interrupted ? t('status_interrupted') : t('status_failed', { elapsed })
  if (run.status === 'succeeded') return run.phase === 'saving' ? t('status_saving') : t('status_succeeded', { images: count('images', run.images.length), elapsed })
  if (run.phase === 'waiting') return t('status_waiting', { task: run.taskId ?? '', status: run.taskStatus ?? '', elapsed })
  if (run.phase === 'generating') return t('status_generating', { elapsed })
  if (run.phase === 'uploading') return t('status_uploading', { percent: run.uploadPercent ?? 0 })
  return t('status_submitting')
}

/**
 * The newest run's failure, shown under the submit button it came from, with Retry (the form is sent again);
 * dismissed until the next failure.
 */
export function LatestRunError({ onRetry }: { onRetry: () => void }) {
  const run = useAppStore((s) => s.imageRuns[0])
  const [dismissed, setDismissed] = useState<string | null>(null)
  if (!run || run.status !== 'failed' || !run.error || dismissed === run.id) return null
  return <ActionError error={run.error} onRetry={onRetry} onDismiss={() => setDismissed(run.id)} />
}

/** The newest run's status (the test hook `image-status`, with `data-state` idle | running | succeeded | failed). */
export function StatusLine() {
  const t = useT(STRINGS)
  const count = useCount(PLURALS)
  const run = useAppStore((s) => s.imageRuns[0])
  const now = useNow(run?.status === 'running')
  const state = run ? run.status : 'idle'
  return (
    <span className={`image-status ${state}`} role="status" data-testid="image-status" data-state={state}>
      {run ? runStatus(run, now, t, count) : t('status_idle')}
    </span>
  )
}

/**
 * Earlier generations, newest first, each with its images and download links. The newest run is not among them:
 * it shows above the editor (CurrentRun), so a long history never pushes it out of sight.
 */
export function Gallery() {
  const t = useT(STRINGS)
  const runs = useAppStore((s) => s.imageRuns)
  const earlier = runs.slice(1)
  return (
    <section className="image-gallery" aria-label={t('gallery')} data-testid="image-history">
      <h3>{t('gallery')}</h3>
      {runs.length === 0 && <p className="muted">{t('noRuns')}</p>}
      {runs.length > 0 && earlier.length === 0 && <p className="muted">{t('noEarlierRuns')}</p>}
      {earlier.map((run) => (
        <RunCard key={run.id} run={run} t={t} />
      ))}
    </section>
  )
}

export function RunCard({ run, t }: { run: ImageRun; t: ImageT }) {
  const count = useCount(PLURALS)
  const remove = useAppStore((s) => s.removeImageRun)
  const now = useNow(run.status === 'running')
  const params = Object.entries(run.params).map(([k, v]) => `${k}=${String(v)}`).join(' · ')
  return (
    <article className="card image-run" data-testid="image-run" data-status={run.status}>
      <header className="row">
        <strong className="image-run-model">{run.model}</strong>
        <span className="badge">{t(run.mode)}</span>
        {run.masked && <span className="badge">{t('masked')}</span>}
        {run.references > 0 && <span className="muted small">{count('references', run.references)}</span>}
        <span className="muted small">{new Date(run.createdAt).toLocaleString()}</span>
        <span className={`small image-status ${run.status}`} data-testid="image-run-status" data-state={run.status}>{runStatus(run, now, t, count)}</span>
        <button type="button" className="link image-run-delete" onClick={() => remove(run.id)} disabled={run.status === 'running'} data-testid="image-run-delete">
          {t('delete')}
        </button>
      </header>
      <p className="image-run-prompt" data-testid="image-run-prompt">{run.prompt}</p>
      {params && <p className="muted small">{params}{run.taskId ? ` · ${t('task', { id: run.taskId })}` : ''}</p>}
      {run.interrupted && <p className="error-text small">{t('interrupted')}</p>}
      {run.error && <ActionError error={run.error} />}
      {run.images.some((image) => image.composite) && <RawToggle run={run} t={t} />}
      <div className="image-results">
        {run.images.map((image, i) => (
          <ResultImage key={i} run={run} image={image} index={i} t={t} />
        ))}
      </div>
    </article>
  )
}

/** A masked run's switch between the composite (the default) and the model's raw output. */
function RawToggle({ run, t }: { run: ImageRun; t: ImageT }) {
  const setShowRaw = useAppStore((s) => s.setShowRaw)
  return (
    <label className="row small image-raw-toggle">
      <input type="checkbox" checked={run.showRaw === true} onChange={(e) => setShowRaw(run.id, e.target.checked)} data-testid="image-show-raw" />
      <span>{t('showRaw')}</span>
    </label>
  )
}

function ResultImage({ run, image, index, t }: { run: ImageRun; image: RunImage; index: number; t: ImageT }) {
  const blobUrl = useAppStore((s) => s.imageBlobUrls[resultBlobKey(run.id, index)])
  const compositeBlob = useAppStore((s) => s.imageBlobUrls[compositeBlobKey(run.id, index)])
  const reference = useAppStore((s) => s.imageBlobUrls[referenceBlobKey(run.id)])
  const follow = useCopyFollow(run, index)
  // The gateway's copy first: it outlives both this session's blob and the vendor's 24-hour link. The page's CSP
  // lets images come only from the gateway, data: and blob: URLs: a vendor link without a copy is offered as a link.
  const raw = image.url ? mediaSrc(image.url) : blobUrl
  const composite = image.composite?.url ? mediaSrc(image.composite.url) : compositeBlob
  const showComposite = composite !== undefined && run.showRaw !== true
  const src = showComposite ? composite : raw
  const shown = copyShown({ copy: image.copy, sourceUrl: image.sourceUrl, issuedAt: run.finishedAt ?? run.createdAt, local: image.keep, localError: image.keepError }, Date.now())
  const download = src && (
    <a href={src} download={downloadName(run.createdAt, index, showComposite ? 'image/png' : image.mimeType)} data-testid="image-download">
      {t('download')}
    </a>
  )
  return (
    <figure className="image-result" data-testid="image-result-card" data-copy={shown.state}>
      {src ? (
        <Compare before={reference} t={t}>
          <img src={src} alt={run.prompt} loading="lazy" data-testid="image-result" data-composite={showComposite} />
        </Compare>
      ) : (
        <div className="image-missing muted small" data-testid="image-missing" />
      )}
      <figcaption className="small">
        {/* One state of the copy; an inline result shown from this session's blob can be downloaded while it is saved. */}
        <KeptCopyStatus shown={shown} download={download} onRetry={follow.retry} retrying={follow.retrying} />
        {shown.state !== 'kept' && blobUrl && download}
        <ErrorNote error={follow.error} />
      </figcaption>
      {image.composite && <CompositeNote composite={image.composite} t={t} />}
      {image.revisedPrompt && <p className="muted small">{t('revisedPrompt', { text: image.revisedPrompt })}</p>}
    </figure>
  )
}

/** The figures of a composite: how many pixels outside the mask the model changed, and how many the composite kept. */
function CompositeNote({ composite, t }: { composite: NonNullable<RunImage['composite']>; t: ImageT }) {
  const { stats } = composite
  const n = (v: number) => v.toLocaleString()
  return (
    <p className="muted small" data-testid="image-composite-stats" data-changed={stats?.changedByModel} data-kept={stats?.keptByComposite} data-outside={stats?.outside}>
      {stats && t('compositeStats', { changed: n(stats.changedByModel), kept: n(stats.keptByComposite), outside: n(stats.outside) })}
      {composite.state === 'pending' && ` ${t('compositePending')}`}
      {composite.state === 'failed' && <span className="error-text"> {t('compositeFailed', { error: composite.error ?? '' })}</span>}
    </p>
  )
}

/**
 * A before/after slider: the reference as sent over the left part of the result, as far as the slider says. Its
 * label says what it does; the captions at its ends say which side is which.
 */
function Compare({ before, t, children }: { before?: string; t: ImageT; children: ReactNode }) {
  const [split, setSplit] = useState(0)
  const id = useId()
  if (!before) return <>{children}</>
  return (
    <div className="image-compare-wrap">
      <div className="image-compare">
        {children}
        <img className="image-compare-before" src={before} alt="" style={{ clipPath: `inset(0 ${100 - split}% 0 0)` }} data-testid="image-compare-before" />
      </div>
      <label htmlFor={id} className="small muted">{t('compareLabel')}</label>
      <div className="row small image-compare-captions">
        <span aria-hidden="true">{t('before')}</span>
        <input
          id={id} type="range" min={0} max={100} value={split} onChange={(e) => setSplit(e.target.valueAsNumber)}
          aria-valuetext={t('compareValue', { before: split, after: 100 - split })} data-testid="image-compare"
        />
        <span aria-hidden="true">{t('after')}</span>
      </div>
    </div>
  )
}
