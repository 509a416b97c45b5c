import { useEffect } from 'react'
import { GroupNeedsAccount } from '../../components/NextStep'
import { useT } from '../../i18n'
import { useAppStore } from '../../stores/app-store'
import { STRINGS } from './strings'
import { TaskList } from './TaskList'
import { VideoForm } from './VideoForm'
import './video.css'

/** Text- and image-to-video, with the task list (every key's tasks) followed until each video can be played. */
export function VideoPanel() {
  const t = useT(STRINGS)
  const groupId = useAppStore((s) => s.groupId)
  const loadVideoModels = useAppStore((s) => s.loadVideoModels)
  const refreshVideoTasks = useAppStore((s) => s.refreshVideoTasks)
  const startVideoPolling = useAppStore((s) => s.startVideoPolling)
  useEffect(() => {
    if (groupId) void loadVideoModels(groupId)
  }, [groupId, loadVideoModels])
  useEffect(() => {
    void refreshVideoTasks()
    return startVideoPolling()
  }, [refreshVideoTasks, startVideoPolling])
  return (
    <section className="panel video" data-testid="panel-video">
      <h2>{t('title')}</h2>
      <GroupNeedsAccount testId="video-next-step" />
      {groupId ? <VideoForm /> : <p className="muted">{t('noGroup')}</p>}
      <TaskList />
    </section>
  )
}
