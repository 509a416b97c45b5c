/**
 * Desktop notifications for long image and video tasks that end while the window is in the background
 * (Web Notification API; the Electron shell shows them as native notifications). Permission is asked once,
 * when the first long task starts.
 */
import type { Language } from '../shared/admin'
import { translate, type Strings } from './translate'

type Key = 'imageDone' | 'imageFailed' | 'videoDone' | 'videoFailed'

const STRINGS: Strings<Key> = {
  en: { imageDone: 'Images ready: {model}', imageFailed: 'Images failed: {model}', videoDone: 'Video ready: {model}', videoFailed: 'Video failed: {model}' },
  zh: { imageDone: '图像已生成：{model}', imageFailed: '图像生成失败：{model}', videoDone: '视频已生成：{model}', videoFailed: '视频生成失败：{model}' },
}

/** A task counts as long, worth a notification, after this long. */
export const LONG_TASK_MS = 10_000

const supported = () => typeof Notification !== 'undefined'

/** Asks for permission the first time a long task starts; later calls (and an answered question) do nothing. */
export function askNotificationPermissionOnce(): void {
  if (!supported() || Notification.permission !== 'default') return
  void Notification.requestPermission().catch(() => {})
}

/** Whether an ended task is worth a notification: long, the window hidden, and permission given. */
export function shouldNotify(elapsedMs: number, hidden: boolean, permission: NotificationPermission | undefined): boolean {
  return elapsedMs >= LONG_TASK_MS && hidden && permission === 'granted'
}

/** Tells of an ended task, if shouldNotify says so; `body` is the prompt. */
export async function notifyTaskEnded(kind: Key, model: string, body: string, elapsedMs: number, language: Language): Promise<void> {
  if (!supported() || !shouldNotify(elapsedMs, document.hidden, Notification.permission)) return
  const title = translate(STRINGS, language, kind, { model })
  const note = new Notification(title, { body: body.slice(0, 200), tag: `gatehouse-${kind}` })
  note.onclick = () => window.focus()
}
