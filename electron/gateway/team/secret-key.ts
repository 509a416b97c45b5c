import { readFileStart } from '../data-dir/file-start.js'
import { NOT_TEXT, textOfFile } from '../config/text-file.js'
import { aesSecretBox, type SecretBox } from '../secrets/secrets.js'
import type { Repos } from '../store/index.js'

/** A key file holds 44 base64 characters and a line end; reading stops after this many bytes (a wrong path may be a device or a large file). */
const KEY_FILE_MAX_BYTES = 256

/** The start of the file, at most KEY_FILE_MAX_BYTES + 1 bytes: one too many says it is no key file. */
const readKeyFile = (path: string): Buffer => readFileStart(path, KEY_FILE_MAX_BYTES)

/** The environment variable that carries team mode's secret key (base64 of 32 bytes). */
export const SECRET_KEY_ENV = 'GATEHOUSE_SECRET_KEY'

/** Why a replica does not start: a one-line message meant for the operator. */
export class TeamStartError extends Error {}

/**
 * Team mode's SecretBox: every replica seals and opens upstream secrets with the same key, given as a file
 * (`--secret-key-file`, which wins) or in GATEHOUSE_SECRET_KEY, base64 of 32 random bytes (`openssl rand -base64 32`).
 */
export function teamSecretBox(source: { file?: string; env?: string }): SecretBox {
  let text: string | undefined
  let where: string
  if (source.file !== undefined) {
    where = `--secret-key-file ${source.file}`
    try {
      text = textOfFile(readKeyFile(source.file))
    } catch (err) {
      throw new TeamStartError(`team mode: ${where} cannot be read (${(err as NodeJS.ErrnoException).code ?? 'error'})`)
    }
    if (text === undefined) throw new TeamStartError(`team mode: ${where} ${NOT_TEXT}`)
  } else if (source.env !== undefined && source.env.trim() !== '') {
    where = SECRET_KEY_ENV
    text = source.env
  } else {
    throw new TeamStartError(
      `team mode needs the secret key every replica shares: set ${SECRET_KEY_ENV} (base64 of 32 bytes, e.g. from \`openssl rand -base64 32\`) or pass --secret-key-file FILE`,
    )
  }
  const key = Buffer.from(text.trim(), 'base64')
  if (key.length !== 32 || key.toString('base64') !== text.trim()) throw new TeamStartError(`team mode: ${where} is not base64 of 32 bytes`)
  return aesSecretBox(key)
}

const CHECK_NAME = 'secret_key_check'
const CHECK_TEXT = 'gatehouse secret key check'

/**
 * The database keeps a value sealed with the key of the replica that started first; a replica whose key cannot
 * open it refuses to start, before it could seal anything the others cannot read.
 */
export async function checkSecretKey(store: Repos, secrets: SecretBox): Promise<void> {
  const sealed = await store.meta.ensure(CHECK_NAME, () => secrets.encrypt(CHECK_TEXT))
  let opened: string | undefined
  try {
    opened = secrets.decrypt(sealed)
  } catch {
    // a wrong key fails GCM's authentication
  }
  if (opened !== CHECK_TEXT) throw new TeamStartError("team mode: this replica's secret key is not the one the database was sealed with")
}
