import { describe, it, expect, beforeAll, beforeEach, afterAll } from 'vitest';
import Anthropic from '@anthropic-ai/sdk';
import { startFakeAnthropic, type FakeAnthropic } from '../fakes/anthropic.js';

const MODEL = 'claude-sonnet-4-6';
const messages = [{ role: 'user' as const, content: 'Hello there' }]; // 11 chars -> 3 input tokens
const HEADERS = { 'content-type': 'application/json', 'x-api-key': 'k', 'anthropic-version': '2023-06-01' };

/** Raw SSE frames of a streamed /v1/messages call, as [event line, parsed data]. */
async function rawFrames(url: string): Promise<[string, any][]> {
  const r = await fetch(`${url}/v1/messages`, { method: 'POST', headers: HEADERS, body: JSON.stringify({ model: MODEL, max_tokens: 64, messages, stream: true }) });
  expect(r.headers.get('content-type')).toMatch(/^text\/event-stream/);
  const text = await r.text();
  expect(text).not.toContain('[DONE]');
  return text.split('\n\n').filter(Boolean).map((frame) => {
    const [ev, data] = frame.split('\n');
    expect(ev).toMatch(/^event: /);
    expect(data).toMatch(/^data: /);
    return [ev.slice(7), JSON.parse(data.slice(6))];
  });
}

describe('fake Anthropic upstream', () => {
  let fake: FakeAnthropic;
  let client: Anthropic;

  beforeAll(async () => {
    fake = await startFakeAnthropic();
    client = new Anthropic({ baseURL: fake.url, apiKey: 'k', maxRetries: 0 });
  });
  afterAll(async () => { await fake.close(); });
  beforeEach(() => fake.reset());

  it('messages.create returns a Message with text and usage', async () => {
    const { data: m, response } = await client.messages.create({ model: MODEL, max_tokens: 64, messages, system: 'Be brief.' }).withResponse();
    expect(m).toMatchObject({ type: 'message', role: 'assistant', model: MODEL, stop_reason: 'end_turn', stop_sequence: null });
    expect(m.id).toMatch(/^msg_/);
    expect(m.content).toEqual([{ type: 'text', text: 'Hello from the fake upstream.' }]);
    // (11 + 9 system chars) / 4 = 5 input tokens; 5 words out
    expect(m.usage).toMatchObject({ input_tokens: 5, output_tokens: 5, cache_creation_input_tokens: 0, cache_read_input_tokens: 0, service_tier: 'standard' });
    expect(response.headers.get('request-id')).toMatch(/^req_/);
    expect(fake.calls[0]).toMatchObject({ method: 'POST', path: '/v1/messages' });
    expect(fake.calls[0].headers.authorization).toBe('Bearer k'); // SDK 1.x sends apiKey as a Bearer token, not x-api-key
    expect(fake.calls[0].headers['anthropic-version']).toMatch(/^\d{4}-\d{2}-\d{2}$/); // SDK 1.12 sends 2026-10-21; the fake only requires presence
  });

  it('usage override carries cache fields', async () => {
    const usage = { input_tokens: 10, output_tokens: 3, cache_creation_input_tokens: 7, cache_read_input_tokens: 100 };
    fake.setScenario({ kind: 'ok', text: 'a b c', usage });
    const m = await client.messages.create({ model: MODEL, max_tokens: 64, messages });
    expect(m.usage).toMatchObject(usage);
    const final = await client.messages.stream({ model: MODEL, max_tokens: 64, messages }).finalMessage();
    expect(final.usage).toMatchObject(usage);
  });

  it('messages.stream yields text deltas and finalMessage usage', async () => {
    fake.setScenario({ kind: 'ok', text: 'one two three' });
    const stream = client.messages.stream({ model: MODEL, max_tokens: 64, messages });
    const deltas: string[] = [];
    stream.on('text', (t) => deltas.push(t));
    const m = await stream.finalMessage();
    expect(deltas).toEqual(['one', ' two', ' three']);
    expect(m.content).toEqual([{ type: 'text', text: 'one two three' }]);
    expect(m.stop_reason).toBe('end_turn');
    expect(m.usage).toMatchObject({ input_tokens: 3, output_tokens: 3 });
  });

  it('raw SSE: event names equal types, exact order, ping after first block start, cumulative output_tokens', async () => {
    fake.setScenario({ kind: 'ok', text: 'one two three' });
    const frames = await rawFrames(fake.url);
    for (const [ev, data] of frames) expect(data.type).toBe(ev);
    expect(frames.map(([ev]) => ev)).toEqual([
      'message_start', 'content_block_start', 'ping',
      'content_block_delta', 'content_block_delta', 'content_block_delta',
      'content_block_stop', 'message_delta', 'message_stop',
    ]);
    expect(frames[0][1].message.usage).toEqual({ input_tokens: 3, output_tokens: 1, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 });
    expect(frames[7][1]).toEqual({ type: 'message_delta', delta: { stop_reason: 'end_turn', stop_sequence: null }, usage: { output_tokens: 3 } });
  });

  it('thinking: a thinking block with signature, then text', async () => {
    fake.setScenario({ kind: 'thinking', thinking: 'Let me think about it.', text: 'Done.' });
    const m = await client.messages.create({ model: MODEL, max_tokens: 4096, messages, thinking: { type: 'enabled', budget_tokens: 1024 } });
    expect(m.content.map((b) => b.type)).toEqual(['thinking', 'text']);
    const block = m.content[0] as Anthropic.ThinkingBlock;
    expect(block.thinking).toBe('Let me think about it.');
    expect(block.signature).toMatch(/^EqQB/);
    expect(m.usage.output_tokens).toBe(6);

    const frames = await rawFrames(fake.url);
    const deltaTypes = frames.filter(([ev]) => ev === 'content_block_delta').map(([, d]) => `${d.index}:${d.delta.type}`);
    expect(deltaTypes).toEqual(['0:thinking_delta', '0:thinking_delta', '0:thinking_delta', '0:thinking_delta', '0:thinking_delta', '0:signature_delta', '1:text_delta']);
    expect(frames[1][1].content_block).toEqual({ type: 'thinking', thinking: '', signature: '' });

    const final = await client.messages.stream({ model: MODEL, max_tokens: 4096, messages, thinking: { type: 'enabled', budget_tokens: 1024 } }).finalMessage();
    expect(final.content[0]).toMatchObject({ type: 'thinking', thinking: 'Let me think about it.', signature: expect.stringMatching(/^EqQB/) });
    expect(final.content[1]).toMatchObject({ type: 'text', text: 'Done.' });
  });

  it('tool_use: non-stream input and streamed input_json_delta assembled', async () => {
    const input = { city: 'Paris', unit: 'celsius' };
    const tools = [{ name: 'get_weather', input_schema: { type: 'object' as const, properties: {} } }];
    fake.setScenario({ kind: 'tool_use', name: 'get_weather', input });
    const m = await client.messages.create({ model: MODEL, max_tokens: 64, messages, tools });
    expect(m.stop_reason).toBe('tool_use');
    expect(m.content[0]).toMatchObject({ type: 'tool_use', name: 'get_weather', input, id: expect.stringMatching(/^toolu_/) });

    const stream = client.messages.stream({ model: MODEL, max_tokens: 64, messages, tools });
    const fragments: string[] = [];
    stream.on('inputJson', (partial) => fragments.push(partial));
    const final = await stream.finalMessage();
    expect(final.stop_reason).toBe('tool_use');
    expect(final.content[0]).toMatchObject({ type: 'tool_use', name: 'get_weather', input });
    expect(fragments.length).toBeGreaterThanOrEqual(3);
    expect(fragments.join('')).toBe(JSON.stringify(input));
  });

  it('countTokens returns input_tokens and consumes no scenario', async () => {
    fake.once({ kind: 'status', status: 529 });
    const r = await client.messages.countTokens({ model: MODEL, messages, system: 'Be brief.' });
    expect(r).toEqual({ input_tokens: 5 });
    expect(fake.calls[0].path).toBe('/v1/messages/count_tokens');
    await expect(client.messages.create({ model: MODEL, max_tokens: 64, messages })).rejects.toMatchObject({ status: 529 });
  });

  it('529 -> InternalServerError (OverloadedError) with overloaded_error body', async () => {
    fake.once({ kind: 'status', status: 529, headers: { 'retry-after': '3' } });
    const err = await client.messages.create({ model: MODEL, max_tokens: 64, messages }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Anthropic.InternalServerError);
    expect(err).toBeInstanceOf(Anthropic.APIError);
    const e = err as InstanceType<typeof Anthropic.APIError>;
    expect(e.status).toBe(529);
    expect(e.error).toMatchObject({ type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' }, request_id: expect.stringMatching(/^req_/) });
    expect(e.requestID).toBe((e.error as any).request_id);
    expect(e.headers?.get('retry-after')).toBe('3');
  });

  it('429 -> RateLimitError with rate_limit_error', async () => {
    fake.once({ kind: 'status', status: 429, headers: { 'retry-after': '1' } });
    const err = await client.messages.create({ model: MODEL, max_tokens: 64, messages }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Anthropic.RateLimitError);
    expect((err as any).error.error.type).toBe('rate_limit_error');
  });

  it('401 without key -> AuthenticationError; wrong key too', async () => {
    const r = await fetch(`${fake.url}/v1/messages`, {
      method: 'POST', headers: { 'content-type': 'application/json', 'anthropic-version': '2023-06-01' },
      body: JSON.stringify({ model: MODEL, max_tokens: 64, messages }),
    });
    expect(r.status).toBe(401);
    const body = await r.json();
    expect(body).toEqual({ type: 'error', error: { type: 'authentication_error', message: 'x-api-key header is required' }, request_id: r.headers.get('request-id') });

    const keyless = new Anthropic({ baseURL: fake.url, apiKey: null, authToken: null, maxRetries: 0, defaultHeaders: { authorization: null } });
    await expect(keyless.messages.create({ model: MODEL, max_tokens: 64, messages })).rejects.toBeInstanceOf(Anthropic.AuthenticationError);

    const strict = await startFakeAnthropic({ apiKey: 'secret' });
    try {
      const wrong = new Anthropic({ baseURL: strict.url, apiKey: 'k', maxRetries: 0 });
      await expect(wrong.messages.create({ model: MODEL, max_tokens: 64, messages })).rejects.toBeInstanceOf(Anthropic.AuthenticationError);
      const right = new Anthropic({ baseURL: strict.url, apiKey: 'secret', maxRetries: 0 });
      expect((await right.messages.create({ model: MODEL, max_tokens: 64, messages })).type).toBe('message');
    } finally {
      await strict.close();
    }
  });

  it('missing anthropic-version -> 400 invalid_request_error', async () => {
    const r = await fetch(`${fake.url}/v1/messages`, {
      method: 'POST', headers: { 'content-type': 'application/json', 'x-api-key': 'k' },
      body: JSON.stringify({ model: MODEL, max_tokens: 64, messages }),
    });
    expect(r.status).toBe(400);
    expect((await r.json()).error).toEqual({ type: 'invalid_request_error', message: 'anthropic-version: header is required' });
  });

  it('missing max_tokens -> BadRequestError', async () => {
    const err = await client.messages.create({ model: MODEL, messages } as unknown as Anthropic.MessageCreateParamsNonStreaming).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Anthropic.BadRequestError);
    expect((err as any).error.error).toEqual({ type: 'invalid_request_error', message: 'max_tokens: Field required' });
  });

  it('stream_error -> the stream throws after the deltas', async () => {
    fake.setScenario({ kind: 'stream_error', afterDeltas: 2 });
    const stream = await client.messages.create({ model: MODEL, max_tokens: 64, messages, stream: true });
    const texts: string[] = [];
    const err = await (async () => {
      for await (const ev of stream) if (ev.type === 'content_block_delta' && ev.delta.type === 'text_delta') texts.push(ev.delta.text);
    })().catch((e: unknown) => e);
    expect(texts).toEqual(['Hello', ' from']);
    expect(err).toBeInstanceOf(Anthropic.APIError);
    expect((err as any).error).toMatchObject({ type: 'error', error: { type: 'overloaded_error' } });

    await expect(client.messages.stream({ model: MODEL, max_tokens: 64, messages }).finalMessage()).rejects.toThrow(/overloaded/i);
  });

  it('break_after cuts the stream without message_stop; reset and stall fail the request', async () => {
    fake.once({ kind: 'break_after', deltas: 3 }, { kind: 'reset' }, { kind: 'stall' });
    const stream = await client.messages.create({ model: MODEL, max_tokens: 64, messages, stream: true });
    const types: string[] = [];
    await expect((async () => { for await (const ev of stream) types.push(ev.type); })()).rejects.toThrow();
    expect(types).toEqual(['message_start', 'content_block_start', 'content_block_delta', 'content_block_delta', 'content_block_delta']);

    await expect(client.messages.create({ model: MODEL, max_tokens: 64, messages })).rejects.toBeInstanceOf(Anthropic.APIConnectionError);
    await expect(client.messages.create({ model: MODEL, max_tokens: 64, messages }, { timeout: 300 })).rejects.toBeInstanceOf(Anthropic.APIConnectionTimeoutError);
  });
});
