import { createServer } from 'node:http'
import { describe, expect, it } from 'vitest'
import { listenLocal } from '../fakes/listen-local.js'
import { withGateway } from '../helpers/gateway.js'
import { readSse } from '../helpers/sse.js'

const received: Array<{ path: string; key: string | undefined; body: Record<string, unknown> }> = []
const usage = { total_input_tokens: 40, total_output_tokens: 12, total_thought_tokens: 8, total_cached_tokens: 10, total_tokens: 60 }
let breakStream = false

/** A fake of Gemini's Interactions API in its current event generation (gemini.md "Interactions API"). */
const interactionsApi = createServer(async (req, res) => {
  let text = ''
  for await (const c of req) text += c
  const body = JSON.parse(text) as Record<string, unknown>
  received.push({ path: req.url ?? '', key: req.headers['x-goog-api-key'] as string | undefined, body })
  const interaction = { id: 'int_1', status: 'completed', model: body.model, outputs: [{ type: 'text', text: 'Hi there' }], usage }
  if (body.stream !== true) {
    res.writeHead(200, { 'content-type': 'application/json' })
    res.end(JSON.stringify(interaction))
    return
  }
  res.writeHead(200, { 'content-type': 'text/event-stream' })
  const send = (data: unknown) => res.write(`data: ${JSON.stringify(data)}\n\n`)
  send({ event_type: 'interaction.created', interaction: { id: 'int_1', status: 'in_progress' } })
  send({ event_type: 'step.start', index: 0, step: { type: 'model_output' } })
  send({ event_type: 'step.delta', index: 0, delta: { type: 'text', text: 'Hi' } })
  if (breakStream) return void setTimeout(() => res.destroy(), 50)
  send({ event_type: 'step.delta', index: 0, delta: { type: 'text', text: ' there' } })
  send({ event_type: 'step.stop', index: 0 })
  send({ event_type: 'interaction.completed', interaction })
  res.end('data: [DONE]\n\n')
})

const { gw } = withGateway({
  fakes: { upstream: () => listenLocal(interactionsApi) },
  config: ({ upstream }) => ({
    account: { balance: 10 },
    // An output limit, as every real model has: a request without one holds it as its worst case.
    models: [{ id: 'test-omni', family: 'gemini-interactions', vendor: 'gemini', pricing: { unit: 'token', input: 1, output: 4, cachedInput: 0.25 }, limits: { maxOutputTokens: 4096 } }],
    upstreams: [{ id: 'g', vendor: 'gemini', baseUrl: upstream.origin, apiKey: 'gkey' }],
    groups: [{ id: 'main', protocol: 'chat', models: ['test-omni'], upstreams: ['g'] }],
    keys: [{ key: 'sk-test-0123456789abcdef', group: 'main' }],
  }),
})

// 30 input + 10 cached + 20 output (12 + 8 thinking)
const expectedCost = 30 * 1000 + 10 * 250 + 20 * 4000

describe('POST /v1beta/interactions', () => {
  it('relays a create to Gemini and bills from its usage', async () => {
    const res = await gw.post('/v1beta/interactions', { model: 'test-omni', input: 'Say hi' })
    expect(res.status).toBe(200)
    expect(((await res.json()) as { id: string }).id).toBe('int_1')
    expect(received.at(-1)).toEqual({ path: '/v1beta/interactions', key: 'gkey', body: { model: 'test-omni', input: 'Say hi' } })
    expect((await gw.services.store.ledger.recent(null, 1))[0]).toMatchObject({ endpoint: 'interactions', status: 200, input_tokens: 40, output_tokens: 20, cost_nano: expectedCost })
  })

  it('relays the event stream and bills from interaction.completed', async () => {
    const events = await readSse(await gw.post('/v1beta/interactions', { model: 'test-omni', input: 'Say hi', stream: true }))
    expect(events.map((e) => (e.data === '[DONE]' ? '[DONE]' : JSON.parse(e.data).event_type))).toEqual([
      'interaction.created', 'step.start', 'step.delta', 'step.delta', 'step.stop', 'interaction.completed', '[DONE]',
    ])
    expect((await gw.services.store.ledger.recent(null, 1))[0]).toMatchObject({ status: 200, cost_nano: expectedCost })
  })

  it('a break after the start ends with the protocol\'s error event and bills what was produced', async () => {
    breakStream = true
    const events = await readSse(await gw.post('/v1beta/interactions', { model: 'test-omni', input: 'Say hi', stream: true }))
    breakStream = false
    expect(JSON.parse(events.at(-1)!.data)).toMatchObject({ event_type: 'error', error: { code: 'stream_interrupted' } })
    const row = (await gw.services.store.ledger.recent(null, 1))[0]
    expect(row).toMatchObject({ status: 502, error_code: 'stream_interrupted', output_tokens: 1 })
  })

  it('needs model and input', async () => {
    const res = await gw.post('/v1beta/interactions', { model: 'test-omni' })
    expect(res.status).toBe(400)
    expect(((await res.json()) as { error: { message: string } }).error.message).toBe('missing input field')
  })
})
