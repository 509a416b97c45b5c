// Each vendor's usage billed its own way, end to end (docs/vendor-usage.md): real recorded answers served by a
// local stand-in for the vendor, the ledger row's cost, usage source and priced breakdown, and the request log.
// Runs on SQLite (node) and on PostgreSQL (node-pg).
import http from 'node:http'
import { describe, expect, it } from 'vitest'
import type { RequestLogEntry } from '../../shared/admin.js'
import { listenLocal } from '../fakes/listen-local.js'
import { TEST_KEY, withGateway } from '../helpers/gateway.js'
import { readSse } from '../helpers/sse.js'
import { adminClient } from './admin/admin-helpers.js'

const CLAUDE_KEY = 'sk-claude-usage-0123456789'
const PNG_1PX = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=='

interface Answer {
  body: string
  contentType: string
}

/** A stand-in for every vendor at once: answers each call with the next queued answer, byte for byte. */
async function startCannedVendor() {
  const queue: Answer[] = []
  const paths: string[] = []
  const server = http.createServer((req, res) => {
    req.resume()
    req.on('end', () => {
      paths.push(req.url ?? '')
      const answer = queue.shift()
      if (answer === undefined) {
        res.writeHead(500, { 'content-type': 'application/json' }).end('{"error":{"message":"no answer queued"}}')
        return
      }
      res.writeHead(200, { 'content-type': answer.contentType }).end(answer.body)
    })
  })
  const { origin, close } = await listenLocal(server)
  return {
    origin,
    close,
    paths,
    json: (body: unknown) => void queue.push({ body: JSON.stringify(body), contentType: 'application/json' }),
    sse: (events: string[]) => void queue.push({ body: events.map((e) => `data: ${e}\n\n`).join(''), contentType: 'text/event-stream' }),
    reset: () => void (queue.length = 0, paths.length = 0),
  }
}

const { gw, fakes } = withGateway({
  fakes: { vendor: startCannedVendor },
  resetFakes: true,
  config: ({ vendor }) => ({
    account: { balance: 100, concurrency: 5 },
    // grok-3-mini at xAI's list price (docs.x.ai models: $0.30 in, $0.075 cached, $0.50 out per 1M).
    models: [{ id: 'grok-3-mini', family: 'gpt', vendor: 'xai', pricing: { unit: 'token', input: 0.3, output: 0.5, cachedInput: 0.075 } }],
    upstreams: [
      { id: 'x', vendor: 'xai', baseUrl: vendor.origin, apiKey: 'xai-key' },
      { id: 'g', vendor: 'gemini', baseUrl: vendor.origin, apiKey: 'gemini-key' },
      { id: 'o', vendor: 'openai', baseUrl: vendor.origin, apiKey: 'openai-key' },
      { id: 'c', vendor: 'anthropic', baseUrl: vendor.origin, apiKey: 'anthropic-key' },
    ],
    groups: [
      { id: 'main', protocol: 'chat', models: ['grok-3-mini', 'gemini-3.1-pro-preview', 'gpt-image-2'], upstreams: ['x', 'g', 'o'] },
      { id: 'claude', protocol: 'messages', models: ['claude-haiku-4-5-20251001'], upstreams: ['c'] },
    ],
    keys: [{ key: TEST_KEY, group: 'main' }, { key: CLAUDE_KEY, group: 'claude' }],
  }),
})

/** The ledger row of a request, and its entry in the request log (GET /admin/v1/requests). */
async function billed(res: Response) {
  const id = res.headers.get('x-request-id')!
  await gw.services.store.ledger.flush()
  const row = (await gw.services.store.ledger.get(id))!
  const log = await adminClient(gw).get(`/admin/v1/requests?id=${encodeURIComponent(id)}`)
  expect(log.status).toBe(200)
  return { row, entry: log.json.data[0] as RequestLogEntry }
}

describe('xAI: reasoning tokens are billed as output (completion_tokens leaves them out)', () => {
  // vercel/ai packages/xai/src/__fixtures__/xai-tool-call.json@dacf4c49f19dc11401dc218704ec17e02753a387
  const toolCall = {
    id: '61c0468b-2a98-413e-f654-dbffcdbb62c1', object: 'chat.completion', created: 1770774041, model: 'grok-3-mini',
    choices: [{
      index: 0,
      message: {
        role: 'assistant', content: '', reasoning_content: 'First, the user is asking about the weather in San Francisco.',
        tool_calls: [{ id: 'call_93562515', function: { name: 'weather', arguments: '{"location":"San Francisco"}' }, type: 'function' }], refusal: null,
      },
      finish_reason: 'tool_calls',
    }],
    usage: {
      prompt_tokens: 291, completion_tokens: 26, total_tokens: 506,
      prompt_tokens_details: { text_tokens: 291, audio_tokens: 0, image_tokens: 0, cached_tokens: 244 },
      completion_tokens_details: { reasoning_tokens: 189, audio_tokens: 0, accepted_prediction_tokens: 0, rejected_prediction_tokens: 0 },
      num_sources_used: 0, cost_in_usd_ticks: 1399000,
    },
    system_fingerprint: 'fp_2a885414fb',
  }

  it('a JSON answer: 215 output tokens (26 + 189 reasoning), the cost xAI itself reported', async () => {
    fakes.vendor.json(toolCall)
    const res = await gw.post('/v1/chat/completions', { model: 'grok-3-mini', messages: [{ role: 'user', content: 'Weather in San Francisco?' }] })
    expect(res.status).toBe(200)
    expect((await res.json()).usage).toEqual(toolCall.usage)
    const { row, entry } = await billed(res)
    // cost_in_usd_ticks: 10^10 ticks a dollar, 10 ticks a nano-dollar
    expect(row).toMatchObject({ input_tokens: 291, output_tokens: 215, cost_nano: 139_900, usage_source: 'upstream' })
    expect(entry).toMatchObject({ inputTokens: 291, outputTokens: 215, cost: 0.0001399, usageSource: 'upstream' })
    expect(entry.breakdown).toEqual([
      { kind: 'input', units: 47, unitPrice: 0.3, per: '1M tokens', cost: 0.0000141 },
      { kind: 'cached_input', units: 244, unitPrice: 0.075, per: '1M tokens', cost: 0.0000183 },
      { kind: 'output', units: 26, unitPrice: 0.5, per: '1M tokens', cost: 0.000013 },
      { kind: 'reasoning', units: 189, unitPrice: 0.5, per: '1M tokens', cost: 0.0000945 },
    ])
  })

  it("the brief's answer: 1 completion token and 228 reasoning are billed as 229", async () => {
    // the xai-text.json fixture's usage (vercel/ai packages/xai/src/xai-chat-language-model.test.ts, 'should extract usage')
    fakes.vendor.json({ ...toolCall, usage: { prompt_tokens: 12, completion_tokens: 1, total_tokens: 241, prompt_tokens_details: { text_tokens: 12, audio_tokens: 0, image_tokens: 0, cached_tokens: 2 }, completion_tokens_details: { reasoning_tokens: 228, audio_tokens: 0, accepted_prediction_tokens: 0, rejected_prediction_tokens: 0 } } })
    const res = await gw.post('/v1/chat/completions', { model: 'grok-3-mini', messages: [{ role: 'user', content: 'Say a single word.' }] })
    expect(res.status).toBe(200)
    await res.json()
    const { row } = await billed(res)
    expect(row).toMatchObject({ input_tokens: 12, output_tokens: 229, cost_nano: Math.round(10 * 300 + 2 * 75 + 229 * 500) })
  })

  it('a stream: the usage chunk after the finish, 291 output tokens (1 + 290)', async () => {
    // vercel/ai packages/xai/src/__fixtures__/xai-text.chunks.txt@6b056ab1eadbd2a8c9f268caf6abd5fff45dc7d2 (first, answer, finish and usage chunks)
    fakes.vendor.sse([
      '{"id":"7327b9f5-1c2f-0a15-3fef-c14a71c460d3","object":"chat.completion.chunk","created":1770774058,"model":"grok-3-mini","choices":[{"index":0,"delta":{"reasoning_content":"First","role":"assistant"}}],"system_fingerprint":"fp_2a885414fb"}',
      '{"id":"7327b9f5-1c2f-0a15-3fef-c14a71c460d3","object":"chat.completion.chunk","created":1770774061,"model":"grok-3-mini","choices":[{"index":0,"delta":{"content":"Hello"}}],"system_fingerprint":"fp_2a885414fb"}',
      '{"id":"7327b9f5-1c2f-0a15-3fef-c14a71c460d3","object":"chat.completion.chunk","created":1770774061,"model":"grok-3-mini","choices":[{"index":0,"delta":{},"finish_reason":"stop"}],"system_fingerprint":"fp_2a885414fb"}',
      '{"id":"7327b9f5-1c2f-0a15-3fef-c14a71c460d3","object":"chat.completion.chunk","created":1770774061,"model":"grok-3-mini","choices":[],"usage":{"prompt_tokens":12,"completion_tokens":1,"total_tokens":303,"prompt_tokens_details":{"text_tokens":12,"audio_tokens":0,"image_tokens":0,"cached_tokens":11},"completion_tokens_details":{"reasoning_tokens":290,"audio_tokens":0,"accepted_prediction_tokens":0,"rejected_prediction_tokens":0},"num_sources_used":0,"cost_in_usd_ticks":1466250},"system_fingerprint":"fp_2a885414fb"}',
      '[DONE]',
    ])
    const res = await gw.post('/v1/chat/completions', { model: 'grok-3-mini', stream: true, messages: [{ role: 'user', content: 'Say a single word.' }] })
    expect(res.status).toBe(200)
    await readSse(res)
    const { row } = await billed(res)
    expect(row).toMatchObject({ input_tokens: 12, output_tokens: 291, cost_nano: 146_625, usage_source: 'upstream' })
  })
})

describe('Gemini: thoughts are billed as output beside the candidates', () => {
  it('gemini-3.1-pro-preview: 28 candidate and 244 thought tokens are 272 output tokens at $12 per 1M', async () => {
    // vercel/ai packages/google/src/__fixtures__/google-text.json@0d67d0f2b0dddc043975416b1c929135774c85a2 (its usageMetadata)
    fakes.vendor.json({
      candidates: [{ content: { parts: [{ text: 'Hello! How can I help you today?' }], role: 'model' }, finishReason: 'STOP', index: 0 }],
      usageMetadata: { promptTokenCount: 9, candidatesTokenCount: 28, totalTokenCount: 281, promptTokensDetails: [{ modality: 'TEXT', tokenCount: 9 }], thoughtsTokenCount: 244 },
      modelVersion: 'gemini-3.1-pro-preview', responseId: 'r1',
    })
    const res = await gw.post('/v1/chat/completions', { model: 'gemini-3.1-pro-preview', messages: [{ role: 'user', content: 'Hello' }] })
    expect(res.status).toBe(200)
    await res.json()
    const { row, entry } = await billed(res)
    expect(fakes.vendor.paths.at(-1)).toBe('/v1beta/models/gemini-3.1-pro-preview:generateContent')
    expect(row).toMatchObject({ input_tokens: 9, output_tokens: 272, cost_nano: 9 * 2000 + 272 * 12_000, usage_source: 'upstream' })
    expect(entry.breakdown!.map((c) => [c.kind, c.units, c.unitPrice])).toEqual([['input', 9, 2], ['output', 28, 12], ['reasoning', 244, 12]])
  })
})

describe('Anthropic: cache writes at their 5-minute and 1-hour prices, reads at the cached price', () => {
  it('claude-haiku-4-5: $1 input, $0.10 reads, $1.25 5-minute writes, $2 1-hour writes, $5 output per 1M', async () => {
    fakes.vendor.json({
      id: 'msg_01', type: 'message', role: 'assistant', model: 'claude-haiku-4-5-20251001', content: [{ type: 'text', text: 'Done.' }],
      stop_reason: 'end_turn', stop_sequence: null,
      usage: { input_tokens: 50, cache_creation_input_tokens: 3000, cache_read_input_tokens: 1000, cache_creation: { ephemeral_5m_input_tokens: 1000, ephemeral_1h_input_tokens: 2000 }, output_tokens: 100, service_tier: 'standard' },
    })
    const res = await gw.post('/v1/messages', { model: 'claude-haiku-4-5-20251001', max_tokens: 200, messages: [{ role: 'user', content: 'Hi' }] }, { authorization: `Bearer ${CLAUDE_KEY}` })
    expect(res.status).toBe(200)
    await res.json()
    const { row, entry } = await billed(res)
    expect(row).toMatchObject({ input_tokens: 4050, output_tokens: 100, cost_nano: 50 * 1000 + 1000 * 100 + 1000 * 1250 + 2000 * 2000 + 100 * 5000, usage_source: 'upstream' })
    expect(entry.breakdown).toEqual([
      { kind: 'input', units: 50, unitPrice: 1, per: '1M tokens', cost: 0.00005 },
      { kind: 'cached_input', units: 1000, unitPrice: 0.1, per: '1M tokens', cost: 0.0001 },
      { kind: 'cache_write_5m', units: 1000, unitPrice: 1.25, per: '1M tokens', cost: 0.00125 },
      { kind: 'cache_write_1h', units: 2000, unitPrice: 2, per: '1M tokens', cost: 0.004 },
      { kind: 'output', units: 100, unitPrice: 5, per: '1M tokens', cost: 0.0005 },
    ])
  })
})

describe('gpt-image: text in, image in and image out at their own rates', () => {
  it('an edit with a reference image: $5 text, $8 image input, $30 image output per 1M (gpt-image-2)', async () => {
    fakes.vendor.json({ created: 1770000000, data: [{ b64_json: PNG_1PX }], usage: { input_tokens: 1300, input_tokens_details: { text_tokens: 50, image_tokens: 1250 }, output_tokens: 4160, total_tokens: 5460 } })
    const res = await gw.post('/v1/images/edits', { model: 'gpt-image-2', prompt: 'make it blue', image: `data:image/png;base64,${PNG_1PX}` })
    expect(res.status).toBe(200)
    await res.json()
    const { row, entry } = await billed(res)
    expect(fakes.vendor.paths.at(-1)).toBe('/images/edits')
    expect(row).toMatchObject({ cost_nano: 50 * 5000 + 1250 * 8000 + 4160 * 30_000, usage_source: 'upstream' })
    expect(entry.breakdown!.map((c) => [c.kind, c.units, c.unitPrice])).toEqual([['input', 50, 5], ['image_input', 1250, 8], ['output', 4160, 30]])
  })
})

describe('where the figures came from', () => {
  it('an answer without usage is counted by the gateway: local_count', async () => {
    fakes.vendor.json({ id: 'c1', object: 'chat.completion', created: 1, model: 'grok-3-mini', choices: [{ index: 0, message: { role: 'assistant', content: 'Hello there' }, finish_reason: 'stop' }] })
    const res = await gw.post('/v1/chat/completions', { model: 'grok-3-mini', messages: [{ role: 'user', content: 'hello' }] })
    expect(res.status).toBe(200)
    await res.json()
    const { row, entry } = await billed(res)
    expect(row.usage_source).toBe('local_count')
    expect(entry).toMatchObject({ usageSource: 'local_count', inputTokens: row.input_tokens, outputTokens: row.output_tokens })
    expect(entry.breakdown!.map((c) => c.kind)).toEqual(['input', 'output'])
  })

  it('a request refused before any upstream call has no usage, no source and no breakdown', async () => {
    const res = await gw.post('/v1/chat/completions', { model: 'grok-3-mini' })
    expect(res.status).toBe(400)
    const { row, entry } = await billed(res)
    expect([row.usage_source, row.breakdown]).toEqual([null, null])
    expect([entry.usageSource, entry.breakdown]).toEqual([null, null])
  })
})
