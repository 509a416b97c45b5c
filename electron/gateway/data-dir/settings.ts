import { readFileSync, renameSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { BODY_LIMITS, LANGUAGES, type BodySettings, type Settings } from '../../../shared/admin.js'
import { DEFAULT_PORT } from './paths.js'
import { PRIVATE_FILE_MODE, restrictMode } from './private-files.js'

const DEFAULTS: Settings = { port: DEFAULT_PORT, language: 'en' }

/** `<dataDir>/settings.json`: read before the gateway starts (the port), so it lives outside the store. */
export function readSettings(dataDir: string): Settings {
  let raw: Partial<Settings> = {}
  try {
    raw = JSON.parse(readFileSync(join(dataDir, 'settings.json'), 'utf8')) as Partial<Settings>
  } catch {
    // missing or unreadable: the defaults stand
  }
  const bodies = validBodies(raw.bodies)
  return {
    port: Number.isInteger(raw.port) && raw.port! > 0 && raw.port! <= 65535 ? raw.port! : DEFAULTS.port,
    language: LANGUAGES.includes(raw.language as Settings['language']) ? raw.language! : DEFAULTS.language,
    ...(bodies ? { bodies } : {}),
  }
}

function validBodies(raw: unknown): BodySettings | undefined {
  if (raw === null || typeof raw !== 'object') return undefined
  const { keep, keepMedia, count } = raw as Partial<BodySettings>
  if (typeof keep !== 'boolean' || typeof keepMedia !== 'boolean' || !Number.isInteger(count) || count! < 1 || count! > BODY_LIMITS.maxCount) return undefined
  return { keep, keepMedia, count: count! }
}

/**
 * Whether bodies are kept, as saved; never saved: on in the desktop app (one person's own traffic, kept in their own
 * data dir beside the ledger, so the inspector works from the first request), off headless (a server, and team mode's
 * shared database, hold other people's prompts: keeping them is the operator's choice).
 */
export function bodySettingsOf(settings: Settings, mode: 'desktop' | 'headless'): BodySettings {
  return settings.bodies ?? { keep: mode === 'desktop', keepMedia: false, count: BODY_LIMITS.defaultCount }
}

/** Written to a temporary file first, so a crash never leaves half a settings file. */
export function writeSettings(dataDir: string, settings: Settings): void {
  const path = join(dataDir, 'settings.json')
  writeFileSync(`${path}.tmp`, `${JSON.stringify(settings, null, 2)}\n`, { mode: PRIVATE_FILE_MODE })
  // The mode option applies only when the file is created: a leftover temp file keeps its own.
  restrictMode(`${path}.tmp`, PRIVATE_FILE_MODE)
  renameSync(`${path}.tmp`, path)
}
