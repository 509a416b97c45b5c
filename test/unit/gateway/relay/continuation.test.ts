import { describe, expect, it } from 'vitest'
import type { UpstreamAccount } from '../../../../electron/gateway/contract/accounts.js'
import type { UpstreamCtx } from '../../../../electron/gateway/contract/upstream.js'
import { continues } from '../../../../electron/gateway/relay/continuation.js'
import { openAICompatibleChat } from '../../../../electron/gateway/upstreams/openai-compatible.js'
import type { CatalogModel } from '../../../../shared/types.js'

const upstream: UpstreamAccount = { id: 'a', vendor: 'dashscope', baseUrl: 'https://dashscope.example', apiKey: 'k', priority: 0 }
const ctx: UpstreamCtx = { upstream, model: { id: 'qwen-plus', family: 'qwen', vendor: 'dashscope' } as CatalogModel }
const chunk = (delta: object) => ({ data: JSON.stringify({ id: 'c', object: 'chat.completion.chunk', choices: [{ index: 0, delta, finish_reason: null }] }) })

describe('continuation', () => {
  it('continues only where a vendor documents continuing a prefix, and only chat completions', () => {
    expect(continues('dashscope', 'chat')).toBe(true)
    for (const vendor of ['openai', 'xai', 'zhipu', 'ark', 'gateway', 'gemini', 'anthropic'] as const) expect(continues(vendor, 'chat')).toBe(false)
    expect(continues('anthropic', 'messages')).toBe(false)
    expect(continues('dashscope', 'responses')).toBe(false)
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
