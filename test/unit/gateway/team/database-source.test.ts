import { execFileSync } from 'node:child_process'
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { PASSWORD_ON_COMMAND_LINE, teamDatabase } from '../../../../electron/gateway/team/database-source.js'

const dir = mkdtempSync(join(tmpdir(), 'gatehouse-dbpass-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

let files = 0
/** A password file with these bytes and this mode. */
function passwordFile(content: string | Buffer, mode = 0o600): string {
  const path = join(dir, `password-${++files}`)
  writeFileSync(path, content)
  chmodSync(path, mode)
  return path
}

const URL_ONLY = 'postgres://gate@db.internal:5432/gatehouse'

describe('team database: where its password comes from', () => {
  it('no URL: no team mode (a password file in the environment alone is ignored)', () => {
    expect(teamDatabase({ env: {} })).toBeUndefined()
    expect(teamDatabase({ env: { GATEHOUSE_DATABASE_PASSWORD_FILE: passwordFile('pw-from-env\n') } })).toBeUndefined()
  })

  it('--database-password-file without a URL is refused, naming both ways to give one', () => {
    expect(() => teamDatabase({ flagPasswordFile: passwordFile('pw\n'), env: {} })).toThrow(
      new Error('--database-password-file needs the database: --database-url URL or GATEHOUSE_DATABASE_URL'),
    )
  })

  it('a password in GATEHOUSE_DATABASE_URL: used, no warning', () => {
    const url = 'postgres://gate:hunter2@db/gatehouse'
    expect(teamDatabase({ env: { GATEHOUSE_DATABASE_URL: url } })).toEqual({ url, secrets: ['hunter2'], warning: undefined })
  })

  it.each([
    ['in the userinfo', 'postgres://gate:hunter2@db/gatehouse'],
    ['as ?password=', 'postgres://gate@db/gatehouse?password=hunter2'],
    ['as ?PASSWORD=', 'postgres://gate@db/gatehouse?PASSWORD=hunter2'],
  ])('a password %s of --database-url: used, with the warning', (_name, url) => {
    expect(teamDatabase({ flagUrl: url, env: {} })).toEqual({ url, secrets: ['hunter2'], warning: PASSWORD_ON_COMMAND_LINE })
  })

  it('the warning names where every local user sees the password and the safer ways', () => {
    expect(PASSWORD_ON_COMMAND_LINE).toBe(
      'warning: the password in --database-url is visible to every user of this machine (ps, /proc/PID/cmdline); give it in GATEHOUSE_DATABASE_URL, --database-password-file FILE or ~/.pgpass instead',
    )
  })

  it('--database-url without a password: no warning, and nothing added (node-postgres then reads PGPASSFILE or ~/.pgpass)', () => {
    expect(teamDatabase({ flagUrl: URL_ONLY, env: {} })).toEqual({ url: URL_ONLY, secrets: [], warning: undefined })
  })

  it('--database-password-file: its one line (the line end dropped) becomes the password, in memory only', () => {
    const file = passwordFile('s3cret pass:/@\n')
    const database = teamDatabase({ flagUrl: URL_ONLY, flagPasswordFile: file, env: {} })!
    expect(decodeURIComponent(new URL(database.url).password)).toBe('s3cret pass:/@')
    expect(database.secrets).toContain('s3cret pass:/@')
    expect(database.warning).toBeUndefined()
  })

  it('GATEHOUSE_DATABASE_PASSWORD_FILE works as the flag does; the flag wins; CR LF is dropped too', () => {
    const env = { GATEHOUSE_DATABASE_URL: URL_ONLY, GATEHOUSE_DATABASE_PASSWORD_FILE: passwordFile('from-env\r\n') }
    expect(decodeURIComponent(new URL(teamDatabase({ env })!.url).password)).toBe('from-env')
    expect(decodeURIComponent(new URL(teamDatabase({ flagPasswordFile: passwordFile('from-flag'), env })!.url).password)).toBe('from-flag')
  })

  it.each([
    ['UTF-8 with a byte order mark (Notepad)', Buffer.from('\ufeffs3cret\r\n', 'utf8')],
    ['UTF-16 LE with its mark (Windows PowerShell `>`)', Buffer.from('\ufeffs3cret\r\n', 'utf16le')],
  ])('a password file saved as %s: the password alone, without the mark', (_name, bytes) => {
    const password = decodeURIComponent(new URL(teamDatabase({ flagUrl: URL_ONLY, flagPasswordFile: passwordFile(bytes), env: {} })!.url).password)
    expect(password).toBe('s3cret')
  })

  it('a password in the URL and a password file too: refused, one way only', () => {
    const file = passwordFile('other\n')
    expect(() => teamDatabase({ env: { GATEHOUSE_DATABASE_URL: 'postgres://gate:hunter2@db/gatehouse', GATEHOUSE_DATABASE_PASSWORD_FILE: file } })).toThrow(
      new Error(`team mode: the database URL has a password and GATEHOUSE_DATABASE_PASSWORD_FILE ${file} gives one too; give it one way`),
    )
  })
})

describe('team database: a password file that is not one is refused, with the reason', () => {
  const refused = (file: string) => {
    try {
      teamDatabase({ flagUrl: URL_ONLY, flagPasswordFile: file, env: {} })
    } catch (err) {
      return (err as Error).message
    }
    return 'accepted'
  }

  it.each([0o644, 0o640, 0o604, 0o660, 0o700 | 0o002])('mode %o (others may read or write it), as libpq refuses ~/.pgpass', (mode) => {
    const file = passwordFile('pw\n', mode)
    expect(refused(file)).toBe(`team mode: --database-password-file ${file} is open to other users (mode ${mode.toString(8).padStart(4, '0')}); make it the owner's only: chmod 600 ${file}`)
  })

  it('0400 is accepted', () => {
    expect(refused(passwordFile('pw\n', 0o400))).toBe('accepted')
  })

  it('a missing file, a directory, a FIFO (which would block the start)', () => {
    expect(refused(join(dir, 'missing'))).toBe(`team mode: --database-password-file ${join(dir, 'missing')} cannot be read (ENOENT)`)
    expect(refused(dir)).toBe(`team mode: --database-password-file ${dir} is not a regular file`)
    const fifo = join(dir, 'fifo')
    execFileSync('mkfifo', ['-m', '600', fifo])
    expect(refused(fifo)).toBe(`team mode: --database-password-file ${fifo} is not a regular file`)
  })

  it('bytes that are not text: refused rather than read with replacement characters', () => {
    const latin1 = passwordFile(Buffer.from('caf\xe9\n', 'latin1'))
    expect(refused(latin1)).toBe(`team mode: --database-password-file ${latin1} is not text (UTF-8, or UTF-16 with a byte order mark)`)
  })

  it('empty, several lines, or longer than 1024 bytes (read no further)', () => {
    const empty = passwordFile('\n')
    expect(refused(empty)).toBe(`team mode: --database-password-file ${empty} is empty`)
    const lines = passwordFile('first\nsecond\n')
    expect(refused(lines)).toBe(`team mode: --database-password-file ${lines} has more than one line; it must hold the password alone`)
    const long = passwordFile(Buffer.alloc(4 * 1024 * 1024, 'a'))
    expect(refused(long)).toBe(`team mode: --database-password-file ${long} is longer than 1024 bytes: not a password file`)
    expect(refused(passwordFile('a'.repeat(1024)))).toBe('accepted')
  })
})
