import { statSync } from 'node:fs'
import { readFileStart } from '../data-dir/file-start.js'
import { NOT_TEXT, textOfFile } from '../config/text-file.js'
import { databaseUrlSecrets, withPassword } from '../store/database-url.js'
import { TeamStartError } from './secret-key.js'

/** The environment variables that select team mode's database and give its password. */
export const DATABASE_URL_ENV = 'GATEHOUSE_DATABASE_URL'
export const DATABASE_PASSWORD_FILE_ENV = 'GATEHOUSE_DATABASE_PASSWORD_FILE'

/** A password file holds one line; reading stops past this many bytes. */
const PASSWORD_FILE_MAX_BYTES = 1024

/** Where team mode's database is, as the command line and the environment give it. */
export interface DatabaseGiven {
  /** `--database-url` */
  flagUrl?: string
  /** `--database-password-file` */
  flagPasswordFile?: string
  env: NodeJS.ProcessEnv
}

export interface TeamDatabase {
  /** the URL to connect with: a password file's password is in it (in memory only) */
  url: string
  /** every secret of it, for removing from messages */
  secrets: string[]
  /** printed once on stderr: the password was given where every local user can read it */
  warning?: string
}

export const PASSWORD_ON_COMMAND_LINE =
  'warning: the password in --database-url is visible to every user of this machine (ps, /proc/PID/cmdline); give it in GATEHOUSE_DATABASE_URL, --database-password-file FILE or ~/.pgpass instead'

/**
 * Team mode's database: `--database-url` or GATEHOUSE_DATABASE_URL (the flag wins); undefined without either (the
 * SQLite store). Its password comes from the URL, from a password file (`--database-password-file`, which wins, or
 * GATEHOUSE_DATABASE_PASSWORD_FILE), or, when neither gives one, from libpq's PGPASSFILE / ~/.pgpass, which
 * node-postgres reads itself.
 */
export function teamDatabase(given: DatabaseGiven): TeamDatabase | undefined {
  const url = given.flagUrl ?? (given.env[DATABASE_URL_ENV] || undefined)
  const passwordFile = given.flagPasswordFile ?? (given.env[DATABASE_PASSWORD_FILE_ENV] || undefined)
  if (url === undefined) {
    if (given.flagPasswordFile !== undefined) throw new TeamStartError(`--database-password-file needs the database: --database-url URL or ${DATABASE_URL_ENV}`)
    return undefined
  }
  const inUrl = databaseUrlSecrets(url)
  const warning = given.flagUrl !== undefined && inUrl.length > 0 ? PASSWORD_ON_COMMAND_LINE : undefined
  if (passwordFile === undefined) return { url, secrets: inUrl, warning }
  const where = given.flagPasswordFile !== undefined ? `--database-password-file ${passwordFile}` : `${DATABASE_PASSWORD_FILE_ENV} ${passwordFile}`
  if (inUrl.length > 0) throw new TeamStartError(`team mode: the database URL has a password and ${where} gives one too; give it one way`)
  let withFile: string
  try {
    withFile = withPassword(url, readPasswordFile(passwordFile, where))
  } catch (err) {
    if (err instanceof TeamStartError) throw err
    throw new TeamStartError('team mode: the database URL cannot be parsed (postgres://USER@HOST:PORT/DB)')
  }
  return { url: withFile, secrets: databaseUrlSecrets(withFile), warning }
}

/**
 * The password in a file: one line (its line end dropped), of at most PASSWORD_FILE_MAX_BYTES. Like libpq with
 * ~/.pgpass, a file other users may read or write is refused; so is anything but a regular file (a FIFO would
 * block the start).
 */
function readPasswordFile(path: string, where: string): string {
  let bytes: Buffer
  try {
    const stat = statSync(path)
    if (!stat.isFile()) throw new TeamStartError(`team mode: ${where} is not a regular file`)
    if (process.platform !== 'win32' && (stat.mode & 0o077) !== 0) {
      throw new TeamStartError(`team mode: ${where} is open to other users (mode ${(stat.mode & 0o777).toString(8).padStart(4, '0')}); make it the owner's only: chmod 600 ${path}`)
    }
    bytes = readFileStart(path, PASSWORD_FILE_MAX_BYTES)
  } catch (err) {
    if (err instanceof TeamStartError) throw err
    throw new TeamStartError(`team mode: ${where} cannot be read (${(err as NodeJS.ErrnoException).code ?? 'error'})`)
  }
  if (bytes.length > PASSWORD_FILE_MAX_BYTES) throw new TeamStartError(`team mode: ${where} is longer than ${PASSWORD_FILE_MAX_BYTES} bytes: not a password file`)
  const text = textOfFile(bytes)
  if (text === undefined) throw new TeamStartError(`team mode: ${where} ${NOT_TEXT}`)
  const password = text.replace(/\r?\n$/, '')
  if (password === '') throw new TeamStartError(`team mode: ${where} is empty`)
  if (/[\r\n]/.test(password)) throw new TeamStartError(`team mode: ${where} has more than one line; it must hold the password alone`)
  return password
}
