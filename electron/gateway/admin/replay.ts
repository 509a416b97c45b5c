import { replayBody } from '../../../shared/schemas/admin.js'
import { REPLAY_HEADER } from '../access/replay-tickets.js'
import type { RequestContext } from '../context.js'
import { gatewayError } from '../errors.js'
import { sendJson } from '../respond.js'
import type { Services } from '../services.js'
import { bodyReader, notFound, segment } from './admin-io.js'
import { appKeyOf } from './groups.js'
import { keptExchange } from './request-body.js'
import { toEntry } from './requests.js'

const readReplayBody = bodyReader<{ account?: string; model?: string }>(replayBody)

/** The longest a replay's call may take: the relay's own deadlines end it well before. */
const REPLAY_DEADLINE_MS = 15 * 60_000

/** Whether a kept body had media taken out or was not kept whole (client/capture.ts): then it cannot be sent again. */
function incomplete(value: unknown): boolean {
  if (Array.isArray(value)) return value.some(incomplete)
  if (value === null || typeof value !== 'object') return false
  const record = value as Record<string, unknown>
  if (record.stripped === 'media' || typeof record.omitted === 'string') return true
  return Object.values(record).some(incomplete)
}

/**
 * POST /admin/v1/requests/{id}/replay {account?, model?}: sends a kept request again, as the app's own key of its
 * group would: quoted first (POST /v1/quote), then through the one admission path (budgets, quotas and holds apply)
 * and billed like any request; `account` pins the upstream account (a one-time ticket, access/replay-tickets.ts),
 * `model` names another model of the group. The new ledger row is marked as the replay of `id`.
 */
export async function replayRequest(ctx: RequestContext, services: Services, params: string[]): Promise<void> {
  const id = segment(params[0], 'request')
  const { account, model } = await readReplayBody(ctx)
  await services.store.ledger.flush()
  const original = await services.store.ledger.get(id)
  if (original === undefined) throw notFound('request', id)
  const kept = await keptExchange(services, id)
  const body = kept?.request.body
  if (kept === undefined || body === null || typeof body !== 'object' || Array.isArray(body) || 'omitted' in body) {
    throw gatewayError('not_found', 'replay_body_not_kept', { id })
  }
  if (incomplete(body)) throw gatewayError('conflict', 'replay_media_not_kept', { id })
  if (original.group_id === null) throw gatewayError('not_found', 'replay_body_not_kept', { id })
  const request = model === undefined ? body : { ...body, model }
  const { key } = await appKeyOf(services, original.group_id)
  const path = kept.request.path
  const call = (target: string, payload: unknown, headers: Record<string, string> = {}) =>
    fetch(`${services.app.baseUrl}${target}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', 'accept-language': ctx.lang, ...headers },
      body: JSON.stringify(payload),
      signal: AbortSignal.any([AbortSignal.timeout(REPLAY_DEADLINE_MS), ctx.abort.signal]),
    })
  const quoted = await call('/v1/quote', { endpoint: path.split('?', 1)[0], request })
  const quoteText = await quoted.text()
  // A request the quote refuses (a model not in the group, funds short) is refused before anything is sent.
  if (quoted.status !== 200) return sendJson(ctx.res, quoted.status, quoteText)
  const replayed = await call(path, request, { [REPLAY_HEADER]: services.replays.issue({ of: id, upstream: account }) })
  // The answer is read whole (the replay's own kept body holds it); the ledger row is what the admin API answers.
  const answer = Buffer.from(await replayed.arrayBuffer())
  const replayId = replayed.headers.get('x-request-id')!
  await services.store.requestBodies.markReplay(replayId, id, account ?? null, model ?? null)
  // A replay refused or failed (the pinned account does not serve the model, funds short) answers as the gateway did.
  if (replayed.status !== 200) return sendJson(ctx.res, replayed.status, answer)
  const row = await loggedRow(services, replayId)
  sendJson(ctx.res, 200, { replayOf: id, quote: JSON.parse(quoteText) as unknown, replay: row === undefined ? null : toEntry(row) })
}

/** How long the replay's ledger row may take to be queued after its answer ended (the server writes it just after). */
const ROW_WAIT_MS = 5_000

/** The replay's row in the log, once the server queued it (it does so right after the answer's last byte). */
async function loggedRow(services: Services, id: string) {
  const deadline = Date.now() + ROW_WAIT_MS
  for (;;) {
    await services.store.ledger.flush()
    const [row] = await services.store.requestLog.page({ id, limit: 1 })
    if (row !== undefined || Date.now() >= deadline) return row
    await new Promise((resolve) => setTimeout(resolve, 10))
  }
}
