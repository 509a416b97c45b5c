import { STATE_NAMES, type Settings, type StateName } from '../../../shared/admin.js'
import { settingsBody, stateBody } from '../../../shared/schemas/admin.js'
import type { RequestContext } from '../context.js'
import { sendJson } from '../respond.js'
import type { Services } from '../services.js'
import { bodySettingsOf, readSettings, writeSettings } from '../data-dir/settings.js'
import { bodyReader, noContent, notFound, segment } from './admin-io.js'

const readSettingsBody = bodyReader<Settings>(settingsBody)
const readStateBody = bodyReader<{ value: unknown }>(stateBody)

/** GET /admin/v1/settings (with whether bodies are kept, saved or by default) */
export async function getSettings(ctx: RequestContext, services: Services): Promise<void> {
  sendJson(ctx.res, 200, { ...readSettings(services.dataDir), bodies: services.capture.settings() })
}

/** PUT /admin/v1/settings: saved to settings.json; the port applies at the next start, kept bodies at once (left out: unchanged). */
export async function putSettings(ctx: RequestContext, services: Services): Promise<void> {
  const settings = await readSettingsBody(ctx)
  const bodies = settings.bodies ?? readSettings(services.dataDir).bodies
  writeSettings(services.dataDir, { ...settings, ...(bodies ? { bodies } : {}) })
  services.capture.configure(bodySettingsOf(readSettings(services.dataDir), services.app.mode))
  await getSettings(ctx, services)
}

function stateName(raw: string): StateName {
  const name = segment(raw, 'state')
  if (!(STATE_NAMES as readonly string[]).includes(name)) throw notFound('state', name)
  return name as StateName
}

/** GET /admin/v1/state/{name}: a saved panel document (404 before the first save). */
export async function getState(ctx: RequestContext, services: Services, params: string[]): Promise<void> {
  const name = stateName(params[0])
  const row = await services.store.appState.get(name)
  if (!row) throw notFound('state', name)
  // Stored as JSON text: sent as it is, never parsed and re-serialized.
  sendJson(ctx.res, 200, `{"value":${row.value},"updatedAt":${row.updated_at}}`, { 'cache-control': 'no-store' })
}

/** PUT /admin/v1/state/{name}: replaces the document. */
export async function putState(ctx: RequestContext, services: Services, params: string[]): Promise<void> {
  const name = stateName(params[0])
  const { value } = await readStateBody(ctx)
  await services.store.appState.put(name, JSON.stringify(value ?? null))
  noContent(ctx)
}
