// A field of the wrong type is a 400 naming it, before any upstream call, also for fields that only some model
// families read (found by the fuzz suite in test/fuzz/).
import { describe, expect, it } from 'vitest'
import { startFakeOpenAIImages } from '../fakes/images/openai-images.js'
import { startFakeOpenAI } from '../fakes/openai.js'
import { chatConfig, withGateway } from '../helpers/gateway.js'
import { rawRequest } from '../helpers/raw-http.js'
import { until } from '../helpers/until.js'

const { gw, fakes: { chat, images } } = withGateway({
  fakes: { chat: startFakeOpenAI, images: startFakeOpenAIImages },
  config({ chat, images }) {
    const config = chatConfig([{ id: 'chat', baseUrl: chat.url }])
    config.upstreams = [
      { ...config.upstreams![0], models: ['test-gpt'] },
      { id: 'images', vendor: 'openai', baseUrl: images.url, apiKey: 'upstream-secret-images', models: ['test-image'] },
    ]
    config.groups![0].upstreams = ['chat', 'images']
    return config
  },
})

const invalid = (message: string, param: string) => ({ error: { message, type: 'invalid_request_error', param, code: 'invalid_request' } })

describe('POST /v1/chat/completions: fields read when a request is translated', () => {
  const messages = [{ role: 'user', content: 'hi' }]
  it.each([
    ['n', '2', 'n: must be of type integer or null'],
    ['seed', 1.5, 'seed: must be of type integer or null'],
    ['presence_penalty', '0.5', 'presence_penalty: must be of type number or null'],
    ['frequency_penalty', true, 'frequency_penalty: must be of type number or null'],
    ['stop', 7, 'stop: must be of type string or array or null'],
    ['response_format', 'json_object', 'response_format: must be of type object or null'],
    ['google', 'thinking', 'google: must be of type object or null'],
    ['extra_body', [], 'extra_body: must be of type object or null'],
  ])('%s: %j is a 400 naming it, not sent upstream', async (field, value, message) => {
    const before = chat.calls.length
    const res = await gw.post('/v1/chat/completions', { model: 'test-gpt', messages, [field]: value })
    expect(res.status).toBe(400)
    expect(await res.json()).toEqual(invalid(message, field))
    expect(chat.calls.length).toBe(before)
  })

  it('still relays those fields with the right types', async () => {
    const res = await gw.post('/v1/chat/completions', { model: 'test-gpt', messages, n: 1, seed: 7, stop: ['END'], response_format: { type: 'text' } })
    expect(res.status).toBe(200)
    expect(chat.calls.at(-1)!.body).toMatchObject({ n: 1, seed: 7, stop: ['END'], response_format: { type: 'text' } })
  })
})

describe('POST /v1/images/*: declared fields a family does not read are still typed', () => {
  it.each([
    ['/v1/images/generations', 'aspect_ratio', true, 'aspect_ratio: must be of type string or null'],
    ['/v1/images/generations', 'images', 1.5, 'images: must be of type string or array or null'],
    ['/v1/images/generations', 'image', {}, 'image: must be of type string or array or null'],
    ['/v1/images/edits', 'image_size', 1.5, 'image_size: must be of type string or null'],
    ['/v1/images/edits', 'images', [7], 'images[0]: must be string'],
  ])('%s %s: %j is a 400 naming it, not sent upstream', async (path, field, value, message) => {
    const before = images.calls.length
    const image = path.endsWith('edits') ? { image: 'data:image/png;base64,iVBORw0KGgo=' } : {}
    const res = await gw.post(path, { model: 'test-image', prompt: 'a cat', ...image, [field]: value })
    expect(res.status).toBe(400)
    expect(await res.json()).toEqual(invalid(message, field === 'images' && Array.isArray(value) ? 'images[0]' : field))
    expect(images.calls.length).toBe(before)
  })
})

describe('HTTP the parser refuses', () => {
  it.each([
    ['a header without a colon', 'POST /v1/chat/completions HTTP/1.1\r\nhost: 127.0.0.1\r\nnot a header\r\n\r\n', 'HPE_INVALID_HEADER_TOKEN'],
    ['a Content-Length that is not a number', 'POST /v1/chat/completions HTTP/1.1\r\nhost: 127.0.0.1\r\ncontent-length: 2x\r\n\r\n{}', 'HPE_INVALID_CONTENT_LENGTH'],
  ])('%s: 400 with a request id and the error envelope', async (_case, head, detail) => {
    const answer = await rawRequest(gw.url, head, Buffer.alloc(0))
    expect(answer!.status).toBe(400)
    expect(answer!.headers.get('x-request-id')).toMatch(/^req_[0-9a-f]{32}$/)
    expect(JSON.parse(answer!.text)).toEqual({ error: { message: `The HTTP request is malformed (${detail})`, type: 'invalid_request_error', param: null, code: 'invalid_request' } })
  })
})

describe('requests cut short or badly encoded', () => {
  it('a client that leaves in the middle of its body gives its concurrency slot back', async () => {
    const body = JSON.stringify({ model: 'test-gpt', messages: [{ role: 'user', content: 'hi' }] })
    const port = new URL(gw.url).port
    const head = `POST /v1/chat/completions HTTP/1.1\r\nhost: 127.0.0.1:${port}\r\nauthorization: Bearer sk-test-0123456789abcdef\r\ncontent-length: ${body.length + 10}\r\n\r\n`
    // Six leavers, one more than the account's five slots: each must have given its slot back.
    for (let i = 0; i < 6; i++) expect(await rawRequest(gw.url, head, Buffer.from(body), 100)).toBeUndefined()
    await until('the slots given back', 5_000, () => gw.services.limiter.inFlight() === 0).catch(() => {})
    expect(gw.services.limiter.inFlight()).toBe(0)
    expect((await gw.post('/v1/chat/completions', JSON.parse(body))).status).toBe(200)
  })

  it.each([
    ['field', 'content-disposition: form-data; name=""\r\n\r\nx'],
    ['file', 'content-disposition: form-data; filename="a.png"\r\ncontent-type: image/png\r\n\r\nxx'],
  ])('a multipart %s without a name is a 400, not a request that never ends', async (_kind, part) => {
    const field = (name: string, value: string) => `--BB\r\ncontent-disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`
    const body = `${field('model', 'test-image')}${field('prompt', 'a cat')}--BB\r\n${part}\r\n--BB--\r\n`
    const res = await fetch(`${gw.url}/v1/images/edits`, {
      method: 'POST',
      headers: { authorization: 'Bearer sk-test-0123456789abcdef', 'content-type': 'multipart/form-data; boundary=BB' },
      body,
      signal: AbortSignal.timeout(5_000),
    })
    expect(res.status).toBe(400)
    expect(await res.json()).toEqual({ error: { message: 'The multipart/form-data body cannot be read: a part has no name', type: 'invalid_request_error', param: null, code: 'invalid_request' } })
    expect(gw.services.limiter.inFlight()).toBe(0)
  })

  it('a model id that is not valid percent-encoding is a 404, not an internal error', async () => {
    const res = await gw.get('/v1/models/%E0%A4%A')
    expect(res.status).toBe(404)
    expect(await res.json()).toEqual({ error: { message: 'The model `%E0%A4%A` does not exist or you do not have access to it.', type: 'not_found_error', param: null, code: 'model_not_found' } })
  })
})
