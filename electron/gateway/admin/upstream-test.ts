import type { UpstreamTestFailure, UpstreamTestResult } from '../../../shared/admin.js'
import { formatMessage, type MessageId, type MessageParams } from '../../../shared/messages.js'
import { upstreamTest } from '../../../shared/schemas/admin.js'
import type { Vendor } from '../../../shared/types.js'
import { isCallable } from '../catalog/catalog.js'
import type { RequestContext } from '../context.js'
import { readAnswer, readErrorText, transportFailure } from '../upstreams/http.js'
import { exceedsJsonDepth } from '../guards/json-depth.js'
import { baseUrlProblem } from '../guards/link-guard.js'
import { createRedactor } from '../secrets/redact.js'
import { sendJson } from '../respond.js'
import type { Services } from '../services.js'
import { modelListCall } from '../upstreams/model-list.js'
import { bodyReader, notFound, segment } from './admin-io.js'

type TestBody = { id: string } | { vendor: Vendor; baseUrl: string; apiKey: string }
const readBody = bodyReader<TestBody>(upstreamTest)

/** The longest a test waits for the vendor (less when the gateway's own first-byte timeout is shorter). */
export const TEST_TIMEOUT_MS = 10_000
/** A model list is small; a bigger answer is not one. */
const MAX_LIST_BYTES = 4 * 1024 * 1024
/** How much of the vendor's own words the answer quotes. */
const MAX_DETAIL_CHARS = 300

/**
 * POST /admin/v1/upstreams/test: asks the vendor which models the account (given, or stored by `id`) can call, with a
 * short timeout. The answer is the list, or what went wrong in plain words with the vendor's own text quoted. The key
 * goes only to the vendor: it is redacted from everything the answer quotes, and nothing of the call is logged.
 */
export async function testUpstream(ctx: RequestContext, services: Services): Promise<void> {
  const body = await readBody(ctx)
  const account = 'id' in body ? storedAccount(services, body.id) : body
  sendJson(ctx.res, 200, await runTest(ctx, services, account))
}

function storedAccount(services: Services, raw: string): { vendor: Vendor; baseUrl: string; apiKey: string } {
  const id = segment(raw, 'upstream account')
  const upstream = services.registry.upstreams.get(id)
  if (!upstream) throw notFound('upstream account', id)
  return upstream
}

async function runTest(ctx: RequestContext, services: Services, account: { vendor: Vendor; baseUrl: string; apiKey: string }): Promise<UpstreamTestResult> {
  const { registry } = services
  const redactor = createRedactor()
  redactor.setSecrets([account.apiKey])
  const redact = (text: string) => registry.redactor.redact(redactor.redact(text))
  const failed = (status: number | null, reason: UpstreamTestFailure['reason'], id: MessageId, params: MessageParams = {}, detail: string | null = null): UpstreamTestFailure =>
    ({ ok: false, status, reason, message: formatMessage(id, ctx.lang, params), detail: detail === null ? null : redact(detail).slice(0, MAX_DETAIL_CHARS) || null })

  const vendorModels = registry.catalog.all().filter((m) => isCallable(m) && (account.vendor === 'gateway' || m.vendor === account.vendor))
  const call = modelListCall(account.vendor, account.baseUrl, account.apiKey)
  if (!call) {
    // No model-list endpoint (Kling, MiniMax): the catalog's models of the vendor; the key is checked at the first call.
    const ids = vendorModels.map((m) => m.id)
    return { ok: true, listed: false, models: ids, callable: ids }
  }
  let target: URL
  try {
    target = new URL(call.spec.url)
  } catch {
    return failed(null, 'refused', 'upstream_test_refused', { problem: 'is not a valid URL' })
  }
  // Loopback, LAN and CGNAT servers are fine (an OpenAI-compatible server of your own); link-local and metadata never are.
  const problem = baseUrlProblem(target)
  if (problem) return failed(null, 'refused', 'upstream_test_refused', { problem })

  const timeoutMs = Math.min(TEST_TIMEOUT_MS, services.http.timeouts.firstByteMs)
  let response
  try {
    response = await services.http.send(call.spec, AbortSignal.timeout(timeoutMs))
  } catch (err) {
    return transportFailure(err) === 'timeout'
      ? failed(null, 'timeout', 'upstream_test_timeout', { seconds: timeoutMs / 1000 })
      : failed(null, 'unreachable', 'upstream_test_unreachable', { host: target.host })
  }
  const status = response.statusCode
  if (status >= 300) {
    const text = await readErrorText(response)
    const detail = vendorWords(text)
    // Gemini answers a wrong key with 400 API_KEY_INVALID.
    if (status === 401 || status === 403 || /API_KEY_INVALID/.test(text)) return failed(status, 'unauthorized', 'upstream_test_unauthorized', { status }, detail)
    if (status === 404) return failed(status, 'not_found', 'upstream_test_not_found', {}, detail)
    return failed(status, 'vendor_error', 'upstream_test_vendor_error', { status }, detail)
  }
  let ids: string[] | undefined
  try {
    const answer = await readAnswer(response, MAX_LIST_BYTES)
    if (!exceedsJsonDepth(answer)) ids = call.read(JSON.parse(answer.toString('utf8')))
  } catch {
    // not JSON, too large or too deep: not a model list
  }
  if (ids === undefined) return failed(status, 'bad_answer', 'upstream_test_bad_answer')
  const listed = new Set(ids)
  const callable = vendorModels.filter((m) => listed.has(typeof m.upstreamModel === 'string' ? m.upstreamModel : m.id)).map((m) => m.id)
  return { ok: true, listed: true, models: ids, callable }
}

/** The vendor's own message from its error body (any of the usual shapes), else its text. */
function vendorWords(text: string): string | null {
  try {
    const body = JSON.parse(text) as { error?: { message?: unknown } | string; message?: unknown }
    const message = typeof body.error === 'string' ? body.error : body.error?.message ?? body.message
    if (typeof message === 'string') return message
  } catch {
    // not JSON: the text itself
  }
  return text.trim() || null
}
