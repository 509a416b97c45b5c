// Compatibility of the official `openai` Node SDK with the gateway: only baseURL and apiKey differ from
// a stock client (spec gateway-interface.md §4.1, §4.3, §5, §6, §7, §8).
import { describe, it, expect, beforeAll, beforeEach, afterAll } from 'vitest'
import OpenAI from 'openai'
import type {
  ChatCompletionChunk,
  ChatCompletionMessageParam,
  ChatCompletionMessageToolCall,
  ChatCompletionTool,
} from 'openai/resources/chat/completions'
import { startFakeOpenAI, type FakeOpenAI } from '../fakes/openai.js'
import { chatConfig, startTestGateway, TEST_KEY, type TestGateway } from '../helpers/gateway.js'
import { collect } from '../helpers/sse.js'

const MODEL = 'test-gpt'
const CONCURRENCY_KEY = 'sk-conc-0123456789abcdef'
const DEFAULT_TEXT = 'Hello from the fake upstream.'
const messages: ChatCompletionMessageParam[] = [{ role: 'user', content: 'Hello there' }] // 11 chars -> 3 prompt tokens at the fake

const weatherTool: ChatCompletionTool = {
  type: 'function',
  function: {
    name: 'get_weather',
    description: 'Current weather for a city',
    parameters: {
      type: 'object',
      properties: { city: { type: 'string' }, unit: { type: 'string', enum: ['celsius', 'fahrenheit'] } },
      required: ['city'],
    },
  },
}
const TOOL_ARGS = '{"city":"Paris","unit":"celsius","note":"a \\"quoted\\" value, with commas"}'

function functionCall(call: ChatCompletionMessageToolCall | undefined) {
  if (!call || call.type !== 'function') throw new Error(`expected a function tool call, got ${JSON.stringify(call)}`)
  return call
}

const contentOf = (chunks: ChatCompletionChunk[]) => chunks.map((c) => c.choices[0]?.delta.content ?? '').join('')

async function until(cond: () => boolean, what: string, timeoutMs = 3_000): Promise<void> {
  const end = Date.now() + timeoutMs
  while (!cond()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`)
    await new Promise((r) => setTimeout(r, 10))
  }
}

/** Runs `fn` and returns what it threw; fails if it did not throw. */
async function thrown(fn: () => Promise<unknown>): Promise<unknown> {
  try {
    await fn()
  } catch (err) {
    return err
  }
  throw new Error('expected the call to throw')
}

describe('openai SDK against the gateway', () => {
  let fake: FakeOpenAI
  let gateway: TestGateway
  let client: OpenAI
  const clientWith = (apiKey: string) => new OpenAI({ baseURL: `${gateway.url}/v1`, apiKey, maxRetries: 0 })

  beforeAll(async () => {
    fake = await startFakeOpenAI()
    const base = chatConfig([{ id: 'fake', baseUrl: fake.url }])
    gateway = await startTestGateway(
      chatConfig([{ id: 'fake', baseUrl: fake.url }], {
        keys: [...(base.keys ?? []), { key: CONCURRENCY_KEY, group: 'main', name: 'one-at-a-time', concurrency: 1 }],
      }),
    )
    client = clientWith(TEST_KEY)
  })
  afterAll(async () => {
    await gateway?.stop()
    await fake?.close()
  })
  beforeEach(() => fake.reset())

  describe('chat.completions.create', () => {
    it('non-stream returns the upstream text and usage; the upstream gets model and messages unchanged', async () => {
      const r = await client.chat.completions.create({ model: MODEL, messages, temperature: 0.25 })
      expect(r.object).toBe('chat.completion')
      expect(r.choices).toHaveLength(1)
      expect(r.choices[0].message.role).toBe('assistant')
      expect(r.choices[0].message.content).toBe(DEFAULT_TEXT)
      expect(r.choices[0].finish_reason).toBe('stop')
      expect(r.usage).toMatchObject({ prompt_tokens: 3, completion_tokens: 5, total_tokens: 8 })

      expect(fake.calls).toHaveLength(1)
      const call = fake.calls[0]
      expect(call.method).toBe('POST')
      expect(call.path).toBe('/v1/chat/completions')
      expect(call.body.model).toBe(MODEL)
      expect(call.body.messages).toEqual(messages)
      expect(call.body.temperature).toBe(0.25)
      expect(call.body.stream).not.toBe(true)
      // The gateway authenticates upstream with the account's secret, never the client's key.
      expect(call.headers.authorization).toBe('Bearer upstream-secret-fake')
    })

    it('stream with include_usage: deltas concatenate, the last chunk is usage-only', async () => {
      fake.setScenario({ kind: 'ok', text: 'one two three' })
      const stream = await client.chat.completions.create({ model: MODEL, messages, stream: true, stream_options: { include_usage: true } })
      const chunks = await collect(stream)

      expect(chunks.length).toBe(1 + 3 + 1 + 1) // role, one delta per word, finish, usage
      expect(chunks.every((c) => c.object === 'chat.completion.chunk')).toBe(true)
      expect(chunks[0].choices[0].delta.role).toBe('assistant')
      expect(contentOf(chunks)).toBe('one two three')
      expect(chunks.at(-2)!.choices[0].finish_reason).toBe('stop')
      const last = chunks.at(-1)!
      expect(last.choices).toEqual([])
      expect(last.usage).toMatchObject({ prompt_tokens: 3, completion_tokens: 3, total_tokens: 6 })
      // Only the last chunk carries a usage object.
      expect(chunks.slice(0, -1).every((c) => c.usage == null)).toBe(true)

      expect(fake.calls).toHaveLength(1)
      expect(fake.calls[0].body.stream).toBe(true)
      expect(fake.calls[0].body.stream_options).toEqual({ include_usage: true })
      expect(fake.calls[0].body.messages).toEqual(messages)
    })

    it('stream without include_usage: no usage anywhere, yet the upstream was asked for usage', async () => {
      fake.setScenario({ kind: 'ok', text: 'one two three' })
      const stream = await client.chat.completions.create({ model: MODEL, messages, stream: true })
      const chunks = await collect(stream)

      expect(chunks.length).toBe(1 + 3 + 1) // role, one delta per word, finish
      expect(contentOf(chunks)).toBe('one two three')
      expect(chunks.at(-1)!.choices[0].finish_reason).toBe('stop')
      expect(chunks.every((c) => c.choices.length === 1)).toBe(true) // no usage-only chunk
      expect(chunks.every((c) => c.usage == null)).toBe(true)

      expect(fake.calls).toHaveLength(1)
      expect(fake.calls[0].body.stream).toBe(true)
      expect(fake.calls[0].body.stream_options?.include_usage).toBe(true)
    })

    it('stream with include_usage false: no usage-only chunk', async () => {
      fake.setScenario({ kind: 'ok', text: 'alpha beta' })
      const stream = await client.chat.completions.create({ model: MODEL, messages, stream: true, stream_options: { include_usage: false } })
      const chunks = await collect(stream)

      expect(contentOf(chunks)).toBe('alpha beta')
      expect(chunks.length).toBe(1 + 2 + 1)
      expect(chunks.every((c) => c.choices.length === 1 && c.usage == null)).toBe(true)
      expect(fake.calls[0].body.stream_options?.include_usage).toBe(true)
    })
  })

  describe('tool calls', () => {
    it('round trip: tool_calls come back, the assistant message and tool result reach the upstream intact', async () => {
      fake.once({ kind: 'tool_call', name: 'get_weather', arguments: TOOL_ARGS }, { kind: 'ok', text: 'It is 21 degrees in Paris.' })

      const first = await client.chat.completions.create({ model: MODEL, messages, tools: [weatherTool], tool_choice: 'auto' })
      expect(first.choices[0].finish_reason).toBe('tool_calls')
      const assistant = first.choices[0].message
      expect(assistant.content).toBeNull()
      expect(assistant.tool_calls).toHaveLength(1)
      const call = functionCall(assistant.tool_calls?.[0])
      expect(call.id).toMatch(/^call_/)
      expect(call.function.name).toBe('get_weather')
      expect(call.function.arguments).toBe(TOOL_ARGS)
      expect(JSON.parse(call.function.arguments)).toMatchObject({ city: 'Paris', unit: 'celsius' })

      const followUp: ChatCompletionMessageParam[] = [
        ...messages,
        assistant,
        { role: 'tool', tool_call_id: call.id, content: '{"temperature":21,"unit":"celsius"}' },
      ]
      const second = await client.chat.completions.create({ model: MODEL, messages: followUp, tools: [weatherTool] })
      expect(second.choices[0].finish_reason).toBe('stop')
      expect(second.choices[0].message.content).toBe('It is 21 degrees in Paris.')

      expect(fake.calls).toHaveLength(2)
      expect(fake.calls[0].body.tools).toEqual([weatherTool])
      expect(fake.calls[0].body.tool_choice).toBe('auto')
      const sent = fake.calls[1].body
      expect(sent.model).toBe(MODEL)
      expect(sent.tools).toEqual([weatherTool])
      expect(sent.messages).toHaveLength(3)
      expect(sent.messages).toEqual(JSON.parse(JSON.stringify(followUp)))
      expect(sent.messages[1].role).toBe('assistant')
      expect(sent.messages[1].tool_calls).toEqual([{ id: call.id, type: 'function', function: { name: 'get_weather', arguments: TOOL_ARGS } }])
      expect(sent.messages[2]).toEqual({ role: 'tool', tool_call_id: call.id, content: '{"temperature":21,"unit":"celsius"}' })
    })

    it('streamed via chat.completions.stream(): arguments assemble fully', async () => {
      fake.setScenario({ kind: 'tool_call', name: 'get_weather', arguments: TOOL_ARGS })
      const doneEvents: Array<{ name: string; arguments: string }> = []
      const stream = client.chat.completions.stream({ model: MODEL, messages, tools: [weatherTool] })
      stream.on('tool_calls.function.arguments.done', (e) => doneEvents.push({ name: e.name, arguments: e.arguments }))
      const final = await stream.finalChatCompletion()

      expect(final.choices[0].finish_reason).toBe('tool_calls')
      expect(final.choices[0].message.tool_calls).toHaveLength(1)
      const call = functionCall(final.choices[0].message.tool_calls?.[0])
      expect(call.id).toMatch(/^call_/)
      expect(call.function.name).toBe('get_weather')
      expect(call.function.arguments).toBe(TOOL_ARGS)
      expect(doneEvents).toEqual([{ name: 'get_weather', arguments: TOOL_ARGS }])
      expect(fake.calls).toHaveLength(1)
      expect(fake.calls[0].body.stream).toBe(true)
      expect(fake.calls[0].body.tools).toEqual([weatherTool])
    })

    it('streamed via create({stream:true}): manual assembly of the argument deltas', async () => {
      fake.setScenario({ kind: 'tool_call', name: 'get_weather', arguments: TOOL_ARGS })
      const chunks = await collect(await client.chat.completions.create({ model: MODEL, messages, tools: [weatherTool], stream: true }))
      const deltas = chunks.flatMap((c) => c.choices[0]?.delta.tool_calls ?? [])
      expect(deltas.length).toBeGreaterThan(1) // the arguments really came in pieces
      expect(deltas.every((d) => d.index === 0)).toBe(true)
      expect(deltas[0].id).toMatch(/^call_/)
      expect(deltas[0].function?.name).toBe('get_weather')
      expect(deltas.map((d) => d.function?.arguments ?? '').join('')).toBe(TOOL_ARGS)
      expect(chunks.at(-1)!.choices[0].finish_reason).toBe('tool_calls')
    })
  })

  describe('models', () => {
    it('models.list() yields exactly the group models', async () => {
      const ids: string[] = []
      for await (const m of client.models.list()) {
        expect(m.object).toBe('model')
        ids.push(m.id)
      }
      expect(ids.sort()).toEqual(['test-gpt', 'test-image'])
    })

    it('models.retrieve() returns one model, and a model outside the group is NotFoundError', async () => {
      const m = await client.models.retrieve('test-gpt')
      expect(m.id).toBe('test-gpt')
      expect(m.object).toBe('model')

      const err = await thrown(() => client.models.retrieve('gpt-4.1'))
      expect(err).toBeInstanceOf(OpenAI.NotFoundError)
      expect((err as InstanceType<typeof OpenAI.NotFoundError>).status).toBe(404)
      expect((err as InstanceType<typeof OpenAI.NotFoundError>).code).toBe('model_not_found')
    })
  })

  describe('typed errors', () => {
    it('a wrong key is AuthenticationError 401 invalid_api_key and never reaches the upstream', async () => {
      const bad = clientWith('sk-wrong-0123456789abcdef')
      const err = await thrown(() => bad.chat.completions.create({ model: MODEL, messages }))
      expect(err).toBeInstanceOf(OpenAI.AuthenticationError)
      const e = err as InstanceType<typeof OpenAI.AuthenticationError>
      expect(e.status).toBe(401)
      expect(e.code).toBe('invalid_api_key')
      expect(e.type).toBe('authentication_error')
      expect(typeof e.message).toBe('string')
      expect(e.requestID).toBeTruthy() // spec §7: every response carries x-request-id
      expect(fake.calls).toHaveLength(0)

      const listErr = await thrown(() => bad.models.list())
      expect(listErr).toBeInstanceOf(OpenAI.AuthenticationError)
      expect((listErr as InstanceType<typeof OpenAI.AuthenticationError>).code).toBe('invalid_api_key')
    })

    it('a model not in the group is NotFoundError 404 model_not_found', async () => {
      const err = await thrown(() => client.chat.completions.create({ model: 'gpt-4.1', messages }))
      expect(err).toBeInstanceOf(OpenAI.NotFoundError)
      const e = err as InstanceType<typeof OpenAI.NotFoundError>
      expect(e.status).toBe(404)
      expect(e.code).toBe('model_not_found')
      expect(e.requestID).toBeTruthy()
      expect(fake.calls).toHaveLength(0)
    })

    it('over the key concurrency cap is RateLimitError 429 apikey_concurrency_limit with Retry-After headers', async () => {
      const limited = clientWith(CONCURRENCY_KEY)
      fake.setScenario({ kind: 'slow', delayMs: 800, text: 'slow answer' })
      const held = limited.chat.completions.create({ model: MODEL, messages })
      held.catch(() => {}) // awaited below; keeps an early rejection from going unhandled
      await until(() => fake.calls.length === 1, 'the first request to reach the upstream')

      const err = await thrown(() => limited.chat.completions.create({ model: MODEL, messages }))
      expect(err).toBeInstanceOf(OpenAI.RateLimitError)
      const e = err as InstanceType<typeof OpenAI.RateLimitError>
      expect(e.status).toBe(429)
      expect(e.code).toBe('apikey_concurrency_limit')
      expect(e.headers.get('retry-after')).toBe('1')
      const retryAfterMs = e.headers.get('retry-after-ms')
      expect(retryAfterMs).toMatch(/^\d+$/)
      expect(Number(retryAfterMs)).toBeGreaterThan(0)
      expect(fake.calls).toHaveLength(1) // the rejected request was not forwarded (nothing is queued)

      const first = await held
      expect(first.choices[0].message.content).toBe('slow answer')

      // The slot is released once the first request has finished.
      fake.setScenario({ kind: 'ok' })
      const after = await limited.chat.completions.create({ model: MODEL, messages })
      expect(after.choices[0].message.content).toBe(DEFAULT_TEXT)
    })
  })

  describe('broken stream', () => {
    it('an upstream break after the stream started makes the iterator throw APIError after the relayed chunks', async () => {
      fake.setScenario({ kind: 'break_after', chunks: 3 })
      const stream = await client.chat.completions.create({ model: MODEL, messages, stream: true })
      const chunks: ChatCompletionChunk[] = []
      let caught: unknown
      try {
        for await (const c of stream) chunks.push(c)
      } catch (err) {
        caught = err
      }
      expect(caught).toBeInstanceOf(OpenAI.APIError)
      const e = caught as InstanceType<typeof OpenAI.APIError>
      expect(e.status).toBeUndefined() // an in-stream error, not an HTTP status
      expect(e.error).toMatchObject({ type: 'upstream_error', code: 'stream_interrupted' })
      expect(e.code).toBe('stream_interrupted')
      expect(typeof (e.error as { message?: unknown }).message).toBe('string')

      expect(chunks).toHaveLength(1 + 3) // role chunk and three content deltas, nothing after the break
      expect(chunks[0].choices[0].delta.role).toBe('assistant')
      expect(contentOf(chunks)).toBe('Hello from the')
      expect(chunks.every((c) => c.choices[0].finish_reason === null)).toBe(true)
    })
  })
})
