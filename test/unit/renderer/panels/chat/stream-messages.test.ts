import { describe, expect, it } from 'vitest'
import { reduceMessagesEvent } from '../../../../../renderer/panels/chat/stream-messages'
import { fold } from './sse'

const TEXT_AND_TOOL = `event: message_start
data: {"type":"message_start","message":{"id":"msg_01AbC","type":"message","role":"assistant","model":"claude-sonnet-4-5","content":[],"stop_reason":null,"stop_sequence":null,"usage":{"input_tokens":412,"output_tokens":1,"cache_creation_input_tokens":10,"cache_read_input_tokens":100}}}

event: content_block_start
data: {"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}

event: ping
data: {"type":"ping"}

event: content_block_delta
data: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"Hello"}}

event: content_block_delta
data: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":", I'll look."}}

event: content_block_stop
data: {"type":"content_block_stop","index":0}

event: content_block_start
data: {"type":"content_block_start","index":1,"content_block":{"type":"tool_use","id":"toolu_01X","name":"get_weather","input":{}}}

event: content_block_delta
data: {"type":"content_block_delta","index":1,"delta":{"type":"input_json_delta","partial_json":""}}

event: content_block_delta
data: {"type":"content_block_delta","index":1,"delta":{"type":"input_json_delta","partial_json":"{\\"city\\": \\"Pa"}}

event: content_block_delta
data: {"type":"content_block_delta","index":1,"delta":{"type":"input_json_delta","partial_json":"ris\\"}"}}

event: content_block_stop
data: {"type":"content_block_stop","index":1}

event: message_delta
data: {"type":"message_delta","delta":{"stop_reason":"tool_use","stop_sequence":null},"usage":{"output_tokens":87}}

event: message_stop
data: {"type":"message_stop"}

`

const THINKING = `event: message_start
data: {"type":"message_start","message":{"id":"msg_2","type":"message","role":"assistant","model":"claude-sonnet-4-5","content":[],"usage":{"input_tokens":20,"output_tokens":1}}}

event: content_block_start
data: {"type":"content_block_start","index":0,"content_block":{"type":"thinking","thinking":"","signature":""}}

event: content_block_delta
data: {"type":"content_block_delta","index":0,"delta":{"type":"thinking_delta","thinking":"Two plus two"}}

event: content_block_delta
data: {"type":"content_block_delta","index":0,"delta":{"type":"thinking_delta","thinking":" is four."}}

event: content_block_delta
data: {"type":"content_block_delta","index":0,"delta":{"type":"signature_delta","signature":"EqQB"}}

event: content_block_stop
data: {"type":"content_block_stop","index":0}

event: content_block_start
data: {"type":"content_block_start","index":1,"content_block":{"type":"text","text":""}}

event: content_block_delta
data: {"type":"content_block_delta","index":1,"delta":{"type":"text_delta","text":"4"}}

event: content_block_stop
data: {"type":"content_block_stop","index":1}

event: message_delta
data: {"type":"message_delta","delta":{"stop_reason":"end_turn","stop_sequence":null},"usage":{"output_tokens":40}}

event: message_stop
data: {"type":"message_stop"}

`

describe('reduceMessagesEvent', () => {
  it('builds text and a tool call from blocks, with billable input and cumulative output usage', () => {
    const a = fold(TEXT_AND_TOOL, reduceMessagesEvent)
    expect(a.text).toBe("Hello, I'll look.")
    expect(a.toolCalls).toEqual([{ id: 'toolu_01X', name: 'get_weather', arguments: '{"city": "Paris"}' }])
    expect(a.finishReason).toBe('tool_use')
    expect(a.usage).toEqual({ inputTokens: 522, outputTokens: 87, cachedInputTokens: 100 })
    expect(a.done).toBe(true)
  })

  it('collects thinking blocks as reasoning, apart from the answer', () => {
    const a = fold(THINKING, reduceMessagesEvent)
    expect(a.reasoning).toBe('Two plus two is four.')
    expect(a.text).toBe('4')
    expect(a.finishReason).toBe('end_turn')
    expect(a.usage).toEqual({ inputTokens: 20, outputTokens: 40 })
  })

  it('separates text blocks that a tool call split', () => {
    const a = fold(
      `event: content_block_start
data: {"type":"content_block_start","index":0,"content_block":{"type":"text","text":"First."}}

event: content_block_start
data: {"type":"content_block_start","index":1,"content_block":{"type":"text","text":""}}

event: content_block_delta
data: {"type":"content_block_delta","index":1,"delta":{"type":"text_delta","text":"Second."}}

`,
      reduceMessagesEvent,
    )
    expect(a.text).toBe('First.\n\nSecond.')
  })

  it('ends with `event: error` mid-stream and keeps the partial answer', () => {
    const a = fold(
      `event: message_start
data: {"type":"message_start","message":{"id":"m","usage":{"input_tokens":5,"output_tokens":1}}}

event: content_block_start
data: {"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}

event: content_block_delta
data: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"Part"}}

event: error
data: {"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}

`,
      reduceMessagesEvent,
    )
    expect(a.text).toBe('Part')
    expect(a.error).toEqual({ status: null, code: 'overloaded_error', message: 'Overloaded', upstream: null })
    expect(a.done).toBe(true)
  })

  it('takes repeated input counts in message_delta, as newer API versions send them', () => {
    const a = fold(
      `event: message_start
data: {"type":"message_start","message":{"usage":{"input_tokens":5,"output_tokens":1}}}

event: message_delta
data: {"type":"message_delta","delta":{"stop_reason":"max_tokens"},"usage":{"input_tokens":7,"output_tokens":9}}

`,
      reduceMessagesEvent,
    )
    expect(a.usage).toEqual({ inputTokens: 7, outputTokens: 9 })
    expect(a.finishReason).toBe('max_tokens')
    expect(a.done).toBe(false)
  })
})
