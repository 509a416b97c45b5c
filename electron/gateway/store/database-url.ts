import { REDACTED } from '../secrets/redact.js'

/**
 * The secrets a PostgreSQL URL may carry, and the URL as it may be printed. libpq and node-postgres read a password
 * from the userinfo (`postgres://USER:PASS@…`) and from the query (`?password=…`, which wins); `sslpassword` opens
 * the client's key. Parameter names are matched in any letter case, so no spelling of them is ever printed.
 */
const SECRET_PARAMS = new Set(['password', 'sslpassword'])

const isSecretParam = (name: string): boolean => SECRET_PARAMS.has(name.toLowerCase())

/** The URL with every password replaced, for messages: `postgres://gate:***@db:5432/gatehouse?password=***`. */
export function redactDatabaseUrl(url: string): string {
  let parsed: URL
  try {
    parsed = new URL(url)
  } catch {
    return 'the database URL (unparsable)'
  }
  if (parsed.password !== '') parsed.password = '***'
  const params = [...parsed.searchParams]
  if (params.some(([name]) => isSecretParam(name))) {
    parsed.search = new URLSearchParams(params.map(([name, value]) => [name, isSecretParam(name) ? '***' : value])).toString()
  }
  return parsed.toString()
}

/**
 * Every secret of the URL, as it is written there and decoded (a driver's message may quote either), longest first;
 * none for an unparsable URL (no driver connects with one).
 */
export function databaseUrlSecrets(url: string): string[] {
  let parsed: URL
  try {
    parsed = new URL(url)
  } catch {
    return []
  }
  const found = [parsed.password, decoded(parsed.password)]
  for (const pair of parsed.search.slice(1).split('&')) {
    const eq = pair.indexOf('=')
    if (eq > 0 && isSecretParam(decoded(pair.slice(0, eq)))) found.push(pair.slice(eq + 1), decoded(pair.slice(eq + 1).replaceAll('+', ' ')))
  }
  return [...new Set(found.filter((s) => s !== ''))].sort((a, b) => b.length - a.length)
}

/** `text` with each of `secrets` (longest first, as `databaseUrlSecrets` answers them) replaced by `[redacted]`. */
export function withoutSecrets(text: string, secrets: readonly string[]): string {
  return secrets.reduce((out, secret) => out.replaceAll(secret, REDACTED), text)
}

/** The URL with `password` as its userinfo password (a password file's, kept in memory only). */
export function withPassword(url: string, password: string): string {
  const parsed = new URL(url)
  parsed.password = encodeURIComponent(password)
  return parsed.toString()
}

function decoded(text: string): string {
  try {
    return decodeURIComponent(text)
  } catch {
    return text
  }
}
