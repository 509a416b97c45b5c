import { memo } from 'react'
import { mediaSrc } from '../../api/admin'
import { ActionError } from '../../components/ActionError'
import { ErrorNote } from '../../components/ErrorNote'
import { formatUsd, useT } from '../../i18n'
import { useAppStore } from '../../stores/app-store'
import { ConfirmButton } from '../keys/ConfirmButton'
import { useAction } from '../keys/use-action'
import { STRINGS, type VideoT } from './strings'
import { TaskVideo } from './TaskVideo'
import type { VideoRow } from './video-types'

const BADGE: Record<string, string> = { succeeded: 'ok', failed: 'error', canceled: 'error', submit_failed: 'error', interrupted: 'error' }
const FINISHED = new Set(['succeeded', 'failed', 'canceled'])
const STATUS_KEYS = new Set(['queued', 'running', 'succeeded', 'failed', 'canceled', 'submitting', 'submit_failed', 'interrupted'])

function statusText(t: VideoT, status: string): string {
  return STATUS_KEYS.has(status) ? t(`status_${status}` as Parameters<VideoT>[0]) : status
}

/** One task or submission: its status and progress, what was asked, the video once there, and retry. */
export const TaskRow = memo(function TaskRow({ row }: { row: VideoRow }) {
  const t = useT(STRINGS)
  const rowError = useAppStore((s) => s.videoRowErrors[row.id])
  const retry = useAppStore((s) => s.retryVideo)
  const dismiss = useAppStore((s) => s.dismissSubmission)
  const retriedAlready = useAppStore((s) => row.kind === 'task' && s.videoNotes[row.id]?.retriedBy !== undefined)
  const unfinished = row.status === 'queued' || row.status === 'running' || row.status === 'submitting'
  const deleteTask = useAppStore((s) => s.deleteVideoTask)
  const removal = useAction()
  // A task the gateway has finished (done or failed) can go, with the video kept for it.
  const deletable = row.kind === 'task' && FINISHED.has(row.status)
  const params = [row.params.resolution, row.params.duration !== undefined ? t('seconds', { n: row.params.duration }) : undefined, row.params.aspect_ratio].filter(Boolean)
  return (
    <li className="card video-task" data-testid="video-task" data-status={row.status} data-task-id={row.kind === 'task' ? row.id : undefined}>
      <div className="row">
        <span className={`badge ${BADGE[row.status] ?? ''}`} data-testid="video-status">{statusText(t, row.status)}</span>
        <strong>{row.model}</strong>
        <span className="muted small">{row.group}</span>
        {params.length > 0 && <span className="muted small">{params.join(' · ')}</span>}
        <span className="muted small">{new Date(row.createdAt).toLocaleString()}</span>
        {retriedAlready && <span className="badge small">{t('retried')}</span>}
        {row.cost !== undefined && row.seconds !== undefined && <span className="muted small">{t('cost', { cost: formatUsd(row.cost), seconds: row.seconds })}</span>}
      </div>
      <p className="video-prompt">{row.prompt || <span className="muted">{t('noPrompt')}</span>}</p>
      {row.images.length > 0 && (
        <div className="row">
          {row.images.map((img, i) => <img key={i} src={mediaSrc(img.url)} alt={t(`role_${img.role}`)} title={t(`role_${img.role}`)} className="video-thumb" />)}
        </div>
      )}
      {unfinished && (
        <progress className="video-progress" max={100} value={row.progress ?? undefined} data-testid="video-progress">
          {row.progress ?? ''}
        </progress>
      )}
      {row.status === 'interrupted' && <p className="muted small">{t('interruptedHelp')}</p>}
      {row.error && (
        <ActionError error={row.error} onRetry={row.retry ? () => void retry(row.id) : undefined} retryTestId="video-retry" />
      )}
      {rowError ? <div className="small">{t('keepImagesError')} <ErrorNote error={rowError} /></div> : null}
      {row.status === 'succeeded' && <TaskVideo row={row} />}
      {(row.retry || row.kind === 'submission' || deletable) && (
        <div className="row">
          {row.retry && !row.error && (
            <button type="button" onClick={() => void retry(row.id)} title={t(row.retry === 'same-key' ? 'retrySameKey' : 'retryNewKey')} data-testid="video-retry">
              {t('retry')}
            </button>
          )}
          {row.kind === 'submission' && row.status !== 'submitting' && (
            <button type="button" className="link" onClick={() => dismiss(row.id)} data-testid="video-dismiss">{t('dismiss')}</button>
          )}
          {deletable && (
            <ConfirmButton label={t('delete')} question={t('confirmDelete')} testId="video-delete" disabled={removal.busy} onConfirm={() => void removal.run(() => deleteTask(row.id))} />
          )}
        </div>
      )}
      <ErrorNote error={removal.error} onDismiss={removal.clear} />
    </li>
  )
})
