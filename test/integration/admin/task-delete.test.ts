// DELETE /admin/v1/tasks/{id}: a finished video task goes with its kept video; one under way is refused with 409;
// the bill stays in the ledger.
import { describe, expect, it } from 'vitest'
import { startFakeKling } from '../../fakes/video/kling.js'
import { TEST_KEY, withGateway } from '../../helpers/gateway.js'
import { adminClient, apiError } from './admin-helpers.js'

const KLING = 'kling-v2-5-turbo'

const { gw, fakes: { kling } } = withGateway({
  fakes: { kling: () => startFakeKling({ script: ['queued', 'succeeded'] }) },
  config: ({ kling }) => ({
    account: { balance: 100, concurrency: 5 },
    upstreams: [{ id: 'kling', vendor: 'kling', baseUrl: kling.url, apiKey: 'kling-ak:kling-sk' }],
    groups: [{ id: 'video', protocol: 'chat', models: [KLING], upstreams: ['kling'] }],
    keys: [{ key: TEST_KEY, group: 'video' }],
    network: { allowPrivateAddresses: true },
  }),
  options: { videoPoll: { intervalMs: 15, maxIntervalMs: 40, timeoutMs: 1_000 } },
})

// Each task is asked with a prompt of its own: the same request again would be the same task (the duplicate guard).
let tasks = 0
const submit = async () => {
  const res = await fetch(`${gw.url}/v1/video/generate`, {
    method: 'POST', headers: { authorization: `Bearer ${TEST_KEY}`, 'content-type': 'application/json' }, body: JSON.stringify({ model: KLING, prompt: `a boat ${++tasks}`, duration: 5 }),
  })
  expect(res.status).toBe(202)
  return ((await res.json()) as { task_id: string }).task_id
}

async function until<T>(what: () => Promise<T>, ok: (v: T) => boolean): Promise<T> {
  const deadline = Date.now() + 10_000
  for (;;) {
    const v = await what()
    if (ok(v) || Date.now() > deadline) return v
    await new Promise((r) => setTimeout(r, 20))
  }
}

describe('DELETE /admin/v1/tasks/{id}', () => {
  it('a finished task goes, with its kept video; its ledger row stays', async () => {
    const admin = adminClient(gw)
    const id = await submit()
    // finished and its copy saved (no poll or copy under way)
    const task = await until(() => gw.services.store.tasks.get(id), (t) => t?.status === 'succeeded' && t.settled === 1 && (t as { next_poll_at?: number | null }).next_poll_at === null)
    expect(task?.status).toBe('succeeded')
    const kept = await until(() => gw.services.store.media.byRequest(id), (rows) => rows.length > 0)
    expect(kept).toHaveLength(1)
    // the kept video's bytes: a file in the data dir, or rows in the database in team mode
    const path = kept[0].path
    expect((await gw.services.media.read(path))?.size).toBeGreaterThan(0)

    const res = await admin.del(`/admin/v1/tasks/${id}`)
    expect([res.status, res.text]).toEqual([204, ''])
    expect(await gw.services.store.tasks.get(id)).toBeUndefined()
    expect(await gw.services.store.media.byRequest(id)).toEqual([])
    expect(await gw.services.media.read(path)).toBeUndefined()
    expect((await admin.get('/admin/v1/tasks?kind=video')).json.map((t: { id: string }) => t.id)).not.toContain(id)
    // the bill is history
    expect(await gw.services.store.ledger.get(id)).toMatchObject({ status: 200 })

    const again = await admin.del(`/admin/v1/tasks/${id}`)
    expect([again.status, again.json]).toEqual([404, apiError('not_found', `No task "${id}"`, null, 'not_found_error')])
  })

  it('a task under way: 409, and it stays', async () => {
    const admin = adminClient(gw)
    kling.script(['queued', 'queued', 'queued', 'queued', 'queued', 'queued', 'queued', 'queued', 'queued', 'queued', 'queued', 'queued', 'queued', 'queued', 'queued', 'queued', 'queued', 'succeeded'])
    const id = await submit()
    const res = await admin.del(`/admin/v1/tasks/${id}`)
    expect([res.status, res.json]).toEqual([409, apiError('conflict', `Task "${id}" is still under way, or its video is still being saved: delete it once it has finished.`)])
    expect((await gw.services.store.tasks.get(id))?.id).toBe(id)
  })
})
