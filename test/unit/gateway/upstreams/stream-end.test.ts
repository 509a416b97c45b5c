// A body that ends without its protocol's end: complete when every answer in it had finished (endOfAnswer).
import { describe, expect, it } from 'vitest'
import type { UpstreamAccount } from '../../../../electron/gateway/contract/accounts.js'
import type { ChatStreamTranslator, UpstreamCtx } from '../../../../electron/gateway/contract/upstream.js'
import { adapterFor } from '../../../../electron/gateway/upstreams/index.js'
import type { CatalogModel } from '../../../../shared/types.js'

const ctx = (vendor: 'openai' | 'anthropic'): UpstreamCtx => ({
  upstream: { id: 'u', vendor, baseUrl: 'https://api.example', apiKey: 'k', priority: 0 } as UpstreamAccount,
  model: { id: 'm', family: vendor === 'openai' ? 'gpt' : 'claude', type: 'chat', vendor, created: 0, pricing: { unit: 'token', input: 1, output: 1 } } as CatalogModel,
})
const chat = (includeUsage: boolean): ChatStreamTranslator => adapterFor('openai')!.chat!.streamTranslator({ includeUsage }, ctx('openai'))
const messages = (): ChatStreamTranslator => adapterFor('anthropic')!.messages!.streamTranslator({ includeUsage: false }, ctx('anthropic'))
const choice = (index: number, content: string | null, finish: string | null = null) =>
  ({ data: JSON.stringify({ id: 'c1', object: 'chat.completion.chunk', created: 7, model: 'm', choices: [{ index, delta: content === null ? {} : { content }, finish_reason: finish }] }) })
const counted = { inputTokens: 5, outputTokens: 3 }

describe('chat: a body ended without [DONE]', () => {
  it('with a choice unfinished (n = 2): not complete', () => {
    const t = chat(true)
    for (const e of [choice(0, 'a'), choice(1, 'b'), choice(0, null, 'stop')]) t.push(e)
    expect([t.endOfAnswer!(counted), t.finished()]).toEqual([undefined, false])
  })

  it("every choice finished, the upstream's usage chunk held: that chunk, then [DONE]", () => {
    const t = chat(true)
    for (const e of [choice(0, 'a'), choice(1, 'b'), choice(0, null, 'stop'), choice(1, null, 'length')]) t.push(e)
    expect(t.push({ data: JSON.stringify({ id: 'c1', object: 'chat.completion.chunk', created: 7, model: 'm', choices: [], usage: { prompt_tokens: 9, completion_tokens: 2 } }) })).toEqual([])
    expect([t.endOfAnswer!(counted), t.finished()]).toEqual([
      ['data: {"id":"c1","object":"chat.completion.chunk","created":7,"model":"m","choices":[],"usage":{"prompt_tokens":9,"completion_tokens":2}}\n\n', 'data: [DONE]\n\n'],
      true,
    ])
  })

  it("no usage chunk from the upstream: the gateway's count, cached tokens inside prompt_tokens; none when not asked", () => {
    const asked = chat(true)
    for (const e of [choice(0, 'a'), choice(0, null, 'stop')]) asked.push(e)
    expect(asked.endOfAnswer!({ inputTokens: 5, cachedInputTokens: 2, outputTokens: 3 })).toEqual([
      'data: {"id":"c1","object":"chat.completion.chunk","created":7,"model":"m","choices":[],"usage":{"prompt_tokens":7,"completion_tokens":3,"total_tokens":10,"prompt_tokens_details":{"cached_tokens":2}}}\n\n',
      'data: [DONE]\n\n',
    ])
    const unasked = chat(false)
    for (const e of [choice(0, 'a'), choice(0, null, 'stop')]) unasked.push(e)
    expect(unasked.endOfAnswer!(counted)).toEqual(['data: [DONE]\n\n'])
  })

  it('no choice at all: not complete', () => {
    expect(chat(true).endOfAnswer!(counted)).toBeUndefined()
  })
})

describe('messages: a body ended without message_stop', () => {
  const event = (type: string, data: object) => ({ event: type, data: JSON.stringify({ type, ...data }) })
  const opening = [
    event('message_start', { message: { id: 'msg_1', usage: { input_tokens: 4, output_tokens: 1 } } }),
    event('content_block_start', { index: 0, content_block: { type: 'text', text: '' } }),
    event('content_block_delta', { index: 0, delta: { type: 'text_delta', text: 'Hi' } }),
    event('content_block_stop', { index: 0 }),
  ]

  it('before the stop reason: not complete', () => {
    const t = messages()
    for (const e of opening) t.push(e)
    expect(t.endOfAnswer!(undefined)).toBeUndefined()
  })

  it('after message_delta with its stop reason: message_stop written by the gateway', () => {
    const t = messages()
    for (const e of [...opening, event('message_delta', { delta: { stop_reason: 'end_turn' }, usage: { output_tokens: 2 } })]) t.push(e)
    expect([t.endOfAnswer!(undefined), t.finished()]).toEqual([['event: message_stop\ndata: {"type":"message_stop"}\n\n'], true])
  })
})
