import { describe, expect, it } from 'vitest'
import {
  nextAnswerQuote, splitDataUrl, thinkingFor, toAnswerRequest, toChatCompletionsRequest, toMessagesRequest,
} from '../../../../../renderer/panels/chat/build-request'
import type { AssistantMessage, ChatMessage, Conversation, UserMessage } from '../../../../../renderer/panels/chat/chat-types'

const PNG = 'data:image/png;base64,iVBORw0KGgo='

const user = (text: string, images: string[] = []): UserMessage => ({
  id: `u-${text}`, role: 'user', text, createdAt: 0,
  attachments: images.map((dataUrl, i) => ({ name: `img${i}.png`, mediaType: 'image/png', dataUrl })),
})

const answer = (text: string, state: AssistantMessage['state'] = 'done'): AssistantMessage => ({
  id: `a-${text}`, role: 'assistant', model: 'm', state, text, reasoning: 'hidden', toolCalls: [{ id: 't', name: 'f', arguments: '{}' }],
  finishReason: 'stop', usage: null, requestId: null, error: null, createdAt: 0,
})

const conv = (messages: ChatMessage[], settings: Partial<Conversation['settings']> = {}): Conversation => ({
  id: 'c', title: null, model: 'the-model', settings: { effort: 'default', maxTokens: null, ...settings }, messages, createdAt: 0, updatedAt: 0,
})

describe('toChatCompletionsRequest', () => {
  it('streams with the usage chunk and sends plain text turns as strings', () => {
    const req = toChatCompletionsRequest(conv([user('Hi'), answer('Hello!'), user('More')]))
    expect(req.path).toBe('/v1/chat/completions')
    expect(req.headers).toEqual({})
    expect(req.body).toEqual({
      model: 'the-model',
      stream: true,
      stream_options: { include_usage: true },
      messages: [
        { role: 'user', content: 'Hi' },
        { role: 'assistant', content: 'Hello!' },
        { role: 'user', content: 'More' },
      ],
    })
  })

  it('sends images as image_url parts with their data URLs', () => {
    const req = toChatCompletionsRequest(conv([user('What is this?', [PNG, PNG]), user('', [PNG])]))
    expect(req.body.messages).toEqual([
      {
        role: 'user',
        content: [
          { type: 'text', text: 'What is this?' },
          { type: 'image_url', image_url: { url: PNG } },
          { type: 'image_url', image_url: { url: PNG } },
        ],
      },
      { role: 'user', content: [{ type: 'image_url', image_url: { url: PNG } }] },
    ])
  })

  it('leaves out failed, empty and streaming answers', () => {
    const failed = { ...answer('', 'error'), error: { status: 500, code: 'x', message: 'y' } }
    const req = toChatCompletionsRequest(conv([user('a'), failed, user('b'), answer('partial', 'stopped'), user('c'), answer('', 'streaming')]))
    expect(req.body.messages).toEqual([
      { role: 'user', content: 'a' },
      { role: 'user', content: 'b' },
      { role: 'assistant', content: 'partial' },
      { role: 'user', content: 'c' },
    ])
  })

  it('sends reasoning_effort unless it is the model default', () => {
    expect(toChatCompletionsRequest(conv([user('x')], { effort: 'high' })).body.reasoning_effort).toBe('high')
    expect(toChatCompletionsRequest(conv([user('x')], { effort: 'none' })).body.reasoning_effort).toBe('none')
    expect(toChatCompletionsRequest(conv([user('x')])).body).not.toHaveProperty('reasoning_effort')
  })

  it.each([
    ['gpt', 'max_completion_tokens'],
    ['glm', 'max_tokens'],
    ['qwen', 'max_tokens'],
    ['gemini', 'max_tokens'],
    [undefined, 'max_tokens'],
  ])('sends the output cap of family %s as %s', (family, field) => {
    const body = toChatCompletionsRequest(conv([user('x')], { maxTokens: 2000 }), family).body
    expect(body[field]).toBe(2000)
    expect(Object.keys(body).filter((k) => k.startsWith('max_'))).toEqual([field])
  })

  it('sends no output cap when none is set', () => {
    expect(Object.keys(toChatCompletionsRequest(conv([user('x')]), 'gpt').body).filter((k) => k.startsWith('max_'))).toEqual([])
  })
})

describe('toMessagesRequest', () => {
  it('always sends max_tokens and the anthropic-version header', () => {
    const req = toMessagesRequest(conv([user('Hi')]))
    expect(req.path).toBe('/v1/messages')
    expect(req.headers).toEqual({ 'anthropic-version': '2023-06-01' })
    expect(req.body).toEqual({
      model: 'the-model',
      max_tokens: 4096,
      stream: true,
      messages: [{ role: 'user', content: [{ type: 'text', text: 'Hi' }] }],
    })
  })

  it('sends images as base64 image blocks before the text', () => {
    const req = toMessagesRequest(conv([user('Describe', ['data:image/jpeg;base64,/9j/4AAQ'])]))
    expect(req.body.messages).toEqual([
      {
        role: 'user',
        content: [
          { type: 'image', source: { type: 'base64', media_type: 'image/jpeg', data: '/9j/4AAQ' } },
          { type: 'text', text: 'Describe' },
        ],
      },
    ])
  })

  it('joins user turns left adjacent by a failed answer, so roles alternate', () => {
    const failed = { ...answer('', 'error'), error: { status: 529, code: 'overloaded_error', message: 'Overloaded' } }
    const req = toMessagesRequest(conv([user('a'), failed, user('b'), answer('B'), user('c')]))
    expect(req.body.messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'a' }, { type: 'text', text: 'b' }] },
      { role: 'assistant', content: [{ type: 'text', text: 'B' }] },
      { role: 'user', content: [{ type: 'text', text: 'c' }] },
    ])
  })

  it.each([
    ['low', 1024],
    ['medium', 8192],
    ['high', 24576],
  ] as const)('maps effort %s to a %i-token thinking budget on top of the default answer room', (effort, budget) => {
    const body = toMessagesRequest(conv([user('x')], { effort })).body
    expect(body.thinking).toEqual({ type: 'enabled', budget_tokens: budget })
    expect(body.max_tokens).toBe(4096 + budget)
  })

  it('omits thinking for none and default', () => {
    expect(toMessagesRequest(conv([user('x')], { effort: 'none' })).body).not.toHaveProperty('thinking')
    expect(toMessagesRequest(conv([user('x')], { effort: 'default' })).body).not.toHaveProperty('thinking')
  })

  it('keeps a set max_tokens and fits the budget under it', () => {
    const body = toMessagesRequest(conv([user('x')], { effort: 'high', maxTokens: 10000 })).body
    expect(body.max_tokens).toBe(10000)
    expect(body.thinking).toEqual({ type: 'enabled', budget_tokens: 9999 })
  })
})

describe('thinkingFor', () => {
  it('drops thinking when max_tokens leaves no room for the minimum budget', () => {
    expect(thinkingFor('medium', 1024)).toBeUndefined()
    expect(thinkingFor('medium', 1025)).toEqual({ type: 'enabled', budget_tokens: 1024 })
  })
})

describe('splitDataUrl', () => {
  it('reads the media type and data, with parameters before base64', () => {
    expect(splitDataUrl('data:image/png;base64,AAAA')).toEqual({ mediaType: 'image/png', data: 'AAAA' })
    expect(splitDataUrl('data:image/webp;name=a.webp;base64,BBBB')).toEqual({ mediaType: 'image/webp', data: 'BBBB' })
    expect(() => splitDataUrl('https://example.com/a.png')).toThrow()
  })
})

describe('toAnswerRequest', () => {
  it('picks the path by the group protocol', () => {
    expect(toAnswerRequest('chat', conv([user('x')])).path).toBe('/v1/chat/completions')
    expect(toAnswerRequest('messages', conv([user('x')])).path).toBe('/v1/messages')
  })
})

describe('nextAnswerQuote', () => {
  it('prices the request Send would make: the conversation with the draft as the next user turn, in the group\'s protocol', () => {
    const c = conv([user('Hi'), answer('Hello!')], { maxTokens: 300 })
    const draft = { text: 'More please', attachments: [] }
    expect(nextAnswerQuote('chat', c, draft, 'gpt')).toEqual({ endpoint: '/v1/chat/completions', request: toChatCompletionsRequest({ ...c, messages: [...c.messages, { ...user('More please'), id: 'draft' }] }, 'gpt').body })
    const quoted = nextAnswerQuote('messages', c, draft)
    expect(quoted.endpoint).toBe('/v1/messages')
    expect(quoted.request).toMatchObject({ max_tokens: 300, messages: [{ role: 'user' }, { role: 'assistant' }, { role: 'user', content: [{ type: 'text', text: 'More please' }] }] })
  })
})
