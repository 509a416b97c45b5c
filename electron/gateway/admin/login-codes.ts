import { createHash } from 'node:crypto'
import { ConfigError } from '../config/load-config.js'
import type { Repos } from '../store/index.js'
import { newSecret } from './session-table.js'

/** How long a sign-in code works when neither the config (`admin.loginCodeMinutes`) nor the environment says. */
export const DEFAULT_LOGIN_CODE_MINUTES = 10
/** The environment variable that sets the lifetime (it wins over the config file). */
export const LOGIN_CODE_MINUTES_ENV = 'GATEHOUSE_LOGIN_CODE_MINUTES'
/** A day: a sign-in address is meant to be opened now, not kept. */
const MAX_LOGIN_CODE_MINUTES = 1440

/** The lifetime of sign-in codes, in minutes: GATEHOUSE_LOGIN_CODE_MINUTES, else the config's, else 10. */
export function loginCodeMinutes(configured: number | undefined, env: NodeJS.ProcessEnv = process.env): number {
  const text = env[LOGIN_CODE_MINUTES_ENV]
  if (text === undefined || text.trim() === '') return configured ?? DEFAULT_LOGIN_CODE_MINUTES
  const minutes = Number(text)
  if (!/^\s*\d+\s*$/.test(text) || minutes < 1 || minutes > MAX_LOGIN_CODE_MINUTES) {
    throw new ConfigError(LOGIN_CODE_MINUTES_ENV, `"${text}" is not a whole number of minutes from 1 to ${MAX_LOGIN_CODE_MINUTES}`)
  }
  return minutes
}

/** The store keeps a code's hash only: a copy of the store (or a backup) opens nothing. A code has 256 random bits. */
const hashOf = (code: string): string => createHash('sha256').update(code).digest('hex')

/** A new sign-in code, good once within `lifetimeMs` of `now`, kept where every process on the store finds it. */
export async function issueLoginCode(repos: Repos, lifetimeMs: number, now: number = Date.now()): Promise<string> {
  const code = newSecret()
  await repos.loginCodes.add(hashOf(code), now + lifetimeMs, now)
  return code
}

/** What spending a sign-in code came to: a session may open only on `valid`. */
export type LoginCodeOutcome = 'valid' | 'expired' | 'unknown'

/** Spends a sign-in code: it is gone either way (an expired one too), so it never works twice. */
export async function spendLoginCode(repos: Repos, code: string, now: number = Date.now()): Promise<LoginCodeOutcome> {
  if (code === '') return 'unknown'
  const expiresAt = await repos.loginCodes.take(hashOf(code))
  if (expiresAt === undefined) return 'unknown'
  return now < expiresAt ? 'valid' : 'expired'
}
