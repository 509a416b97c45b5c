import { SESSION_FRAGMENT, type AdminSession, type OpenedAdminSession } from '../../../shared/admin.js'
import { formatMessage, type Lang } from '../../../shared/messages.js'
import type { RequestContext } from '../context.js'
import { gatewayError } from '../errors.js'
import { sendJson } from '../respond.js'
import type { Services } from '../services.js'
import { queryOf } from './admin-io.js'
import type { AdminSessionEntry } from '../access/admin-access.js'
import { spendLoginCode, type LoginCodeOutcome } from './login-codes.js'

const sessionOf = ({ app, dataDir }: Services, session: AdminSessionEntry | undefined): AdminSession =>
  ({ mode: app.mode, version: app.version, baseUrl: app.baseUrl, dataDir, mediaToken: session?.mediaToken ?? null })

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }

/** A message as HTML: escaped, and its `command` spans shown as code rather than with their backticks. */
const messageHtml = (text: string) => text.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c]).replace(/`([^`]+)`/g, '<code>$1</code>')

/** The page a sign-in address that cannot sign in gets, in the reader's language. */
const refusedLink = (outcome: Exclude<LoginCodeOutcome, 'valid'>, lang: Lang) => `<!doctype html><meta charset="utf-8"><title>Gatehouse</title>
<p>${messageHtml(formatMessage(outcome === 'expired' ? 'login_link_expired' : 'login_link_used', lang))}</p>`

/**
 * GET /admin/login?code=: the one-time address the headless gateway (or `npm run gateway -- --login`) prints; sets
 * the session cookie and hands the session token to the page in the URL fragment, which the browser keeps to itself
 * (it is never sent to a server). The code is spent whatever the outcome, in the store every replica shares.
 */
export async function login(ctx: RequestContext, services: Services): Promise<void> {
  const outcome = await spendLoginCode(services.store, queryOf(ctx).get('code') ?? '')
  if (outcome !== 'valid') {
    const page = refusedLink(outcome, ctx.lang)
    ctx.res.writeHead(401, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store', 'content-length': Buffer.byteLength(page) }).end(page)
    return
  }
  const session = await services.admin.openSession()
  // Redirect, so the code leaves the address bar and the history's current entry.
  ctx.res.writeHead(303, { location: `/#${SESSION_FRAGMENT}=${session.token}`, 'set-cookie': services.admin.cookie(session), 'cache-control': 'no-store' }).end()
}

/** GET /admin/v1/session: who we are (401 when not signed in), with the session's media token. */
export async function getSession(ctx: RequestContext, services: Services): Promise<void> {
  sendJson(ctx.res, 200, sessionOf(services, await services.admin.session(ctx.req)), { 'cache-control': 'no-store' })
}

/** POST /admin/v1/session: the desktop window trades the admin token for a session (the cookie, and its token in the body). */
export async function openSession(ctx: RequestContext, services: Services): Promise<void> {
  if (!services.admin.hasToken(ctx.req)) throw gatewayError('admin_unauthorized', 'admin_unauthorized')
  const session = await services.admin.openSession()
  const body: OpenedAdminSession = { ...sessionOf(services, session), sessionToken: session.token }
  sendJson(ctx.res, 200, body, { 'set-cookie': services.admin.cookie(session), 'cache-control': 'no-store' })
}

/** DELETE /admin/v1/session: signs out; the session is forgotten and the browser told to drop the cookie. */
export async function closeSession(ctx: RequestContext, services: Services): Promise<void> {
  await services.admin.close(ctx.req)
  ctx.res.writeHead(204, { 'set-cookie': services.admin.clearedCookie, 'cache-control': 'no-store' }).end()
}
