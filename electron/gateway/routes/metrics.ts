import type { RequestContext } from '../context.js'
import { gatewayError } from '../errors.js'
import type { Services } from '../services.js'

/**
 * GET /metrics: the Prometheus text format (metrics/gateway-metrics.ts). Closed unless proven: the metrics token
 * (`Authorization: Bearer`, GATEHOUSE_METRICS_TOKEN) or what opens the admin API (its token or a session).
 */
export async function metrics(ctx: RequestContext, services: Services): Promise<void> {
  if (!services.metrics.allows(ctx.req.headers.authorization) && !(await services.admin.allows(ctx.req))) throw gatewayError('admin_unauthorized', 'admin_unauthorized')
  const text = await services.metrics.text()
  ctx.res.writeHead(200, { 'content-type': services.metrics.contentType, 'cache-control': 'no-store', 'content-length': Buffer.byteLength(text) })
  ctx.res.end(text)
}
