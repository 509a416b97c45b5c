import type { TaskSummary } from '../../../shared/admin.js'
import type { RequestContext } from '../context.js'
import { gatewayError } from '../errors.js'
import { sendJson } from '../respond.js'
import type { Services } from '../services.js'
import type { VideoTaskRow } from '../store/tasks.js'
import { taskView } from '../tasks/image-tasks.js'
import { videoTaskView } from '../tasks/video-view.js'
import { queryOf } from './admin-io.js'

/** GET /admin/v1/tasks?kind=video|image[&limit=]: every key's tasks, newest first, as their GET endpoints show them. */
export async function listTasks(ctx: RequestContext, services: Services): Promise<void> {
  const q = queryOf(ctx)
  const kind = q.get('kind') ?? 'video'
  if (kind !== 'video' && kind !== 'image') throw gatewayError('invalid_request', 'invalid_query', { name: 'kind', problem: 'must be video or image' }, { param: 'kind' })
  const limit = Number(q.get('limit') ?? 100)
  if (!Number.isInteger(limit) || limit < 1 || limit > 500) throw gatewayError('invalid_request', 'invalid_query', { name: 'limit', problem: 'must be an integer from 1 to 500' }, { param: 'limit' })
  const tasks: TaskSummary[] = await Promise.all((await services.store.tasks.recent(kind, limit)).map(async (t) => ({
    id: t.id, kind: t.kind, group: t.group_id, keyId: t.key_id, model: t.model, status: t.status, progress: t.progress,
    createdAt: t.created_at, updatedAt: t.updated_at, idempotencyKey: t.idempotency_key,
    detail: t.kind === 'video' ? videoTaskView(t as VideoTaskRow, await services.store.media.byRequest(t.id), ctx.redact) : taskView(t, ctx.redact),
  })))
  sendJson(ctx.res, 200, tasks)
}
