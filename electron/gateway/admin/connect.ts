import { CONNECT_TOOLS, type ConnectBody, type ConnectionSummary, type ConnectOverview, type ConnectResult, type ConnectTool, type FileChangeSummary } from '../../../shared/connect.js'
import { connectBody, releaseBody } from '../../../shared/schemas/connect.js'
import { applyConfig } from '../config/apply-config.js'
import { UnreadableFile } from '../connect/config-doc.js'
import { changeKind, commitConnect, commitRelease, ConnectRefused, planConnect, planRelease, SDK_VARIABLES, toolStates, type ConnectPlace } from '../connect/connector.js'
import type { FileChange } from '../connect/edit-files.js'
import type { Connection } from '../connect/record.js'
import { TOOLS } from '../connect/tools.js'
import type { RequestContext } from '../context.js'
import { gatewayError } from '../errors.js'
import { sendJson } from '../respond.js'
import { generateKey } from '../secrets/keys.js'
import type { Services } from '../services.js'
import { applyChange, bodyReader, notFound, segment } from './admin-io.js'

const readConnect = bodyReader<ConnectBody>(connectBody)
const readRelease = bodyReader<{ dryRun?: boolean }>(releaseBody)

/** The tools' files live on the machine the gateway runs on, found from its environment (CLAUDE_CONFIG_DIR, CODEX_HOME, HOME, PATH). */
const placeOf = (services: Services): ConnectPlace => ({ dataDir: services.dataDir, env: process.env })

/** One change at a time: two clicks never interleave their reads and writes of the same file. */
let queue: Promise<unknown> = Promise.resolve()
function oneAtATime<T>(work: () => Promise<T>): Promise<T> {
  const run = queue.then(work, work)
  queue = run.catch(() => undefined)
  return run
}

function toolOf(raw: string): ConnectTool {
  const id = segment(raw, 'tool')
  if (!(CONNECT_TOOLS as readonly string[]).includes(id)) throw notFound('tool', id)
  return id as ConnectTool
}

const summaryOf = (c: Connection): ConnectionSummary => ({
  connectedAt: c.connectedAt, group: c.group, model: c.model, keyId: c.keyId, keyHint: c.keyHint, files: c.files.map((f) => ({ path: f.path, backup: f.backup })),
})

const changeSummary = (c: FileChange, backup: string | null = null): FileChangeSummary => ({ path: c.path, action: changeKind(c), diff: c.diff, backup })

/** A refusal or an unreadable file, in the admin API's words; anything else goes on as it is. */
function explained(err: unknown): unknown {
  if (err instanceof ConnectRefused) {
    const id = err.kind === 'unsupported' ? 'connect_unsupported' : err.kind === 'already' ? 'connect_already' : 'connect_not_connected'
    return gatewayError(err.kind === 'unsupported' ? 'invalid_request' : 'conflict', id, { tool: err.tool.name })
  }
  if (err instanceof UnreadableFile) {
    const { path, kind, detail } = err
    if (kind === 'syntax') return gatewayError('conflict', 'connect_file_syntax', { path, format: detail.format ?? '', line: detail.line ?? 1 })
    if (kind === 'not_table') return gatewayError('conflict', 'connect_file_not_table', { path, key: detail.key ?? '' })
    if (kind === 'backup_gone') return gatewayError('conflict', 'connect_backup_gone', { path })
    if (kind === 'too_large') return gatewayError('conflict', 'connect_file_too_large', { path, max: detail.max ?? 0 })
    return gatewayError('conflict', 'connect_file_not_kept', { path })
  }
  return err
}

async function explain<T>(work: () => Promise<T> | T): Promise<T> {
  try {
    return await work()
  } catch (err) {
    throw explained(err)
  }
}

/** GET /admin/v1/connect: each tool found on this machine, its files and its connection; the SDK variables. */
export async function connectOverview(ctx: RequestContext, services: Services): Promise<void> {
  const place = placeOf(services)
  const base = services.app.baseUrl
  const overview: ConnectOverview = {
    tools: toolStates(place).map((s) => ({
      tool: s.spec.id, name: s.spec.name, supported: s.spec.protocol !== null, protocol: s.spec.protocol, program: s.program, homeFound: s.homeFound,
      files: s.files, usage: s.spec.usage, connection: s.connection ? summaryOf(s.connection) : null,
    })),
    sdk: SDK_VARIABLES.map(({ name, suffix }) => {
      const value = place.env[name] || null
      const suggested = `${base}${suffix}`
      return { name, value, suggested, pointsHere: value !== null && value.replace(/\/+$/, '') === suggested }
    }),
  }
  sendJson(ctx.res, 200, overview)
}

/** The group and model a connection uses: the ones named, or the first group of the protocol and its first model. */
async function pickGroup(services: Services, tool: ConnectTool, body: ConnectBody): Promise<{ group: string; model: string }> {
  const spec = TOOLS[tool]
  if (spec.protocol === null) throw new ConnectRefused('unsupported', spec)
  const groups = await services.store.groups.all()
  const group = body.group === undefined ? groups.find((g) => g.protocol === spec.protocol) : groups.find((g) => g.id === body.group)
  if (!group) {
    if (body.group !== undefined) throw notFound('group', body.group)
    throw gatewayError('invalid_request', 'connect_no_group', { tool: spec.name, protocol: spec.protocol })
  }
  if (group.protocol !== spec.protocol) throw gatewayError('invalid_request', 'connect_wrong_group', { group: group.id, has: group.protocol, tool: spec.name, protocol: spec.protocol }, { param: 'group' })
  const model = body.model ?? group.models[0] ?? ''
  if (body.model !== undefined && !group.models.includes(body.model)) throw gatewayError('invalid_request', 'connect_no_model', { group: group.id, model: body.model }, { param: 'model' })
  return { group: group.id, model }
}

/** A new key of the group for the tool; its secret goes into the tool's file and nowhere else. */
async function issueKey(services: Services, group: string, name: string): Promise<{ key: string; id: string; hint: string }> {
  const key = generateKey()
  await applyChange(services, (tx) => applyConfig({ keys: [{ group, name, key }] }, tx, services.secrets, services.registry.builtinModels, services.registry.keyHasher))
  const row = (await services.store.apiKeys.all()).find((k) => k.hash === services.registry.keyHasher.hash(key))!
  return { key, id: row.id, hint: row.hint }
}

const revoke = (services: Services, id: string) => applyChange(services, (tx) => tx.apiKeys.remove(id))

/** What a dry run writes in the key's place (the diff masks it either way). */
const NEW_KEY = 'gatehouse-new-key'

/**
 * POST /admin/v1/connect/{tool}: a key of the right group made, and only Gatehouse's keys merged into the tool's
 * files, each backed up first. `dryRun`: the diffs only.
 */
export async function connectTool(ctx: RequestContext, services: Services, params: string[]): Promise<void> {
  const tool = toolOf(params[0])
  const body = await readConnect(ctx)
  const place = placeOf(services)
  const spec = TOOLS[tool]
  const result = await oneAtATime(() => explain(async (): Promise<{ status: number; result: ConnectResult }> => {
    const { group, model } = await pickGroup(services, tool, body)
    const target = { baseUrl: services.app.baseUrl, model }
    // Every file is read and checked before a key is made: an unreadable one stops the whole connection.
    const preview = planConnect(place, tool, { ...target, key: NEW_KEY })
    if (body.dryRun) return { status: 200, result: { tool, dryRun: true, changes: preview.map((c) => changeSummary(c)), connection: null, usage: spec.usage } }
    const key = await issueKey(services, group, `${spec.name} (connected)`)
    try {
      const changes = planConnect(place, tool, { ...target, key: key.key })
      const connection = commitConnect(place, tool, changes, { group, model, keyId: key.id, keyHint: key.hint })
      const written = changes.map((c, i) => changeSummary(c, connection.files[i].backup))
      return { status: 201, result: { tool, dryRun: false, changes: written, connection: summaryOf(connection), usage: spec.usage } }
    } catch (err) {
      await revoke(services, key.id)
      throw err
    }
  }))
  sendJson(ctx.res, result.status, result.result, { 'cache-control': 'no-store' })
}

/** POST /admin/v1/connect/{tool}/disconnect and …/undo: the connection taken back, and its key revoked. */
export function releaseTool(how: 'disconnect' | 'undo') {
  return async (ctx: RequestContext, services: Services, params: string[]): Promise<void> => {
    const tool = toolOf(params[0])
    const body = await readRelease(ctx)
    const place = placeOf(services)
    const result = await oneAtATime(() => explain(async (): Promise<ConnectResult> => {
      const { connection, changes } = planRelease(place, tool, how)
      if (!body.dryRun) {
        commitRelease(place, tool, changes)
        if (await services.store.apiKeys.get(connection.keyId)) await revoke(services, connection.keyId)
      }
      return { tool, dryRun: body.dryRun === true, changes: changes.map((c) => changeSummary(c)), connection: body.dryRun ? summaryOf(connection) : null, usage: TOOLS[tool].usage }
    }))
    sendJson(ctx.res, 200, result)
  }
}
