import { describe, expect, it } from 'vitest'
import { emptyAnswer } from '../../../../../renderer/panels/chat/chat-types'
import { reduceChatEvent } from '../../../../../renderer/panels/chat/stream-chat'
import { fold } from './sse'

const TEXT_WITH_USAGE = `data: {"id":"c1","object":"chat.completion.chunk","created":1,"model":"gpt-4o","choices":[{"index":0,"delta":{"role":"assistant","content":""},"finish_reason":null}]}

data: {"id":"c1","object":"chat.completion.chunk","created":1,"model":"gpt-4o","choices":[{"index":0,"delta":{"content":"Hel"},"finish_reason":null}]}

data: {"id":"c1","object":"chat.completion.chunk","created":1,"model":"gpt-4o","choices":[{"index":0,"delta":{"content":"lo **world**"},"finish_reason":null}]}

data: {"id":"c1","object":"chat.completion.chunk","created":1,"model":"gpt-4o","choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}

data: {"id":"c1","object":"chat.completion.chunk","created":1,"model":"gpt-4o","choices":[],"usage":{"prompt_tokens":12,"completion_tokens":5,"total_tokens":17,"prompt_tokens_details":{"cached_tokens":4}}}

data: [DONE]

`

const REASONING = `data: {"id":"1","created":1755850000,"model":"glm-4.6","choices":[{"index":0,"delta":{"role":"assistant","reasoning_content":"Let me"}}]}

data: {"id":"1","created":1755850000,"model":"glm-4.6","choices":[{"index":0,"delta":{"reasoning_content":" think."}}]}

data: {"id":"1","created":1755850000,"model":"glm-4.6","choices":[{"index":0,"delta":{"content":"42"}}]}

data: {"id":"1","created":1755850000,"model":"glm-4.6","choices":[{"index":0,"finish_reason":"stop","delta":{"content":""}}],"usage":{"prompt_tokens":8,"completion_tokens":30,"total_tokens":38}}

data: [DONE]

`

const TOOL_CALLS = `data: {"id":"c2","choices":[{"index":0,"delta":{"role":"assistant","content":null,"tool_calls":[{"index":0,"id":"call_a","type":"function","function":{"name":"get_weather","arguments":""}}]},"finish_reason":null}]}

data: {"id":"c2","choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"{\\"city\\": \\"Pa"}}]},"finish_reason":null}]}

data: {"id":"c2","choices":[{"index":0,"delta":{"tool_calls":[{"index":1,"id":"call_b","type":"function","function":{"name":"get_time","arguments":"{\\"tz\\":"}}]},"finish_reason":null}]}

data: {"id":"c2","choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"ris\\"}"}}]},"finish_reason":null}]}

data: {"id":"c2","choices":[{"index":0,"delta":{"tool_calls":[{"index":1,"function":{"arguments":"\\"CET\\"}"}}]},"finish_reason":null}]}

data: {"id":"c2","choices":[{"index":0,"delta":{},"finish_reason":"tool_calls"}]}

data: [DONE]

`

describe('reduceChatEvent', () => {
  it('appends content deltas, keeps the finish reason and reads the usage-only chunk', () => {
    const a = fold(TEXT_WITH_USAGE, reduceChatEvent)
    expect(a.text).toBe('Hello **world**')
    expect(a.finishReason).toBe('stop')
    expect(a.usage).toEqual({ inputTokens: 12, outputTokens: 5, cachedInputTokens: 4 })
    expect(a.done).toBe(true)
    expect(a.error).toBeNull()
  })

  it('collects reasoning_content apart from the answer, and usage on the finish chunk', () => {
    const a = fold(REASONING, reduceChatEvent)
    expect(a.reasoning).toBe('Let me think.')
    expect(a.text).toBe('42')
    expect(a.usage).toEqual({ inputTokens: 8, outputTokens: 30 })
  })

  it('concatenates tool call argument fragments by index, interleaved', () => {
    const a = fold(TOOL_CALLS, reduceChatEvent)
    expect(a.toolCalls).toEqual([
      { id: 'call_a', name: 'get_weather', arguments: '{"city": "Paris"}' },
      { id: 'call_b', name: 'get_time', arguments: '{"tz":"CET"}' },
    ])
    expect(a.finishReason).toBe('tool_calls')
    expect(a.text).toBe('')
  })

  it('ends with the error of a mid-stream error payload and keeps the partial answer', () => {
    const a = fold(
      `data: {"choices":[{"index":0,"delta":{"content":"Partial"}}]}

data: {"error":{"message":"upstream went away","type":"server_error","code":"upstream_error"}}

`,
      reduceChatEvent,
    )
    expect(a.text).toBe('Partial')
    expect(a.error).toEqual({ status: null, code: 'upstream_error', message: 'upstream went away', upstream: null })
    expect(a.done).toBe(true)
  })

  it('reads the gateway’s own `event: error` frame, falling back to the type when code is null', () => {
    const a = fold(
      `data: {"choices":[{"index":0,"delta":{"content":"Par"}}]}

event: error
data: {"error":{"message":"timed out","type":"timeout_error","param":null,"code":null}}

`,
      reduceChatEvent,
    )
    expect(a.text).toBe('Par')
    expect(a.error).toEqual({ status: null, code: 'timeout_error', message: 'timed out', upstream: null })
  })

  it('ignores keep-alive noise and unparsable data', () => {
    const a = emptyAnswer()
    expect(reduceChatEvent(a, { data: 'not json' })).toBe(a)
    expect(reduceChatEvent(a, { data: '{"choices":[]}' })).toBe(a)
  })
})
