/**
 * Removes secrets from text that leaves the gateway (error answers, stream error events, stored task errors, the
 * ledger, log lines): every upstream secret the gateway holds, in the spellings an upstream may quote it in (also
 * disguised: in other letter case, as hex, reversed, or with separators between its characters), and anything shaped
 * like a bearer token or an API key. Linear in the text: the known secrets are one alternation of literals over the
 * text and one over its folded copy, and every pattern starts at a literal or at the start of a run of token
 * characters, so no character is scanned more than a few times.
 */

export const REDACTED = '[redacted]'

/** Error texts are short; past this, the rest is dropped rather than scanned. */
export const REDACT_SCAN_LIMIT = 64 * 1024

/** Known secrets shorter than this are not searched for: they would match ordinary words; no pattern matches fewer either. */
export const MIN_SECRET_LENGTH = 8

export interface Redactor {
  redact(text: string): string
  /** Replaces the set of known secrets (the upstream accounts' keys, after every registry reload). */
  setSecrets(secrets: Iterable<string>): void
}

/** A redactor of its own per gateway: two gateways in one process never share their secrets. */
export function createRedactor(): Redactor {
  let known: RegExp | undefined
  let disguised: RegExp | undefined
  return {
    redact(text) {
      let out = bound(text)
      if (known) out = out.replace(known, REDACTED)
      if (disguised) out = redactFolded(out, disguised)
      return redactPatterns(out)
    },
    setSecrets(secrets) {
      const held = [...secrets]
      known = literalsPattern(new Set(held.flatMap(spellings)))
      disguised = literalsPattern(new Set(held.flatMap(foldedSpellings)))
    },
  }
}

/** A secret and the parts of a composite one (Kling's `ACCESS_KEY:SECRET_KEY`), each as raw, JSON-escaped, URL-encoded and base64 text. */
export function spellings(secret: string): string[] {
  const parts = [secret, ...secret.split(/[:|]/)].filter((p) => p.length >= MIN_SECRET_LENGTH)
  return parts.flatMap((p) => {
    const json = JSON.stringify(p).slice(1, -1)
    return [p, json, json.replaceAll('/', '\\/'), encodeURIComponent(p), Buffer.from(p).toString('base64'), Buffer.from(p).toString('base64url')]
  })
}

/**
 * What may stand between the characters of a disguised secret: whitespace and line ends, dashes, underscores, dots,
 * and the invisible ones (zero-width spaces and joiners, the word joiner, the soft hyphen, the byte-order mark).
 */
const SEPARATOR = /[\s\-_.\u00ad\u180e\u200b-\u200d\u2010-\u2015\u2060\ufeff]/

/** ASCII letters lower-cased: one UTF-16 unit stays one, so positions in the folded copy map back one to one. */
const foldCase = (c: string): string => (c >= 'A' && c <= 'Z' ? String.fromCharCode(c.charCodeAt(0) + 32) : c)

/** SEPARATOR for the ASCII characters, by code: most text is read from this table rather than by the pattern. */
const ASCII_SEPARATOR = Uint8Array.from({ length: 128 }, (_, code) => (SEPARATOR.test(String.fromCharCode(code)) ? 1 : 0))

const isSeparator = (text: string, i: number): boolean => {
  const code = text.charCodeAt(i)
  return code < 128 ? ASCII_SEPARATOR[code] === 1 : SEPARATOR.test(text[i])
}

/** The text without separators and lower-cased, and for each of its characters where it stands in `text`. */
function fold(text: string): { text: string; from: Int32Array } {
  const chars: string[] = []
  const from = new Int32Array(text.length)
  for (let i = 0; i < text.length; i++) {
    if (isSeparator(text, i)) continue
    from[chars.length] = i
    chars.push(foldCase(text[i]))
  }
  return { text: chars.join(''), from: from.subarray(0, chars.length) }
}

/**
 * A secret (and the parts of a composite one) as it is searched for in folded text: itself, reversed, and as hex;
 * folding makes the search blind to letter case (upper-case hex too) and to separators put between characters.
 */
function foldedSpellings(secret: string): string[] {
  const parts = [secret, ...secret.split(/[:|]/)].filter((p) => p.length >= MIN_SECRET_LENGTH)
  return parts
    .flatMap((p) => [p, [...p].reverse().join(''), Buffer.from(p).toString('hex')])
    .map((s) => fold(s).text)
    .filter((s) => s.length >= MIN_SECRET_LENGTH)
}

/** Each match of `pattern` in the folded copy of `text` replaced, in `text`, from its first character to its last. */
function redactFolded(text: string, pattern: RegExp): string {
  const folded = fold(text)
  let out = ''
  let kept = 0
  for (const match of folded.text.matchAll(pattern)) {
    const start = folded.from[match.index]
    out += `${text.slice(kept, start)}${REDACTED}`
    kept = folded.from[match.index + match[0].length - 1] + 1
  }
  return kept === 0 ? text : out + text.slice(kept)
}

function literalsPattern(literals: Set<string>): RegExp | undefined {
  if (literals.size === 0) return undefined
  // Longest first, so that a secret wins over its own parts.
  const sorted = [...literals].sort((a, b) => b.length - a.length)
  return new RegExp(sorted.map((s) => s.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&')).join('|'), 'g')
}

/** Only the first REDACT_SCAN_LIMIT characters, without the token the cut went through (it may be part of a secret). */
function bound(text: string): string {
  if (text.length <= REDACT_SCAN_LIMIT) return text
  let end = REDACT_SCAN_LIMIT
  while (end > 0 && TOKEN_CHAR.test(text[end - 1])) end--
  return `${text.slice(0, end)}… [truncated]`
}

const TOKEN_CHAR = /[A-Za-z0-9._~+/=%-]/

/** A value worth hiding: long enough, and with a digit (or long enough that it is no word). Keeps `Bearer authentication` readable. */
const looksSecret = (value: string): boolean => value.length >= MIN_SECRET_LENGTH && (value.length >= 24 || /\d/.test(value))

/** Where a token may start: not inside a run of token characters (or right after a URL escape such as `%22`). */
const START = '(?<=^|[^A-Za-z0-9_-]|%[0-9A-Fa-f]{2})'

/** Shapes of secrets the gateway does not hold itself; the value is group `v`, what precedes it is kept. */
const PATTERNS: RegExp[] = [
  // `Authorization: Bearer x`, `"api_key":"x"`, `x-api-key\":\"x`, `apiKey=x`
  /(?<name>\b(?:authorization|api[-_]?key|access[-_]?token|secret[-_]?key)(?:\\?["'])?\s*[:=]\s*(?:\\?["']\s*)?(?:(?:bearer|basic|token)(?:\s+|%20|\+))?)(?<v>[^\s"'\\,;&<>(){}[\]]+)/gi,
  /(?<name>\b(?:bearer|basic)(?:\s+|%20|\+))(?<v>[A-Za-z0-9._~+/=-]+)/gi,
  // `?key=…`, `&access_token=…`: long hex or base64 values
  /(?<name>(?:key|token|secret|signature|sig)=)(?<v>[A-Za-z0-9+/_.~%-]{16,}={0,2})/gi,
  new RegExp(`${START}(?<v>(?:sk|xai)-[A-Za-z0-9_-]+)`, 'g'),
  new RegExp(`${START}(?<v>AIza[A-Za-z0-9_-]{20,})`, 'g'),
  new RegExp(`${START}(?<v>eyJ[A-Za-z0-9_-]+\\.[A-Za-z0-9_-]+\\.[A-Za-z0-9_-]*)`, 'g'),
]

/** The pattern half of the redactor, for text seen before any secret is known (the command line's start-up errors). */
export function redactPatterns(text: string): string {
  let out = bound(text)
  for (const pattern of PATTERNS) {
    out = out.replace(pattern, (match: string, ...args: unknown[]) => {
      const groups = args.at(-1) as { name?: string; v: string }
      return looksSecret(groups.v) ? `${groups.name ?? ''}${REDACTED}` : match
    })
  }
  return out
}
