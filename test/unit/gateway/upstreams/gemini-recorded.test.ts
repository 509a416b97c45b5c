// The Gemini chat adapter's answer and stream translation on real recorded answers
// (test/fixtures/recorded/gemini/, INDEX.md there): generateContent into chat.completion and its chunks.
import { describe, expect, it } from 'vitest'
import { decodeToolCallId, geminiChat } from '../../../../electron/gateway/upstreams/gemini-chat.js'
import { recordedBytes } from '../../../fakes/replay.js'
import { ctxOf, payloadOf, recordedEvents, translate } from './adapter-kit.js'

const ctx = ctxOf('gemini', 'https://generativelanguage.googleapis.com', 'gemini-3-pro-preview', 'gemini')
const text = (file: string) => recordedBytes(file).toString('utf8')
type Chunk = { id: string; object: string; model: string; choices: Array<{ index: number; delta: Record<string, unknown>; finish_reason: string | null }>; usage?: Record<string, unknown> | null }

describe('recorded generateContent answers as chat completions', () => {
  it('text: one choice with the text, finish stop, the response id in the completion id, usage with thoughts as output', () => {
    const result = geminiChat.fromResponse(text('gemini/google-text.json'), ctx)
    const body = JSON.parse(result.body) as { id: string; model: string; choices: Array<{ message: { content: string }; finish_reason: string }>; usage: unknown }
    expect(body.id).toBe('chatcmpl-Un6LacrVMcjUxs0PmJfWoQc')
    expect(body.model).toBe('gemini-3-pro-preview')
    expect(body.choices).toHaveLength(1)
    expect(body.choices[0]).toMatchObject({ message: { role: 'assistant', content: "There are **3** r's in strawberry.\n\nHere is the breakdown: st**r**awbe**rr**y." }, finish_reason: 'stop' })
    expect(body.usage).toEqual({ prompt_tokens: 9, completion_tokens: 272, total_tokens: 281, prompt_tokens_details: { cached_tokens: 0 }, completion_tokens_details: { reasoning_tokens: 244 } })
    expect(result.usage).toMatchObject({ inputTokens: 9, cachedInputTokens: 0, outputTokens: 272, reasoningTokens: 244 })
  })

  it('a function call: tool_calls with the arguments as JSON text and the thought signature in the id; finish tool_calls', () => {
    const body = JSON.parse(geminiChat.fromResponse(text('gemini/google-tool-call.json'), ctx).body) as { choices: Array<{ message: { tool_calls: Array<{ id: string; type: string; function: { name: string; arguments: string } }> }; finish_reason: string }> }
    const [call] = body.choices[0]!.message.tool_calls
    expect(call).toMatchObject({ type: 'function', function: { name: 'weather', arguments: '{"location":"San Francisco"}' } })
    expect(decodeToolCallId(call!.id)).toEqual({ signature: 'EskgCsYgAb4+9vtF7/499YQS2bjZs3xcQI+iAl+ILn29nK1j0Kg6su7QsUUUk3nrAAfnS2w5WiVvlcCqu9fAebJ2cvfaEyBahEt5' })
    expect(body.choices[0]!.finish_reason).toBe('tool_calls')
  })
})

describe('recorded streams as chat completion chunks', () => {
  it('text: a role-first delta, the text deltas, one finish chunk, the usage chunk when asked, then [DONE] written by the gateway', () => {
    const translator = geminiChat.streamTranslator({ includeUsage: true }, ctx)
    const frames = translate(translator, recordedEvents('gemini/google-text.chunks.txt'))
    expect(frames.at(-1)).toBe('data: [DONE]\n\n')
    const chunks = frames.slice(0, -1).map((f) => payloadOf(f) as Chunk)
    expect(chunks.every((c) => c.id === 'chatcmpl-bH6LaZW8Fp_3nsEPqtaSwQ4' && c.object === 'chat.completion.chunk' && c.model === 'gemini-3-pro-preview')).toBe(true)
    expect(chunks[0]!.choices[0]!.delta).toMatchObject({ role: 'assistant', content: 'There are **3**' })
    expect(chunks.map((c) => c.choices[0]?.delta.content ?? '').join('')).toBe('There are **3** "r"s in strawberry.\n\nst**r**awbe**rr**y')
    expect(chunks.flatMap((c) => c.choices.map((choice) => choice.finish_reason)).filter(Boolean)).toEqual(['stop'])
    expect(chunks.at(-1)).toMatchObject({ choices: [], usage: { prompt_tokens: 9, completion_tokens: 208, total_tokens: 217 } })
    expect(translator.finished()).toBe(true)
    expect(translator.usage()).toMatchObject({ inputTokens: 9, outputTokens: 208, reasoningTokens: 185 })
  })

  it("before its end, usageSoFar is the last chunk's usageMetadata: the prompt's counts, the output's so far", () => {
    const events = recordedEvents('gemini/google-text.chunks.txt')
    const translator = geminiChat.streamTranslator({ includeUsage: false }, ctx)
    expect(translator.usageSoFar!()).toBeUndefined()
    translate(translator, events.slice(0, 1))
    expect(translator.usage()).toBeUndefined()
    // The first recorded chunk: promptTokenCount 9, candidatesTokenCount 5, thoughtsTokenCount 185.
    expect(translator.usageSoFar!()).toMatchObject({ inputTokens: 9, cachedInputTokens: 0, outputTokens: 190, reasoningTokens: 185 })
  })

  it('a function call: one tool call delta with index 0, finish tool_calls; without include_usage no usage chunk', () => {
    const frames = translate(geminiChat.streamTranslator({ includeUsage: false }, ctx), recordedEvents('gemini/google-tool-call.chunks.txt'))
    const chunks = frames.slice(0, -1).map((f) => payloadOf(f) as Chunk)
    const calls = chunks.flatMap((c) => (c.choices[0]?.delta.tool_calls as Array<{ index: number; function: { name: string; arguments: string } }> | undefined) ?? [])
    expect(calls).toHaveLength(1)
    expect(calls[0]).toMatchObject({ index: 0, function: { name: 'weather', arguments: '{"location":"San Francisco"}' } })
    expect(chunks.flatMap((c) => c.choices.map((choice) => choice.finish_reason)).filter(Boolean)).toEqual(['tool_calls'])
    expect(chunks.some((c) => 'usage' in c)).toBe(false)
    expect(frames.at(-1)).toBe('data: [DONE]\n\n')
  })
})
