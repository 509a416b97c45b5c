import { createHash } from 'node:crypto'
import { readFileSync, renameSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { PRIVATE_FILE_MODE } from '../data-dir/private-files.js'
import type { KeyPath } from './config-doc.js'
import type { ConnectTool } from '../../../shared/connect.js'

/** What one connection wrote into one file, to take back exactly that. */
export interface FileRecord {
  path: string
  /** the copy of the file as it was (byte for byte), or null when the file did not exist */
  backup: string | null
  /** each key written, with a hash of the value written (never the value: one of them is a key) */
  owned: Array<{ key: KeyPath; sha256: string }>
  /** tables/objects that did not exist before and were made to hold the keys */
  madeParents: KeyPath[]
}

export interface Connection {
  tool: ConnectTool
  connectedAt: number
  group: string
  model: string
  keyId: string
  keyHint: string
  files: FileRecord[]
}

const FILE = 'connections.json'

export const sha256 = (value: string) => createHash('sha256').update(value).digest('hex')

/** The connections made from this data dir (connections.json, 0600). */
export function readConnections(dataDir: string): Partial<Record<ConnectTool, Connection>> {
  try {
    const value: unknown = JSON.parse(readFileSync(join(dataDir, FILE), 'utf8'))
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Partial<Record<ConnectTool, Connection>>) : {}
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return {}
    throw err
  }
}

/** Saves one tool's connection, or forgets it (null); written whole, then renamed. */
export function saveConnection(dataDir: string, tool: ConnectTool, connection: Connection | null): void {
  const all = readConnections(dataDir)
  if (connection) all[tool] = connection
  else delete all[tool]
  const path = join(dataDir, FILE)
  writeFileSync(`${path}.tmp`, `${JSON.stringify(all, null, 2)}\n`, { mode: PRIVATE_FILE_MODE })
  renameSync(`${path}.tmp`, path)
}
