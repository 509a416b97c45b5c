import { isDeepStrictEqual } from 'node:util'
import { chmodSync, copyFileSync, existsSync, mkdirSync, renameSync, statSync, unlinkSync, writeFileSync } from 'node:fs'
import { basename, dirname, join } from 'node:path'
import { createTwoFilesPatch } from 'diff'
import { readFileStart } from '../data-dir/file-start.js'
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from '../data-dir/private-files.js'
import { parentsAreTables, UnreadableFile, valueAt, without, withoutEmpty, type ConfigFormat, type KeyPath } from './config-doc.js'
import { sha256, type FileRecord } from './record.js'
import type { OwnedEntry, ToolFile } from './tools.js'

/** What shows in a diff in place of a secret value. */
export const SECRET_MASK = '••••••••'

/** One file's change: its text before and after (null: absent), and the diff shown to the user (secrets masked). */
export interface FileChange {
  path: string
  format: ConfigFormat
  before: string | null
  after: string | null
  diff: string
  /** set on a connection: what the record keeps */
  owned?: FileRecord['owned']
  madeParents?: KeyPath[]
  /** set on an undo: the backup to copy back */
  restoreFrom?: string | null
}

export const changeKind = (c: Pick<FileChange, 'before' | 'after'>) =>
  c.before === c.after ? 'none' : c.before === null ? 'create' : c.after === null ? 'delete' : 'update'

/** The largest settings file (or backup) read: real ones are a few kilobytes. */
export const MAX_SETTINGS_BYTES = 4 * 1024 * 1024

/** A file's text, read no further than MAX_SETTINGS_BYTES (a larger one is refused, untouched). */
function readSettings(path: string): string {
  const bytes = readFileStart(path, MAX_SETTINGS_BYTES)
  if (bytes.length > MAX_SETTINGS_BYTES) throw new UnreadableFile(path, 'too_large', { max: MAX_SETTINGS_BYTES })
  return bytes.toString('utf8')
}

const readText = (path: string): string | null => (existsSync(path) ? readSettings(path) : null)

/** A unified diff of the two texts with every secret value of either replaced by the mask. */
function maskedDiff(path: string, before: string | null, after: string | null, secrets: readonly string[]): string {
  const mask = (text: string | null) => secrets.filter((s) => s.length > 0).reduce((t, s) => t.split(s).join(SECRET_MASK), text ?? '')
  if (before === after) return ''
  return createTwoFilesPatch(path, path, mask(before), mask(after), before === null ? '(absent)' : 'now', after === null ? '(removed)' : 'after', { context: 3 })
}

/** The string values at the secret keys of a parsed document (to mask them whatever they are). */
const secretsIn = (doc: Record<string, unknown> | null, keys: readonly KeyPath[]) =>
  doc ? keys.map((k) => valueAt(doc, k)).filter((v): v is string => typeof v === 'string') : []

/**
 * A connection's change to one file: each owned key set, nothing else. Throws UnreadableFile when the file does not
 * parse, when a key's parent is something other than a table, or when the result would differ anywhere else (checked
 * by parsing both and comparing all but the owned keys).
 */
export function planConnectFile(file: ToolFile): FileChange {
  const before = readText(file.path)
  const doc = before === null ? {} : file.format.read(file.path, before)
  const madeParents: KeyPath[] = []
  let after = before ?? ''
  for (const entry of file.entries) {
    const clash = parentsAreTables(doc, entry.key)
    if (clash) throw new UnreadableFile(file.path, 'not_table', { key: clash })
    for (let i = 1; i < entry.key.length; i++) {
      const parent = entry.key.slice(0, i)
      if (valueAt(doc, parent) === undefined && !madeParents.some((p) => isDeepStrictEqual(p, parent))) madeParents.push(parent)
    }
    after = file.format.set(after, entry.key, entry.value)
  }
  const keys = file.entries.map((e) => e.key)
  const result = file.format.read(file.path, after)
  const othersKept = isDeepStrictEqual(withoutEmpty(without(result, keys), madeParents), without(doc, keys))
  const allSet = file.entries.every((e) => valueAt(result, e.key) === e.value)
  if (!othersKept || !allSet) throw new UnreadableFile(file.path, 'not_kept')
  return {
    path: file.path, format: file.format, before, after, madeParents,
    diff: maskedDiff(file.path, before, after, secretsIn(doc, secretKeys(file.entries)).concat(secretsIn(result, secretKeys(file.entries)))),
    owned: file.entries.map((e) => ({ key: e.key, sha256: sha256(e.value) })),
  }
}

const secretKeys = (entries: readonly OwnedEntry[]) => entries.filter((e) => e.secret).map((e) => e.key)

/**
 * A disconnection's change to one file: each key still holding the value written is put back as the backup had
 * it, or taken out; a table made for the keys goes when it is left empty; a file the connection created goes when
 * nothing else is left in it. A key the user has changed since is theirs and stays.
 */
export function planDisconnectFile(record: FileRecord, format: ConfigFormat, secretKeyPaths: readonly KeyPath[]): FileChange {
  const before = readText(record.path)
  if (before === null) return { path: record.path, format, before, after: before, diff: '' }
  const doc = format.read(record.path, before)
  const original = record.backup !== null && existsSync(record.backup) ? format.read(record.backup, readSettings(record.backup)) : null
  let after = before
  for (const { key, sha256: hash } of record.owned) {
    const now = valueAt(format.read(record.path, after), key)
    if (typeof now !== 'string' || sha256(now) !== hash) continue
    const previous = original ? valueAt(original, key) : undefined
    after = typeof previous === 'string' ? format.set(after, key, previous) : format.remove(after, key)
  }
  for (const parent of [...record.madeParents].sort((a, b) => b.length - a.length)) {
    const at = valueAt(format.read(record.path, after), parent)
    if (typeof at === 'object' && at !== null && Object.keys(at).length === 0) after = format.remove(after, parent)
  }
  const emptied = record.backup === null && Object.keys(format.read(record.path, after)).length === 0
  const result = emptied ? null : after
  return { path: record.path, format, before, after: result, diff: maskedDiff(record.path, before, result, secretsIn(doc, secretKeyPaths)) }
}

/** An undo's change to one file: the backup copied back byte for byte, or the file removed when there was none. */
export function planUndoFile(record: FileRecord, format: ConfigFormat, secretKeyPaths: readonly KeyPath[]): FileChange {
  const before = readText(record.path)
  if (record.backup !== null && !existsSync(record.backup)) throw new UnreadableFile(record.backup, 'backup_gone')
  const after = record.backup === null ? null : readSettings(record.backup)
  const docOf = (path: string, text: string | null) => {
    try {
      return text === null ? null : format.read(path, text)
    } catch {
      return null
    }
  }
  const secrets = [...secretsIn(docOf(record.path, before), secretKeyPaths), ...secretsIn(docOf(record.path, after), secretKeyPaths)]
  return { path: record.path, format, before, after, diff: maskedDiff(record.path, before, after, secrets), restoreFrom: record.backup }
}

/** A backup's name beside the file: `settings.json.gatehouse-backup-20261128T014630123Z`. */
export function backupPath(path: string, at: Date): string {
  return join(dirname(path), `${basename(path)}.gatehouse-backup-${at.toISOString().replace(/[-:.]/g, '')}`)
}

/**
 * Writes one change: the file as it was copied first to `backup` (its bytes and mode), the new text written to a
 * temporary file beside it and renamed over it (a reader never sees half a file). A file created here is 0600, in a
 * folder created 0700; an existing one keeps its mode.
 */
export function writeChange(change: FileChange, backup: string | null): void {
  if (change.before === change.after) return
  if (backup !== null) copyFileSync(change.path, backup)
  if (change.after === null) {
    unlinkSync(change.path)
    return
  }
  const exists = existsSync(change.path)
  if (!exists) mkdirSync(dirname(change.path), { recursive: true, mode: PRIVATE_DIR_MODE })
  const mode = change.restoreFrom ? statSync(change.restoreFrom).mode & 0o777 : exists ? statSync(change.path).mode & 0o777 : PRIVATE_FILE_MODE
  const temp = `${change.path}.gatehouse-${process.pid}.tmp`
  if (change.restoreFrom) copyFileSync(change.restoreFrom, temp)
  else writeFileSync(temp, change.after, { mode })
  chmodSync(temp, mode)
  renameSync(temp, change.path)
}
