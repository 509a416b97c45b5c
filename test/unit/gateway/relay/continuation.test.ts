import { describe, expect, it } from 'vitest'
import type { UpstreamAccount } from '../../../../electron/gateway/contract/accounts.js'
import type { UpstreamCtx } from '../../../../electron/gateway/contract/upstream.js'
import { continues, prefilled, prefixWire } from '../../../../electron/gateway/relay/continuation.js'
import { anthropicMessages } from '../../../../electron/gateway/upstreams/anthropic.js'
import { openAICompatibleChat } from '../../../../electron/gateway/upstreams/openai-compatible.js'
import type { CatalogModel } from '../../../../shared/types.js'

const upstream: UpstreamAccount = { id: 'a', vendor: 'dashscope', baseUrl: 'https://dashscope.example', apiKey: 'k', priority: 0 }
const ctx: UpstreamCtx = { upstream, model: { id: 'qwen-plus', family: 'qwen', vendor: 'dashscope' } as CatalogModel }
const chunk = (delta: object) => ({ data: JSON.stringify({ id: 'c', object: 'chat.completion.chunk', choices: [{ index: 0, delta, finish_reason: null }] }) })

describe('continuation', () => {
  it('continues only where a vendor documents continuing a prefix: DashScope and three OpenAI-compatible hosts on chat, Anthropic on messages', () => {
    const at = (vendor: UpstreamAccount['vendor'], baseUrl = 'https://api.example.com/v1') => ({ vendor, baseUrl })
    expect(continues(at('dashscope'), 'chat')).toBe(true)
    expect(continues(at('anthropic'), 'messages')).toBe(true)
    for (const vendor of ['openai', 'xai', 'zhipu', 'ark', 'gateway', 'gemini', 'anthropic'] as const) expect(continues(at(vendor), 'chat')).toBe(false)
    for (const vendor of ['openai', 'dashscope', 'gateway'] as const) expect(continues(at(vendor), 'messages')).toBe(false)
    expect(continues(at('dashscope'), 'responses')).toBe(false)
    // OpenAI-compatible accounts of the vendors that document it, by host
    expect(prefixWire(at('openai', 'https://api.deepseek.com'), 'chat')).toEqual({ mark: { prefix: true }, baseUrl: 'https://api.deepseek.com/beta' })
    expect(prefixWire(at('openai', 'https://api.mistral.ai/v1'), 'chat')).toEqual({ mark: { prefix: true } })
    expect(prefixWire(at('openai', 'https://api.moonshot.ai/v1'), 'chat')).toEqual({ mark: { partial: true } })
    expect(prefixWire(at('openai', 'https://API.Moonshot.cn/v1'), 'chat')).toEqual({ mark: { partial: true } })
    expect(prefixWire(at('openai', 'https://api.openai.com/v1'), 'chat')).toBeUndefined()
    expect(prefixWire(at('openai', 'https://api.deepseek.com'), 'responses')).toBeUndefined()
    expect(prefixWire(at('openai', 'not a url'), 'chat')).toBeUndefined()
  })

  it('the prefix goes as a last assistant message in the vendor\'s wire form; none where the request cannot take one', () => {
    const body = { model: 'm', stream: true, messages: [{ role: 'user', content: 'Tell me' }] }
    expect(prefilled(body, 'Once upon', { mark: { partial: true } })).toEqual({
      body: { ...body, messages: [...body.messages, { role: 'assistant', content: 'Once upon', partial: true }] }, trimmed: '',
    })
    expect(prefilled(body, 'Once upon', { mark: { prefix: true } })?.body.messages).toEqual([...body.messages, { role: 'assistant', content: 'Once upon', prefix: true }])
    // Anthropic refuses a prefill ending in whitespace: sent trimmed, the whitespace kept aside (the client has it)
    expect(prefilled(body, 'Once upon a \n', { trimEnd: true })).toEqual({
      body: { ...body, messages: [...body.messages, { role: 'assistant', content: 'Once upon a' }] }, trimmed: ' \n',
    })
    expect(prefilled(body, ' \n', { trimEnd: true })).toBeUndefined()
    // the client's own prefill, or extended thinking: no continuation
    expect(prefilled({ ...body, messages: [...body.messages, { role: 'assistant', content: 'Sure:' }] }, 'x', {})).toBeUndefined()
    expect(prefilled({ ...body, thinking: { type: 'enabled', budget_tokens: 2048 } }, 'x', { trimEnd: true })).toBeUndefined()
    expect(prefilled({ ...body, thinking: { type: 'disabled' } }, 'x', { trimEnd: true })).toBeDefined()
    expect(prefilled({ model: 'm' }, 'x', {})).toBeUndefined()
  })

  it('a messages stream\'s answer text is its first block\'s text; none once thinking, a tool or a second block came', () => {
    const anthropicCtx: UpstreamCtx = { upstream: { ...upstream, vendor: 'anthropic' }, model: { id: 'claude-x', family: 'claude', vendor: 'anthropic' } as CatalogModel }
    const event = (data: object) => ({ event: (data as { type: string }).type, data: JSON.stringify(data) })
    const delta = (index: number, d: object) => event({ type: 'content_block_delta', index, delta: d })
    const translator = () => anthropicMessages.streamTranslator({ includeUsage: false }, anthropicCtx)
    const plain = translator()
    for (const e of [event({ type: 'message_start', message: { usage: { input_tokens: 3 } } }), delta(0, { type: 'text_delta', text: 'Hello' }), delta(0, { type: 'text_delta', text: ', world' })]) plain.push(e)
    expect(plain.answerText?.()).toBe('Hello, world')
    const thinking = translator()
    for (const e of [delta(0, { type: 'thinking_delta', thinking: 'Hmm.' }), delta(1, { type: 'text_delta', text: 'Hello' })]) thinking.push(e)
    expect(thinking.answerText?.()).toBeUndefined()
    const tool = translator()
    for (const e of [delta(0, { type: 'text_delta', text: 'Calling' }), delta(1, { type: 'input_json_delta', partial_json: '{}' })]) tool.push(e)
    expect(tool.answerText?.()).toBeUndefined()
    expect(tool.producedText()).toBe('Calling{}')
  })

  it("a stream's answer text is what a continuation starts from: the content alone, and none once reasoning or a tool call came", () => {
    const translator = () => openAICompatibleChat('/compatible-mode/v1/chat/completions').streamTranslator({ includeUsage: false }, ctx)
    const plain = translator()
    for (const delta of [{ role: 'assistant', content: '' }, { content: 'Hello' }, { content: ', world' }]) plain.push(chunk(delta))
    expect(plain.answerText?.()).toBe('Hello, world')
    expect(plain.producedText()).toBe('Hello, world')

    const reasoning = translator()
    for (const delta of [{ reasoning_content: 'Let me think.' }, { content: 'Hello' }]) reasoning.push(chunk(delta))
    expect(reasoning.answerText?.()).toBeUndefined()
    expect(reasoning.producedText()).toBe('Let me think.Hello')

    const tool = translator()
    for (const delta of [{ content: 'Calling' }, { tool_calls: [{ index: 0, id: 'call_1', type: 'function', function: { name: 'f', arguments: '{}' } }] }]) tool.push(chunk(delta))
    expect(tool.answerText?.()).toBeUndefined()
  })
})
