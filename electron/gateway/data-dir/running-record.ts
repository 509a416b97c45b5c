import { readFileSync, renameSync, unlinkSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { PRIVATE_FILE_MODE } from './private-files.js'

/**
 * What a running headless gateway notes in its data dir for `npm run gateway -- --login`, which runs as another
 * process and cannot ask it: where it listens, on which store, and how long its sign-in codes work.
 */
export interface RunningRecord {
  url: string
  pid: number
  /** on a PostgreSQL database (team mode), not the data dir's SQLite store */
  team: boolean
  loginCodeMinutes: number
}

const FILE = 'running.json'

/** Notes the running gateway (0600; written whole, then renamed, so a reader never sees half of it). */
export function recordRunning(dataDir: string, record: RunningRecord): void {
  const path = join(dataDir, FILE)
  writeFileSync(`${path}.tmp`, JSON.stringify(record), { mode: PRIVATE_FILE_MODE })
  renameSync(`${path}.tmp`, path)
}

/** Forgets the note at a clean stop, unless another process has written its own since. */
export function forgetRunning(dataDir: string, pid: number = process.pid): void {
  if (readRecord(dataDir)?.pid !== pid) return
  try {
    unlinkSync(join(dataDir, FILE))
  } catch {
    // already gone
  }
}

/** The gateway running on this data dir, if its note is there and its process alive (a killed one leaves its note). */
export function runningGateway(dataDir: string): RunningRecord | undefined {
  const record = readRecord(dataDir)
  return record && isAlive(record.pid) ? record : undefined
}

function readRecord(dataDir: string): RunningRecord | undefined {
  let value: Partial<RunningRecord>
  try {
    value = JSON.parse(readFileSync(join(dataDir, FILE), 'utf8')) as Partial<RunningRecord>
  } catch {
    return undefined
  }
  if (typeof value !== 'object' || value === null) return undefined
  const ok = typeof value.url === 'string' && Number.isInteger(value.pid) && typeof value.team === 'boolean' && Number.isInteger(value.loginCodeMinutes)
  return ok ? (value as RunningRecord) : undefined
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (err) {
    // EPERM: it exists, as another user's process.
    return (err as NodeJS.ErrnoException).code === 'EPERM'
  }
}
