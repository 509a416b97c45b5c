// Real recorded Anthropic answers (test/fixtures/recorded/anthropic/, INDEX.md there) replayed through the gateway's
// messages adapter and read by the official `@anthropic-ai/sdk`. Anthropic counts thinking inside output_tokens.
import Anthropic from '@anthropic-ai/sdk'
import { describe, expect, it } from 'vitest'
import { recordedBytes, recordedChunks } from '../fakes/replay.js'
import { readSse } from '../helpers/sse.js'
import { MESSAGES_KEY, nextLedgerRow, tokenCostNano, withRecordedGateway } from '../helpers/recorded.js'

// List prices, USD per 1M tokens. The catalog's own claude-sonnet-4-5-20250929 row is deprecated, so the recording's
// model is served under the id claude-sonnet-4-5-replay (a name the SDK does not warn about; the answer keeps the model it was recorded with).
const SONNET = { input: 3, output: 15, cachedInput: 0.3 }
const OPUS3 = { input: 15, output: 75, cachedInput: 1.5 }
const { gw, fakes } = withRecordedGateway('anthropic', [
  { id: 'claude-sonnet-4-5-replay', family: 'claude', pricing: SONNET, maxOutputTokens: 64_000 },
  { id: 'claude-sonnet-4-6', family: 'claude', pricing: SONNET, maxOutputTokens: 64_000 },
  { id: 'claude-3-opus-20240229', family: 'claude', pricing: OPUS3, maxOutputTokens: 4_096 },
])
// SDKs of the messages protocol take the base URL without /v1.
const client = () => new Anthropic({ baseURL: gw.url, apiKey: MESSAGES_KEY, maxRetries: 0 })
const updateIssueList: Anthropic.Tool = { name: 'updateIssueList', description: 'Update the issue list', input_schema: { type: 'object', properties: {} } }
const typesOf = (file: string) => recordedChunks(file).map((line) => (JSON.parse(line) as { type: string }).type)

describe('recorded Anthropic messages, streamed (claude-sonnet-4-5)', () => {
  it('a text answer: every event relayed in order under its own event name, the SDK\'s final message; billed from message_start and message_delta', async () => {
    const file = 'anthropic/anthropic-text.chunks.txt'
    fakes.replay.serve({ file, framing: 'events' })
    const row = await nextLedgerRow(gw)
    const res = await gw.post('/v1/messages', { model: 'claude-sonnet-4-5-replay', max_tokens: 1024, stream: true, messages: [{ role: 'user', content: 'Hello, how are you?' }] }, { authorization: `Bearer ${MESSAGES_KEY}` })
    expect(res.status).toBe(200)
    const events = await readSse(res)
    expect(events.map((e) => e.event)).toEqual(typesOf(file))
    expect(events.map((e) => e.data)).toEqual(recordedChunks(file))
    expect(fakes.replay.calls[0]).toMatchObject({ method: 'POST', path: '/v1/messages' })
    expect(fakes.replay.calls[0]!.headers['x-api-key']).toBe('recorded-anthropic-secret')
    expect(await row()).toMatchObject({ status: 200, endpoint: 'messages', input_tokens: 12, output_tokens: 30, cost_nano: tokenCostNano(SONNET, { input: 12, output: 30 }) })

    const final = await client().messages.stream({ model: 'claude-sonnet-4-5-replay', max_tokens: 1024, messages: [{ role: 'user', content: 'Hello, how are you?' }] }).finalMessage()
    expect(final.content).toEqual([{ type: 'text', text: "Hello! I'm doing well, thank you for asking. How are you doing today? Is there anything I can help you with?" }])
    expect(final.stop_reason).toBe('end_turn')
    expect(final.usage).toMatchObject({ input_tokens: 12, output_tokens: 30 })
  })

  it('text then a tool use without arguments: the SDK reads the tool use id, name and empty input; stop_reason tool_use', async () => {
    const file = 'anthropic/anthropic-tool-no-args.chunks.txt'
    fakes.replay.serve({ file, framing: 'events' })
    const row = await nextLedgerRow(gw)
    const stream = client().messages.stream({ model: 'claude-sonnet-4-5-replay', max_tokens: 1024, tools: [updateIssueList], messages: [{ role: 'user', content: 'Update the issue list' }] })
    const final = await stream.finalMessage()
    expect(final.content).toEqual([
      { type: 'text', text: "I'll update the issue list for you." },
      { type: 'tool_use', id: 'toolu_01QE1WLsSVp5hy5Q3GmGTmjP', name: 'updateIssueList', input: {} },
    ])
    expect(final.stop_reason).toBe('tool_use')
    expect(await row()).toMatchObject({ status: 200, input_tokens: 565, output_tokens: 48, cost_nano: tokenCostNano(SONNET, { input: 565, output: 48 }) })
  })
})

describe('recorded Anthropic messages, whole', () => {
  it('text and a tool use (claude-3-opus): byte for byte to the client, read by the SDK', async () => {
    const file = 'anthropic/anthropic-tool-no-args.json'
    fakes.replay.serve({ file })
    const row = await nextLedgerRow(gw)
    const res = await gw.post('/v1/messages', { model: 'claude-3-opus-20240229', max_tokens: 1024, tools: [updateIssueList], messages: [{ role: 'user', content: 'Update the issue list' }] }, { authorization: `Bearer ${MESSAGES_KEY}` })
    expect(res.status).toBe(200)
    expect(Buffer.from(await res.arrayBuffer()).equals(recordedBytes(file))).toBe(true)
    expect(await row()).toMatchObject({ status: 200, input_tokens: 602, output_tokens: 93, cost_nano: tokenCostNano(OPUS3, { input: 602, output: 93 }) })

    const message = await client().messages.create({ model: 'claude-3-opus-20240229', max_tokens: 1024, tools: [updateIssueList], messages: [{ role: 'user', content: 'Update the issue list' }] })
    expect(message.stop_reason).toBe('tool_use')
    expect(message.content[1]).toEqual({ type: 'tool_use', id: 'toolu_01LRmxn9vGM1d2DZSDBowdZ1', name: 'updateIssueList', input: {} })
  })

  it('a thinking block and a tool use (claude-sonnet-4-6): the thinking stays a thinking block with its signature, not text; thinking billed inside output_tokens', async () => {
    const file = 'anthropic/issue-13430-thinking-tool-call.json'
    fakes.replay.serve({ file })
    const row = await nextLedgerRow(gw)
    const message = await client().messages.create({ model: 'claude-sonnet-4-6', max_tokens: 2048, thinking: { type: 'enabled', budget_tokens: 1024 }, tools: [{ name: 'checkSandboxErrors', input_schema: { type: 'object', properties: {} } }], messages: [{ role: 'user', content: 'Call checkSandboxErrors now.' }] })
    expect(message.content.map((block) => block.type)).toEqual(['thinking', 'tool_use'])
    expect(message.content[0]).toMatchObject({ type: 'thinking', thinking: 'The user wants me to call checkSandboxErrors immediately.' })
    expect((message.content[0] as Anthropic.ThinkingBlock).signature).toMatch(/^Eq4CCpIB/)
    expect(message.content[1]).toMatchObject({ type: 'tool_use', id: 'toolu_017R7ACrx7NF7sLDDtvdQ1u9', name: 'checkSandboxErrors', input: {} })
    expect(message.content.some((block) => block.type === 'text')).toBe(false)
    expect(message.stop_reason).toBe('tool_use')
    // output_tokens 59 hold the 18 thinking tokens: billed once
    expect(await row()).toMatchObject({ status: 200, input_tokens: 599, output_tokens: 59, cost_nano: tokenCostNano(SONNET, { input: 599, output: 59 }) })
  })
})
