import { describe, expect, it } from 'vitest'
import { attemptAttributes, collectFinishReasons, MAX_FINISH_REASONS, operationOf, providerOf, requestParameters } from '../../../../electron/gateway/telemetry/span-attributes.js'

describe('span attributes', () => {
  it('names the GenAI operation of each endpoint that calls a model, and none for the others', () => {
    expect(['chat.completions', 'responses', 'messages', 'interactions', 'images.generations', 'images.edits', 'video.generate', 'audio.speech'].map(operationOf))
      .toEqual(['chat', 'chat', 'chat', 'generate_content', 'image_generation', 'image_edit', 'video_generation', 'text_to_speech'])
    expect(['models.list', 'usage', 'quote', 'video.tasks', 'images.tasks'].map(operationOf)).toEqual([undefined, undefined, undefined, undefined, undefined])
  })

  it('names providers by the convention\'s well-known values where it has one', () => {
    expect((['openai', 'anthropic', 'gemini', 'xai', 'ark', 'dashscope', 'gateway'] as const).map(providerOf)).toEqual(['openai', 'anthropic', 'gcp.gemini', 'x_ai', 'ark', 'dashscope', 'gateway'])
  })

  it('reads finish reasons from chat, messages and Gemini answers, the protocols\' values only, not from quoted text or tool arguments', () => {
    const found: string[] = []
    collectFinishReasons('data: {"choices":[{"index":0,"delta":{},"finish_reason":"length"}]}\n\n', found)
    collectFinishReasons('{"type":"message_delta","delta":{"stop_reason":"end_turn","stop_sequence":null}}', found)
    collectFinishReasons('{"candidates":[{"finishReason":"STOP"}]}', found)
    collectFinishReasons('{"choices":[{"finish_reason":null,"delta":{"content":"say \\"finish_reason\\":\\"stop\\""}}]}', found)
    // A tool call's arguments are a JSON object in a messages answer: a key named like the field is not a finish reason.
    collectFinishReasons('{"content":[{"type":"tool_use","input":{"stop_reason":"my_private_words"}}],"stop_reason":"tool_use"}', found)
    expect(found).toEqual(['length', 'end_turn', 'STOP', 'tool_use'])
    const many: string[] = []
    collectFinishReasons('"finish_reason":"stop",'.repeat(40), many)
    expect(many).toHaveLength(MAX_FINISH_REASONS)
  })

  it('reads the numeric sampling parameters only, under their gen_ai.request names', () => {
    expect(requestParameters({ model: 'm', max_completion_tokens: 100, temperature: 0, top_p: 1, n: 2, seed: 7, frequency_penalty: 0.5, presence_penalty: -0.5, messages: [{ content: 'secret prompt' }] })).toEqual({
      'gen_ai.request.max_tokens': 100, 'gen_ai.request.temperature': 0, 'gen_ai.request.top_p': 1, 'gen_ai.request.choice.count': 2, 'gen_ai.request.seed': 7,
      'gen_ai.request.frequency_penalty': 0.5, 'gen_ai.request.presence_penalty': -0.5,
    })
    expect(requestParameters({ generationConfig: { maxOutputTokens: 256, temperature: 0.2, topK: 40 } })).toEqual({ 'gen_ai.request.max_tokens': 256, 'gen_ai.request.temperature': 0.2, 'gen_ai.request.top_k': 40 })
    expect(requestParameters({ max_tokens: '100', temperature: null })).toEqual({})
    expect(requestParameters([1, 2])).toEqual({})
  })

  it('describes a skipped account and a timed-out call by their records', () => {
    expect(attemptAttributes('messages', { account: 'x', model: 'claude', outcome: 'skipped: breaker open', ms: 0, next: 'failed over' }, 'anthropic')).toEqual({
      'gen_ai.operation.name': 'chat', 'gen_ai.provider.name': 'anthropic', 'gen_ai.request.model': 'claude',
      'gatehouse.upstream.account': 'x', 'gatehouse.upstream.outcome': 'skipped: breaker open', 'gatehouse.upstream.next': 'failed over',
    })
    expect(attemptAttributes('chat.completions', { account: 'y', model: 'gpt', outcome: 'timeout', ms: 30000, next: 'no account left' }, 'openai')).toMatchObject({
      'gatehouse.upstream.reason': 'timeout', 'error.type': 'timeout', 'gatehouse.upstream.next': 'no account left',
    })
  })
})
