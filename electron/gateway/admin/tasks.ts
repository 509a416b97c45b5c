import type { TaskSummary } from '../../../shared/admin.js'
import type { RequestContext } from '../context.js'
import { sendJson } from '../respond.js'
import type { Services } from '../services.js'
import type { VideoTaskRow } from '../store/tasks.js'
import { taskView } from '../tasks/image-tasks.js'
import { videoTaskView } from '../tasks/video-view.js'
import { gatewayError } from '../errors.js'
import { noContent, notFound, queryOf, segment } from './admin-io.js'
import { badQuery, integerParam } from './query-params.js'

/** GET /admin/v1/tasks?kind=video|image[&limit=]: every key's tasks, newest first, as their GET endpoints show them. */
export async function listTasks(ctx: RequestContext, services: Services): Promise<void> {
  const q = queryOf(ctx)
  const kind = q.get('kind') ?? 'video'
  if (kind !== 'video' && kind !== 'image') throw badQuery('kind', 'must be video or image')
  const limit = integerParam(q, 'limit', 1, 500, 100)
  const tasks: TaskSummary[] = await Promise.all((await services.store.tasks.recent(kind, limit)).map(async (t) => ({
    id: t.id, kind: t.kind, group: t.group_id, keyId: t.key_id, model: t.model, status: t.status, progress: t.progress,
    createdAt: t.created_at, updatedAt: t.updated_at, idempotencyKey: t.idempotency_key,
    detail: t.kind === 'video' ? videoTaskView(t as VideoTaskRow, await services.store.media.byRequest(t.id), ctx.redact) : taskView(t, ctx.redact),
  })))
  sendJson(ctx.res, 200, tasks)
}

/**
 * DELETE /admin/v1/tasks/{id}: forgets a finished task (succeeded, failed or canceled, with no copy of its video
 * under way) and the images and videos kept for it; 409 while it runs. Its ledger row and request-log row stay.
 */
export async function deleteTask(ctx: RequestContext, services: Services, params: string[]): Promise<void> {
  const id = segment(params[0] ?? '', 'task')
  const task = await services.store.tasks.get(id)
  if (!task) throw notFound('task', id)
  if (!(await services.store.tasks.removeFinished(id))) throw gatewayError('conflict', 'task_unfinished', { id })
  for (const row of await services.store.media.removeByRequest(id)) await services.media.remove(row.path)
  noContent(ctx)
}
