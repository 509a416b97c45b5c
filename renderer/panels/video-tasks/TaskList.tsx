import { useMemo } from 'react'
import { ErrorNote } from '../../components/ErrorNote'
import { useT } from '../../i18n'
import { useAppStore } from '../../stores/app-store'
import { STRINGS } from './strings'
import { videoRows } from './task-list'
import { TaskRow } from './TaskRow'

/** Every video task the gateway knows (newest first), with the submissions still without a task on top. */
export function TaskList() {
  const t = useT(STRINGS)
  const tasks = useAppStore((s) => s.videoTasks)
  const notes = useAppStore((s) => s.videoNotes)
  const submissions = useAppStore((s) => s.videoSubmissions)
  const loading = useAppStore((s) => s.videoListLoading)
  const listError = useAppStore((s) => s.videoListError)
  const pollError = useAppStore((s) => s.videoPollError)
  const refresh = useAppStore((s) => s.refreshVideoTasks)
  const rows = useMemo(() => videoRows(tasks, notes, submissions), [tasks, notes, submissions])
  return (
    <section className="video-tasks" aria-busy={loading}>
      <div className="row">
        <h3>{t('tasks')}</h3>
        <button type="button" onClick={() => void refresh()} disabled={loading} data-testid="video-refresh">{t('refresh')}</button>
      </div>
      {listError ? <div className="small">{t('listError')} <ErrorNote error={listError} /></div> : null}
      {pollError ? <div className="small">{t('pollError')} <ErrorNote error={pollError} /></div> : null}
      {rows.length === 0 && !loading && <p className="muted">{t('noTasks')}</p>}
      <ul className="video-list">
        {rows.map((row) => <TaskRow key={row.id} row={row} />)}
      </ul>
    </section>
  )
}
