import { describe, expect, it } from 'vitest'
import { createRedactor, REDACT_SCAN_LIMIT, redactPatterns } from '../../../electron/gateway/secrets/redact.js'

const UPSTREAM = 'upstream-secret-0123456789'
const KLING = 'AKkling0123456789:SKkling9876543210abcdef'

describe('redactor: known secrets', () => {
  const redactor = createRedactor()
  redactor.setSecrets([UPSTREAM, KLING, 'short'])

  it.each([
    ['raw', `bad key ${UPSTREAM} given`, 'bad key [redacted] given'],
    ['JSON-escaped inside JSON text', JSON.stringify({ m: `"${UPSTREAM}"` }), '{"m":"\\"[redacted]\\""}'],
    ['inside a URL', `https://x.test/v1?k=${encodeURIComponent(KLING)}&a=1`, 'https://x.test/v1?k=[redacted]&a=1'],
    ['a composite key whole', `key ${KLING}.`, 'key [redacted].'],
    ['the parts of a composite key', 'ak AKkling0123456789 then sk SKkling9876543210abcdef', 'ak [redacted] then sk [redacted]'],
    ['base64 (Basic-style)', `got ${Buffer.from(UPSTREAM).toString('base64')} here`, 'got [redacted] here'],
  ])('removes %s', (_name, text, expected) => {
    expect(redactor.redact(text)).toBe(expected)
  })

  it('leaves secrets too short to search for, and ordinary words, alone', () => {
    expect(redactor.redact('a short answer')).toBe('a short answer')
  })

  it('forgets secrets that were replaced (an account removed), and two redactors keep their own', () => {
    const other = createRedactor()
    other.setSecrets(['another-secret-0000'])
    expect(other.redact(`x ${UPSTREAM}`)).toBe(`x ${UPSTREAM}`)
    expect(redactor.redact('x another-secret-0000')).toBe('x another-secret-0000')
    other.setSecrets([])
    expect(other.redact('x another-secret-0000')).toBe('x another-secret-0000')
  })
})

describe('redactor: disguised spellings of known secrets', () => {
  const redactor = createRedactor()
  redactor.setSecrets([UPSTREAM, KLING])
  const between = (secret: string, separator: string) => [...secret].join(separator)
  const hex = (secret: string) => Buffer.from(secret).toString('hex')
  const reversed = (secret: string) => [...secret].reverse().join('')

  it.each([
    ['upper-cased', UPSTREAM.toUpperCase()],
    ['in mixed case', 'UpStReAm-SeCrEt-0123456789'],
    ['as lower-case hex', hex(UPSTREAM)],
    ['as upper-case hex', hex(UPSTREAM).toUpperCase()],
    ['as hex with spaces between the bytes', hex(UPSTREAM).match(/../g)!.join(' ')],
    ['with a space between every character', between(UPSTREAM, ' ')],
    ['with a dash between every character', between(UPSTREAM, '-')],
    ['with an underscore between every character', between(UPSTREAM, '_')],
    ['with a dot between every character', between(UPSTREAM, '.')],
    ['with a line end between every character', between(UPSTREAM, '\n')],
    ['with CR LF and tabs between characters', between(UPSTREAM, '\r\n\t')],
    ['with a zero-width space between every character', between(UPSTREAM, '\u200b')],
    ['with zero-width joiners, word joiners and soft hyphens', between(UPSTREAM, '\u200d\u2060\u00ad')],
    ['upper-cased with its dashes turned into spaces', UPSTREAM.toUpperCase().replaceAll('-', ' ')],
    ['upper-cased, broken with dots and zero-width spaces', between(UPSTREAM.toUpperCase(), '.\u200b')],
    ['reversed', reversed(UPSTREAM)],
    ['reversed and upper-cased', reversed(UPSTREAM).toUpperCase()],
    ['a composite key, reversed', reversed(KLING)],
    ['a part of a composite key, spaced out', between('SKkling9876543210abcdef', ' ')],
    ['a part of a composite key as hex', hex('AKkling0123456789')],
  ])('removes a secret %s, keeping the text around it', (_name, disguised) => {
    expect(redactor.redact(`the key was: ${disguised}. Try again`)).toBe('the key was: [redacted]. Try again')
  })

  it('removes every disguised copy in one text, and the plain one beside them', () => {
    const text = `a ${UPSTREAM} b ${between(UPSTREAM, ' ')} c ${reversed(UPSTREAM)} d ${hex(UPSTREAM).toUpperCase()} e`
    expect(redactor.redact(text)).toBe('a [redacted] b [redacted] c [redacted] d [redacted] e')
  })

  it('leaves ordinary text around a disguised secret alone', () => {
    const prose = [
      'The model gpt-6.1-sol does not exist or you do not have access to it.',
      'Upstream secret rotation is done: the new key works; 0123 456 789 are the numbers.',
      'Rate limit reached for requests per min (RPM): Limit 500, Used 500, Requested 1.',
      'Please try again in 20s. Visit https://platform.example.com/account/rate-limits to learn more.',
      'deadbeef cafebabe 0123456789abcdef are hex words, and so is 7570737472.',
      'a-b-c-d e_f_g_h i.j.k.l\nm\u200bn — separators everywhere, and nothing secret',
      '输入内容不合规，请修改后重试 (content policy violation)',
      'Internal server error; request id req_0123456789abcdef0123',
    ].join('\n')
    expect(redactor.redact(`${prose}\n${between(UPSTREAM, ' ')}\n${prose}`)).toBe(`${prose}\n[redacted]\n${prose}`)
  })

  it('forgets disguised spellings of a secret that was replaced', () => {
    const other = createRedactor()
    other.setSecrets([UPSTREAM])
    other.setSecrets(['another-secret-0000'])
    expect(other.redact(UPSTREAM.toUpperCase())).toBe(UPSTREAM.toUpperCase())
    expect(other.redact(reversed('another-secret-0000'))).toBe('[redacted]')
  })
})

describe('redactor: shapes of secrets', () => {
  it.each([
    ['Authorization: Bearer abcdefgh12345678', 'Authorization: Bearer [redacted]'],
    ['{"authorization":"Bearer tok_9f8e7d6c5b4a"}', '{"authorization":"Bearer [redacted]"}'],
    ['{\\"Authorization\\":\\"Bearer tok_9f8e7d6c5b4a\\"}', '{\\"Authorization\\":\\"Bearer [redacted]\\"}'],
    ['x-api-key: abc123def456', 'x-api-key: [redacted]'],
    ["{'api_key': 'abc123def456'}", "{'api_key': '[redacted]'}"],
    ['apiKey=abc123def456&x=1', 'apiKey=[redacted]&x=1'],
    ['GET /v1/files?access_token=0123456789abcdef0123', 'GET /v1/files?access_token=[redacted]'],
    ['url ?key=AAAAbbbbCCCCdddd1234== done', 'url ?key=[redacted] done'],
    ['Bearer%20abcdefgh12345678', 'Bearer%20[redacted]'],
    ['Incorrect API key: sk-proj-AbCdEf0123456789', 'Incorrect API key: [redacted]'],
    ['key "sk-ant-api03-AbCdEf0123456789_xyz"', 'key "[redacted]"'],
    ['%22sk-gh-0123456789abcdef%22', '%22[redacted]%22'],
    ['xai-AbCdEf0123456789 refused', '[redacted] refused'],
    ['google AIzaSyA1234567890abcdefghijklmno!', 'google [redacted]!'],
    ['jwt eyJhbGciOiJIUzI1NiJ9.eyJpc3MiOiJBSyJ9.c2lnbmF0dXJl end', 'jwt [redacted] end'],
  ])('%s', (text, expected) => {
    expect(redactPatterns(text)).toBe(expected)
  })

  it.each([
    'The model gpt-6.1-sol does not exist',
    'Missing Bearer token',
    'Bearer authentication is required',
    'Invalid authorization header',
    'this key is masked: sk-gh-…wxyz',
    'task_01234567890abcdef failed: risk-assessment-0123456789 flagged',
    'Rate limit reached for requests; try again in 2s',
    'invalid_request: messages[0].content must be a string',
    '输入内容不合规 (content policy)',
  ])('leaves ordinary text alone: %s', (text) => {
    expect(redactPatterns(text)).toBe(text)
  })
})

describe('redactor: bounded and linear', () => {
  it('scans at most the first 64 KB, dropping a token the cut went through', () => {
    const text = `${'a '.repeat(REDACT_SCAN_LIMIT / 2 - 4)}sk-cut0123456789 and the rest`
    const out = redactPatterns(text)
    expect(out.endsWith('a … [truncated]')).toBe(true)
    expect(out).not.toContain('sk-cut')
  })

  // Each would take minutes with a backtracking pattern (and time out); they are exact answers here.
  const redactor = createRedactor()
  redactor.setSecrets([UPSTREAM])

  it('a run of prefixes is one token', () => {
    expect(redactor.redact('sk-'.repeat(20_000))).toBe('[redacted]')
  })

  it.each([
    ['named fields with long blanks', `api_key=${' '.repeat(60_000)}!`],
    ['bearer chains', 'Bearer '.repeat(9_000)],
    ['JWT-like dots', 'eyJ.'.repeat(16_000)],
  ])('adversarial text without a secret (%s) comes back unchanged', (_name, text) => {
    expect(redactor.redact(text)).toBe(text)
  })

  it('the folded search reads no further than the scan limit, however long the text', () => {
    const spaced = [...UPSTREAM].join(' ')
    // About 6.5 million characters: what is past the limit is dropped, not folded.
    const text = `${spaced} ${'y'.repeat(REDACT_SCAN_LIMIT)} ${spaced}`.repeat(100)
    expect(redactor.redact(text)).toBe('[redacted] … [truncated]')
  })

  // Text made to keep the folded search matching almost a whole secret at every position, then one real disguised copy.
  it.each([
    ['separators only', ' -_.\u200b\n'.repeat(10_000)],
    ['near-misses of a spaced secret', `${[...UPSTREAM.slice(0, -1)].join(' ')} `.repeat(1_300)],
    ['near-misses of a reversed secret, upper-cased', `${[...UPSTREAM].reverse().join('').slice(0, -1).toUpperCase()}!`.repeat(2_500)],
    ['hex runs one byte short', `${Buffer.from(UPSTREAM).toString('hex').slice(0, -2)}/`.repeat(1_200)],
  ])('adversarial text for the folded search (%s) is kept, the secret after it removed', (_name, text) => {
    const disguised = [...UPSTREAM.toUpperCase()].join('\u200b')
    expect(text.length + disguised.length + 3).toBeLessThanOrEqual(REDACT_SCAN_LIMIT)
    expect(redactor.redact(`${text}|${disguised}|`)).toBe(`${text}|[redacted]|`)
  })

  it('chained key= values are all removed', () => {
    expect(redactor.redact('key=0123456789abcdef'.repeat(3_000))).not.toContain('key=0123456789abcdef')
  })
})
