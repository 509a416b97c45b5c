import { existsSync } from 'node:fs'
import type { KeyPath } from './config-doc.js'
import { backupPath, changeKind, planConnectFile, planDisconnectFile, planUndoFile, writeChange, type FileChange } from './edit-files.js'
import { readConnections, saveConnection, type Connection } from './record.js'
import { CONNECT_TOOLS, type ConnectTool } from '../../../shared/connect.js'
import { findProgram, TOOLS, type Target, type ToolSpec } from './tools.js'

/** Where connections are read and written: the gateway's data dir (the record) and the environment (the tools' homes, PATH). */
export interface ConnectPlace {
  dataDir: string
  env: NodeJS.ProcessEnv
}

/** Why an operation cannot go on, for the caller to answer in its own words. */
export class ConnectRefused extends Error {
  constructor(
    readonly kind: 'unsupported' | 'already' | 'not_connected',
    readonly tool: ToolSpec,
    readonly connection?: Connection,
  ) {
    super(`${tool.id}: ${kind}`)
  }
}

export interface ToolState {
  spec: ToolSpec
  /** the program found on PATH */
  program: string | null
  /** the tool's settings folder exists */
  homeFound: boolean
  /** the files a connection writes */
  files: string[]
  connection: Connection | null
}

/** The SDK variables of the environment the gateway runs in, and whether they point here. */
export const SDK_VARIABLES = [
  { name: 'OPENAI_BASE_URL', suffix: '/v1' },
  { name: 'ANTHROPIC_BASE_URL', suffix: '' },
] as const

export function toolStates(place: ConnectPlace): ToolState[] {
  const connections = readConnections(place.dataDir)
  const placeholder: Target = { baseUrl: '', key: '', model: '' }
  return CONNECT_TOOLS.map((id) => {
    const spec = TOOLS[id]
    return {
      spec, program: findProgram(spec.program, place.env), homeFound: existsSync(spec.home(place.env)),
      files: spec.files(place.env, placeholder).map((f) => f.path), connection: connections[id] ?? null,
    }
  })
}

const secretKeysOf = (spec: ToolSpec, env: NodeJS.ProcessEnv, path: string): KeyPath[] =>
  spec.files(env, { baseUrl: '', key: '', model: '' }).find((f) => f.path === path)?.entries.filter((e) => e.secret).map((e) => e.key) ?? []
const formatOf = (spec: ToolSpec, env: NodeJS.ProcessEnv, path: string) =>
  spec.files(env, { baseUrl: '', key: '', model: '' }).find((f) => f.path === path)!.format

function supported(id: ConnectTool): ToolSpec {
  const spec = TOOLS[id]
  if (spec.protocol === null) throw new ConnectRefused('unsupported', spec)
  return spec
}

/** Connecting: each file's change, refused when the tool is connected already. Nothing is written. */
export function planConnect(place: ConnectPlace, id: ConnectTool, target: Target): FileChange[] {
  const spec = supported(id)
  const existing = readConnections(place.dataDir)[id]
  if (existing) throw new ConnectRefused('already', spec, existing)
  return spec.files(place.env, target).map(planConnectFile)
}

/** Writes a connection's changes, each file backed up first, and records what was written. */
export function commitConnect(place: ConnectPlace, id: ConnectTool, changes: FileChange[], meta: Omit<Connection, 'tool' | 'connectedAt' | 'files'>, now = new Date()): Connection {
  const files = changes.map((change) => {
    const backup = change.before === null ? null : backupPath(change.path, now)
    writeChange(change, backup)
    return { path: change.path, backup, owned: change.owned ?? [], madeParents: change.madeParents ?? [] }
  })
  const connection: Connection = { tool: id, connectedAt: now.getTime(), ...meta, files }
  saveConnection(place.dataDir, id, connection)
  return connection
}

function connectionOf(place: ConnectPlace, id: ConnectTool): Connection {
  const spec = TOOLS[id]
  const connection = readConnections(place.dataDir)[id]
  if (!connection) throw new ConnectRefused('not_connected', spec)
  return connection
}

/** Disconnecting or undoing: the connection, and each file's change. Nothing is written. */
export function planRelease(place: ConnectPlace, id: ConnectTool, how: 'disconnect' | 'undo'): { connection: Connection; changes: FileChange[] } {
  const connection = connectionOf(place, id)
  const spec = TOOLS[id]
  const plan = how === 'undo' ? planUndoFile : planDisconnectFile
  return { connection, changes: connection.files.map((f) => plan(f, formatOf(spec, place.env, f.path), secretKeysOf(spec, place.env, f.path))) }
}

/** Writes a disconnection's or an undo's changes and forgets the connection. The backups stay where they are. */
export function commitRelease(place: ConnectPlace, id: ConnectTool, changes: FileChange[]): void {
  for (const change of changes) writeChange(change, null)
  saveConnection(place.dataDir, id, null)
}

export { changeKind }
