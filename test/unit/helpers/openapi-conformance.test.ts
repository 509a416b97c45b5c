import { describe, expect, it } from 'vitest'
import { assertConforms } from '../../helpers/openapi-conformance.js'

const jsonAnswer = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } })
const chatError = { error: { message: 'm', type: 'invalid_request_error', code: 'invalid_request', param: null } }

describe('the OpenAPI conformance check of the test helpers', () => {
  it('passes a documented status whose body fits the documented schema', async () => {
    await expect(assertConforms('POST', 'http://gw/v1/chat/completions', jsonAnswer(400, chatError))).resolves.toBeUndefined()
    await expect(assertConforms('GET', 'http://gw/v1/models/some-model', jsonAnswer(200, { id: 'some-model', object: 'model', created: 1, owned_by: 'x' }))).resolves.toBeUndefined()
  })
  it('refuses a status the operation does not document', async () => {
    await expect(assertConforms('GET', 'http://gw/v1/models', jsonAnswer(418, chatError))).rejects.toThrow('undocumented status: GET /v1/models → 418')
  })
  it('refuses a body that does not fit, resolving the error envelope of the protocol', async () => {
    await expect(assertConforms('POST', 'http://gw/v1/chat/completions', jsonAnswer(400, { message: 'flat' }))).rejects.toThrow("data must have required property 'error'")
    await expect(assertConforms('POST', 'http://gw/api/v1/services/aigc/video-generation/video-synthesis', jsonAnswer(400, chatError))).rejects.toThrow("data must have required property 'request_id'")
  })
  it('leaves paths the document does not have to the router', async () => {
    await expect(assertConforms('GET', 'http://gw/nowhere', jsonAnswer(404, chatError))).resolves.toBeUndefined()
  })
})
