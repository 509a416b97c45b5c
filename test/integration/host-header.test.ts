// The Host header over real HTTP, sent as raw bytes (HTTP clients normalise Host): one header of the form
// `uri-host [":" port]` (RFC 9112 §3.2), or 400 invalid_host_header in the protocol's shape, before any key is read.
import { describe, expect, it } from 'vitest'
import { fakeOpenAIChat, TEST_KEY, withGateway } from '../helpers/gateway.js'
import { assertConforms } from '../helpers/openapi-conformance.js'
import { rawRequest, type RawAnswer } from '../helpers/raw-http.js'

const MESSAGES_KEY = 'sk-messages-0123456789'

const { gw, fakes: { openai: fake } } = withGateway(fakeOpenAIChat())

/** A request whose header lines are sent as given (`hostLines` may hold no Host, one, or several). */
async function send(method: string, path: string, hostLines: string[], extra: string[] = [], body = ''): Promise<RawAnswer> {
  const lines = [`${method} ${path} HTTP/1.1`, ...hostLines, ...extra, `content-length: ${Buffer.byteLength(body)}`, 'connection: close']
  const answer = await rawRequest(gw.url, `${lines.join('\r\n')}\r\n\r\n`, Buffer.from(body))
  if (!answer) throw new Error('no answer')
  return answer
}

const chatError = (message: string) => ({ error: { message, type: 'invalid_request_error', param: null, code: 'invalid_host_header' } })
const malformed = (host: string) => `The Host header "${host}" is not a host name, an IPv4 address or an IPv6 address in brackets, optionally followed by ":" and a port.`
const chatBody = JSON.stringify({ model: 'test-gpt', messages: [{ role: 'user', content: 'hi' }] })

describe('a Host header that is not `uri-host [":" port]`, missing or repeated: 400 invalid_host_header', () => {
  it.each([
    ['userinfo before the port', ['Host: localhost:80@evil.example'], malformed('localhost:80@evil.example')],
    ['an unclosed IPv6 literal', ['Host: [::1'], malformed('[::1')],
    ['an IPv6 address without brackets', ['Host: ::1'], malformed('::1')],
    ['a port over 65535', ['Host: 127.0.0.1:99999'], 'The Host header "127.0.0.1:99999" names port 99999, outside 0 to 65535.'],
    ['a second port', ['Host: localhost:8787:1'], malformed('localhost:8787:1')],
    ['two Host headers', ['Host: localhost', 'Host: evil.example'], 'The request has 2 Host headers; send exactly one.'],
    ['no Host header', [], 'The request has no Host header; send exactly one, such as "Host: localhost".'],
  ])('%s: the chat shape, and nothing reaches the upstream', async (_, hostLines, message) => {
    fake.reset()
    const res = await send('POST', '/v1/chat/completions', hostLines, [`authorization: Bearer ${TEST_KEY}`, 'content-type: application/json'], chatBody)
    expect(res.status).toBe(400)
    expect(res.headers.get('x-request-id')).toMatch(/^req_/)
    expect(JSON.parse(res.text)).toEqual(chatError(message))
    expect(fake.calls).toHaveLength(0)
  })

  it('/v1/messages: the messages shape', async () => {
    const res = await send('POST', '/v1/messages', ['Host: [::1'], [`x-api-key: ${MESSAGES_KEY}`, 'content-type: application/json'], '{}')
    expect(res.status).toBe(400)
    expect(JSON.parse(res.text)).toEqual({ type: 'error', error: { type: 'invalid_request_error', message: malformed('[::1') } })
  })

  it('in Chinese for Accept-Language zh', async () => {
    const res = await send('GET', '/v1/models', ['Host: 127.0.0.1:99999'], [`authorization: Bearer ${TEST_KEY}`, 'accept-language: zh-CN'])
    expect(res.status).toBe(400)
    expect(JSON.parse(res.text)).toEqual(chatError('Host 请求头 "127.0.0.1:99999" 中的端口 99999 超出 0 到 65535 的范围。'))
  })

  it('every operation documents it in /openapi.json, those that need no key too', async () => {
    for (const path of ['/openapi.json', '/api/v1/models/pricing', '/v1/models', '/admin/v1/groups']) {
      const res = await send('GET', path, ['Host: [::1'])
      expect(res.status, path).toBe(400)
      await assertConforms('GET', `${gw.url}${path}`, new Response(res.text, { status: res.status, headers: res.headers }))
    }
  })

  it('before the key is read: an admin path without credentials gets the same 400', async () => {
    const res = await send('GET', '/admin/v1/groups', ['Host: localhost', 'Host: localhost'])
    expect(res.status).toBe(400)
    expect(JSON.parse(res.text)).toEqual(chatError('The request has 2 Host headers; send exactly one.'))
  })
})

describe('well-formed Host headers', () => {
  it('are served, and a browser Origin is compared with the normalised Host (lower case, no leading zeros, no port 80)', async () => {
    for (const [host, origin] of [
      ['127.0.0.1:8787', 'http://127.0.0.1:8787'],
      ['localhost', 'http://localhost'],
      ['LOCALHOST:00080', 'http://localhost'],
      ['[0:0::1]:8787', 'http://[::1]:8787'],
      [`LocalHost:0${gw.port}`, `http://localhost:${gw.port}`],
    ]) {
      const res = await send('GET', '/v1/models', [`Host: ${host}`], [`authorization: Bearer ${TEST_KEY}`, `origin: ${origin}`])
      expect(res.status, `${host} from ${origin}`).toBe(200)
    }
    const other = await send('GET', '/v1/models', [`Host: localhost:${gw.port}`], [`authorization: Bearer ${TEST_KEY}`, `origin: http://localhost:${gw.port + 1}`])
    expect(other.status).toBe(403)
    expect(JSON.parse(other.text)).toEqual({
      error: { message: `Requests from browser origin "http://localhost:${gw.port + 1}" are not allowed`, type: 'permission_error', param: null, code: 'origin_not_allowed' },
    })
  })
})
