import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { createStore } from 'zustand/vanilla'
import type { GroupSummary } from '../../../../../shared/admin'
import { chatPersisted, createChatSlice } from '../../../../../renderer/panels/chat/chat-slice'
import type { AssistantMessage } from '../../../../../renderer/panels/chat/chat-types'
import { conversationLabels } from '../../../../../renderer/panels/chat/conversation-labels'
import type { AppState } from '../../../../../renderer/stores/app-store'

const group = (protocol: GroupSummary['protocol']): GroupSummary => ({
  id: 'g1', name: null, protocol, models: ['m1'], upstreams: [], images: {}, continuation: false, keyCount: 1,
})

function makeStore(protocol: GroupSummary['protocol'] = 'chat') {
  return createStore<AppState>()((set, get, api) => ({
    ...({ groups: [group(protocol)], groupId: 'g1', language: 'en' } as unknown as AppState),
    ...createChatSlice(set, get, api),
  }))
}

interface Call {
  url: string
  init: RequestInit
}

/** An SSE body that sends `frames`, then either ends or waits for the request's abort. */
function sseBody(frames: string[], signal: AbortSignal | null | undefined, hold = false): ReadableStream<Uint8Array> {
  const enc = new TextEncoder()
  return new ReadableStream({
    start(controller) {
      for (const f of frames) controller.enqueue(enc.encode(f))
      if (!hold) return controller.close()
      signal?.addEventListener('abort', () => controller.error(new DOMException('aborted', 'AbortError')))
    },
  })
}

const LEDGER_ROW = {
  id: 'req-1', createdAt: 0, keyId: 'k', group: 'g1', model: 'm1', endpoint: 'chat.completions', status: 200,
  errorCode: null, upstream: 'u', inputTokens: 3, outputTokens: 2, cost: 0.000123, latencyMs: 5,
}

function fakeGateway(answer: (call: Call) => Response) {
  const calls: Call[] = []
  let ledgerReads = 0
  vi.stubGlobal('fetch', async (input: string, init: RequestInit = {}) => {
    const call = { url: input, init }
    calls.push(call)
    if (input.endsWith('/app-key')) return Response.json({ key: 'sk-app' })
    if (input.startsWith('/admin/v1/requests')) {
      // The row shows up on the second read, as a ledger commit just after the stream would.
      ledgerReads++
      return Response.json({ data: ledgerReads > 1 && input.includes('id=req-1') ? [LEDGER_ROW] : [], next: null })
    }
    return answer(call)
  })
  return calls
}

const lastAnswer = (store: ReturnType<typeof makeStore>) => store.getState().conversations[0].messages.at(-1) as AssistantMessage

async function ask(store: ReturnType<typeof makeStore>, text: string) {
  store.getState().newConversation()
  store.getState().setConversationModel('m1')
  store.getState().setComposerText(text)
  await store.getState().sendMessage()
}

const sse = (frames: string[], signal?: AbortSignal | null, hold = false) =>
  new Response(sseBody(frames, signal, hold), { headers: { 'content-type': 'text/event-stream', 'x-request-id': 'req-1' } })

beforeEach(() => vi.useRealTimers())
afterEach(() => vi.unstubAllGlobals())

describe('chat slice: sending', () => {
  it('streams a chat-protocol answer, then reads the cost from the ledger', async () => {
    const calls = fakeGateway(() =>
      sse([
        'data: {"choices":[{"index":0,"delta":{"content":"Hi "}}]}\n\n',
        'data: {"choices":[{"index":0,"delta":{"content":"there"},"finish_reason":"stop"}]}\n\n',
        'data: {"choices":[],"usage":{"prompt_tokens":3,"completion_tokens":2}}\n\ndata: [DONE]\n\n',
      ]),
    )
    const store = makeStore()
    await ask(store, 'Hello')
    const msg = lastAnswer(store)
    expect(msg).toMatchObject({ state: 'done', text: 'Hi there', usage: { inputTokens: 3, outputTokens: 2 }, requestId: 'req-1', cost: 0.000123 })
    const post = calls.find((c) => c.url === '/v1/chat/completions')!
    expect(new Headers(post.init.headers).get('authorization')).toBe('Bearer sk-app')
    expect(JSON.parse(post.init.body as string)).toMatchObject({ model: 'm1', stream: true, messages: [{ role: 'user', content: 'Hello' }] })
    expect(calls.filter((c) => c.url === '/admin/v1/requests?id=req-1')).toHaveLength(2)
    expect(store.getState().chatStreaming).toEqual({})
    expect(store.getState().chatLive).toEqual({})
    expect(store.getState().chatDrafts).toEqual({})
  })

  it('posts to /v1/messages with anthropic-version on a messages group', async () => {
    const calls = fakeGateway(() =>
      sse([
        'event: message_start\ndata: {"type":"message_start","message":{"usage":{"input_tokens":3,"output_tokens":1}}}\n\n',
        'event: content_block_start\ndata: {"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}\n\n',
        'event: content_block_delta\ndata: {"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"Yo"}}\n\n',
        'event: message_delta\ndata: {"type":"message_delta","delta":{"stop_reason":"end_turn"},"usage":{"output_tokens":2}}\n\n',
        'event: message_stop\ndata: {"type":"message_stop"}\n\n',
      ]),
    )
    const store = makeStore('messages')
    await ask(store, 'Hello')
    expect(lastAnswer(store)).toMatchObject({ state: 'done', text: 'Yo', finishReason: 'end_turn', usage: { inputTokens: 3, outputTokens: 2 } })
    const post = calls.find((c) => c.url === '/v1/messages')!
    expect(new Headers(post.init.headers).get('anthropic-version')).toBe('2023-06-01')
    expect(JSON.parse(post.init.body as string)).toMatchObject({ max_tokens: 4096, stream: true })
  })

  it('Stop keeps the partial answer, marks it stopped and still reads the ledger', async () => {
    fakeGateway(({ init }) => sse(['data: {"choices":[{"index":0,"delta":{"content":"Partial"}}]}\n\n'], init.signal, true))
    const store = makeStore()
    const sending = ask(store, 'Hello')
    await vi.waitFor(() => expect(Object.values(store.getState().chatLive)[0]?.text).toBe('Partial'))
    const convId = store.getState().activeConversationId!
    expect(lastAnswer(store).state).toBe('streaming')
    expect(chatPersisted(store.getState()).conversations[0].messages.at(-1)).toMatchObject({ state: 'stopped' })
    store.getState().stopAnswer(convId)
    await sending
    expect(lastAnswer(store)).toMatchObject({ state: 'stopped', text: 'Partial', error: null, cost: 0.000123, usage: { inputTokens: 3, outputTokens: 2 } })
  })

  it('shows an error answer before the stream on the message, with status and code', async () => {
    fakeGateway(() =>
      Response.json({ error: { message: 'no such model', type: 'invalid_request_error', code: 'model_not_found' } }, { status: 404 }),
    )
    const store = makeStore()
    await ask(store, 'Hello')
    expect(lastAnswer(store)).toMatchObject({
      state: 'error', text: '', requestId: null, error: { status: 404, code: 'model_not_found', message: 'no such model' },
    })
    expect(lastAnswer(store).cost).toBeUndefined()
  })

  it('keeps the partial answer under a mid-stream error event', async () => {
    fakeGateway(() =>
      sse([
        'data: {"choices":[{"index":0,"delta":{"content":"Half"}}]}\n\n',
        'event: error\ndata: {"error":{"message":"upstream timed out","type":"timeout_error","code":"upstream_timeout"}}\n\n',
      ]),
    )
    const store = makeStore()
    await ask(store, 'Hello')
    expect(lastAnswer(store)).toMatchObject({ state: 'error', text: 'Half', error: { status: null, code: 'upstream_timeout' } })
  })

  it('calls a body that ends without [DONE] cut off', async () => {
    fakeGateway(() => sse(['data: {"choices":[{"index":0,"delta":{"content":"Cut"}}]}\n\n']))
    const store = makeStore()
    await ask(store, 'Hello')
    expect(lastAnswer(store)).toMatchObject({ state: 'error', text: 'Cut', error: { code: 'stream_ended_early' } })
  })
})

describe('chat slice: conversations', () => {
  it('new conversations inherit the model and settings; delete moves to the next one', () => {
    const store = makeStore()
    const first = store.getState().newConversation()
    store.getState().setConversationModel('m1')
    store.getState().setConversationSettings({ effort: 'low', maxTokens: 100 })
    // something typed in the first: New chat leaves it and makes another
    store.getState().setComposerText('a draft')
    const second = store.getState().newConversation()
    expect(store.getState().conversations[0]).toMatchObject({ id: second, model: 'm1', settings: { effort: 'low', maxTokens: 100 } })
    store.getState().renameConversation(second, '  Plans ')
    expect(store.getState().conversations[0].title).toBe('Plans')
    store.getState().deleteConversation(second)
    expect(store.getState().activeConversationId).toBe(first)
    expect(store.getState().conversations.map((c) => c.id)).toEqual([first])
  })

  it('New chat on an untouched conversation goes to it instead of leaving an empty one behind', () => {
    const store = makeStore()
    const first = store.getState().newConversation()
    expect(store.getState().newConversation()).toBe(first)
    store.getState().setComposerText('typed')
    const second = store.getState().newConversation()
    expect(second).not.toBe(first)
    store.getState().selectConversation(first)
    // from the typed-in one, New chat goes back to the untouched one
    expect(store.getState().newConversation()).toBe(second)
    expect(store.getState().conversations.map((c) => c.id)).toEqual([second, first])
  })

  it('repeated names are told apart, the oldest keeping the bare name', () => {
    const conv = (id: string, text: string | null, title: string | null = null) =>
      ({ id, title, model: null, settings: { effort: 'default' }, messages: text === null ? [] : [{ id: `${id}-m`, role: 'user', text }], createdAt: 0, updatedAt: 0 }) as never
    expect(conversationLabels([conv('c', 'Hello'), conv('b', null), conv('a', 'Hello'), conv('z', null), conv('y', 'x', 'Plans')], 'New conversation'))
      .toEqual(['Hello (2)', 'New conversation (2)', 'Hello', 'New conversation', 'Plans'])
  })

  it('keeps composer drafts per conversation, attachments included', () => {
    const store = makeStore()
    const a = store.getState().newConversation()
    store.getState().setComposerText('for a')
    store.getState().addAttachments([{ name: 'x.png', mediaType: 'image/png', dataUrl: 'data:image/png;base64,AA' }])
    store.getState().newConversation()
    store.getState().setComposerText('for b')
    store.getState().selectConversation(a)
    expect(store.getState().chatDrafts[a]).toEqual({ text: 'for a', attachments: [{ name: 'x.png', mediaType: 'image/png', dataUrl: 'data:image/png;base64,AA' }] })
    store.getState().removeAttachment(0)
    expect(store.getState().chatDrafts[a].attachments).toEqual([])
  })

  it('persists the conversations and the active id only', () => {
    const store = makeStore()
    store.getState().newConversation()
    store.getState().setComposerText('draft')
    const saved = chatPersisted(store.getState())
    expect(Object.keys(saved).sort()).toEqual(['activeConversationId', 'conversations'])
    expect(saved.conversations).toBe(store.getState().conversations)
  })
})
