import type { AdminSession } from '../../../shared/admin.js'
import type { RequestContext } from '../context.js'
import { gatewayError } from '../errors.js'
import { sendJson } from '../respond.js'
import type { Services } from '../services.js'
import { queryOf } from './admin-io.js'

const sessionOf = ({ app, dataDir }: Services): AdminSession => ({ mode: app.mode, version: app.version, baseUrl: app.baseUrl, dataDir })

const USED_LINK = `<!doctype html><meta charset="utf-8"><title>Gatehouse</title>
<p>This login address was already used or is not valid. Each address works once: restart the gateway for a new one.</p>`

/** GET /admin/login?code=: the one-time address the headless gateway prints; sets the session cookie. */
export async function login(ctx: RequestContext, services: Services): Promise<void> {
  const session = services.admin.redeem(queryOf(ctx).get('code') ?? '')
  if (!session) {
    ctx.res.writeHead(401, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store', 'content-length': Buffer.byteLength(USED_LINK) }).end(USED_LINK)
    return
  }
  // Redirect, so the code leaves the address bar and the history's current entry.
  ctx.res.writeHead(303, { location: '/', 'set-cookie': services.admin.cookie(session), 'cache-control': 'no-store' }).end()
}

/** GET /admin/v1/session: who we are (401 when not signed in). */
export async function getSession(ctx: RequestContext, services: Services): Promise<void> {
  sendJson(ctx.res, 200, sessionOf(services), { 'cache-control': 'no-store' })
}

/** POST /admin/v1/session: the desktop window trades the admin token for the cookie (so <img> and <video> work too). */
export async function openSession(ctx: RequestContext, services: Services): Promise<void> {
  if (!services.admin.hasToken(ctx.req)) throw gatewayError('admin_unauthorized', 'admin_unauthorized')
  sendJson(ctx.res, 200, sessionOf(services), { 'set-cookie': services.admin.cookie(services.admin.openSession()), 'cache-control': 'no-store' })
}
