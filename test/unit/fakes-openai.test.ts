import { describe, it, expect, beforeAll, beforeEach, afterAll } from 'vitest';
import OpenAI from 'openai';
import { startFakeOpenAI, type FakeOpenAI } from '../fakes/openai.js';

const MODEL = 'gpt-4.1';
const messages = [{ role: 'user' as const, content: 'Hello there' }]; // 11 chars -> 3 prompt tokens

describe('fake OpenAI upstream', () => {
  let fake: FakeOpenAI;
  let client: OpenAI;

  beforeAll(async () => {
    fake = await startFakeOpenAI();
    client = new OpenAI({ baseURL: fake.url, apiKey: 'x', maxRetries: 0 });
  });
  afterAll(async () => { await fake.close(); });
  beforeEach(() => fake.reset());

  it('non-stream create returns text, echoed model and usage', async () => {
    const r = await client.chat.completions.create({ model: MODEL, messages });
    expect(r.object).toBe('chat.completion');
    expect(r.model).toBe(MODEL);
    expect(r.choices[0].message.content).toBe('Hello from the fake upstream.');
    expect(r.choices[0].finish_reason).toBe('stop');
    expect(r.usage).toMatchObject({ prompt_tokens: 3, completion_tokens: 5, total_tokens: 8 });
    expect(r.usage?.completion_tokens_details?.reasoning_tokens).toBe(0);
    expect(r._request_id).toMatch(/^req_/);
  });

  it('stream without include_usage has no usage and ends', async () => {
    fake.setScenario({ kind: 'ok', text: 'one two three' });
    const stream = await client.chat.completions.create({ model: MODEL, messages, stream: true });
    const chunks = [];
    for await (const c of stream) chunks.push(c);
    expect(chunks.every((c) => !('usage' in c))).toBe(true);
    expect(chunks[0].choices[0].delta.role).toBe('assistant');
    expect(chunks.map((c) => c.choices[0].delta.content ?? '').join('')).toBe('one two three');
    expect(chunks.length).toBe(1 + 3 + 1); // role, one delta per word, finish
    expect(chunks.at(-1)!.choices[0].finish_reason).toBe('stop');
    expect(new Set(chunks.map((c) => c.id)).size).toBe(1);
  });

  it('stream with include_usage ends with a usage-only chunk', async () => {
    fake.setScenario({ kind: 'ok', chunks: 2 });
    const stream = await client.chat.completions.create({ model: MODEL, messages, stream: true, stream_options: { include_usage: true } });
    const chunks = [];
    for await (const c of stream) chunks.push(c);
    const last = chunks.at(-1)!;
    expect(last.choices).toEqual([]);
    expect(last.usage).toMatchObject({ prompt_tokens: 3, completion_tokens: 5, total_tokens: 8 });
    expect(chunks.slice(0, -1).every((c) => c.usage === null)).toBe(true);
    expect(chunks.length).toBe(1 + 2 + 1 + 1); // role, 2 content deltas, finish, usage
  });

  it('tool_call stream assembles to the full arguments', async () => {
    const args = '{"city":"Paris","unit":"celsius"}';
    fake.once({ kind: 'tool_call', name: 'get_weather', arguments: args });
    const stream = await client.chat.completions.create({ model: MODEL, messages, stream: true });
    const calls: Record<number, { id?: string; name?: string; args: string }> = {};
    let finish: string | null = null;
    for await (const c of stream) {
      for (const tc of c.choices[0]?.delta.tool_calls ?? []) {
        const acc = (calls[tc.index] ??= { args: '' });
        acc.id ??= tc.id;
        acc.name ??= tc.function?.name;
        acc.args += tc.function?.arguments ?? '';
      }
      finish = c.choices[0]?.finish_reason ?? finish;
    }
    expect(Object.keys(calls)).toEqual(['0']);
    expect(calls[0]).toMatchObject({ name: 'get_weather', args });
    expect(calls[0].id).toMatch(/^call_/);
    expect(finish).toBe('tool_calls');
    // once() is consumed: the next request falls back to the default text answer
    const r = await client.chat.completions.create({ model: MODEL, messages });
    expect(r.choices[0].message.content).toBe('Hello from the fake upstream.');
  });

  it('non-stream tool_call answer', async () => {
    fake.once({ kind: 'tool_call', name: 'f', arguments: '{}' });
    const r = await client.chat.completions.create({ model: MODEL, messages });
    expect(r.choices[0].finish_reason).toBe('tool_calls');
    expect(r.choices[0].message.content).toBeNull();
    expect(r.choices[0].message.tool_calls?.[0]).toMatchObject({ type: 'function', function: { name: 'f', arguments: '{}' } });
  });

  it('status 429 raises RateLimitError with the OpenAI error shape', async () => {
    fake.once({ kind: 'status', status: 429, headers: { 'retry-after': '1' } });
    const err = await client.chat.completions.create({ model: MODEL, messages }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OpenAI.RateLimitError);
    const e = err as InstanceType<typeof OpenAI.RateLimitError>;
    expect(e.code).toBe('rate_limit_exceeded');
    expect(e.type).toBe('requests');
    expect(e.headers.get('retry-after')).toBe('1');
    expect(e.headers.get('x-request-id')).toMatch(/^req_/);
  });

  it('break_after makes the stream iterator throw', async () => {
    fake.once({ kind: 'break_after', chunks: 2 });
    const stream = await client.chat.completions.create({ model: MODEL, messages, stream: true, stream_options: { include_usage: true } });
    const seen: unknown[] = [];
    await expect((async () => { for await (const c of stream) seen.push(c); })()).rejects.toThrow();
    expect(seen.length).toBeLessThanOrEqual(3);
  });

  it('empty_stream yields nothing', async () => {
    fake.once({ kind: 'empty_stream' });
    const stream = await client.chat.completions.create({ model: MODEL, messages, stream: true });
    const chunks = [];
    for await (const c of stream) chunks.push(c);
    expect(chunks).toEqual([]);
  });

  it('reset and stall fail the client, and close() does not hang on a stalled socket', async () => {
    fake.once({ kind: 'reset' });
    await expect(client.chat.completions.create({ model: MODEL, messages })).rejects.toBeInstanceOf(OpenAI.APIConnectionError);
    fake.once({ kind: 'stall' });
    const quick = new OpenAI({ baseURL: fake.url, apiKey: 'x', maxRetries: 0, timeout: 150 });
    await expect(quick.chat.completions.create({ model: MODEL, messages })).rejects.toBeInstanceOf(OpenAI.APIConnectionTimeoutError);

    const other = await startFakeOpenAI();
    other.setScenario({ kind: 'stall' });
    const pending = fetch(`${other.url}/chat/completions`, { method: 'POST', body: JSON.stringify({ model: MODEL, messages }) }).catch((e: unknown) => e);
    await new Promise((r) => setTimeout(r, 50));
    await other.close();
    expect(await pending).toBeInstanceOf(Error);
  });

  it('calls records the parsed body, method, path and headers', async () => {
    await client.chat.completions.create({ model: MODEL, messages, temperature: 0.5 });
    expect(fake.calls).toHaveLength(1);
    const call = fake.calls[0];
    expect(call.method).toBe('POST');
    expect(call.path).toBe('/v1/chat/completions');
    expect(call.headers.authorization).toBe('Bearer x');
    expect(call.body).toEqual({ model: MODEL, messages, temperature: 0.5 });
  });

  it('rejects invalid JSON, missing messages and unknown routes in the OpenAI error shape', async () => {
    const post = (path: string, body: string) => fetch(`${fake.url}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    const bad = await post('/chat/completions', '{nope');
    expect(bad.status).toBe(400);
    expect((await bad.json()).error).toMatchObject({ type: 'invalid_request_error', param: null, code: null });
    expect(fake.calls.at(-1)!.body).toBe('{nope');
    const missing = await post('/chat/completions', JSON.stringify({ model: MODEL }));
    expect(missing.status).toBe(400);
    expect((await missing.json()).error).toMatchObject({ param: 'messages', code: 'missing_required_parameter' });
    const nf = await post('/nope', '{}');
    expect(nf.status).toBe(404);
    expect(nf.headers.get('x-request-id')).toMatch(/^req_/);
    expect(Object.keys((await nf.json()).error).sort()).toEqual(['code', 'message', 'param', 'type']);
  });

  it('lists models', async () => {
    const page = await client.models.list();
    expect(page.data.map((m) => m.id)).toContain('gpt-4.1');
    expect(page.data[0]).toMatchObject({ object: 'model', owned_by: 'system' });
  });

  it('serves the Responses API, plain and streamed', async () => {
    const r = await client.responses.create({ model: MODEL, input: 'Hello there' });
    expect(r.status).toBe('completed');
    expect(r.model).toBe(MODEL);
    expect(r.output_text).toBe('Hello from the fake upstream.');
    expect(r.usage).toMatchObject({ input_tokens: 3, output_tokens: 5, total_tokens: 8 });

    const stream = await client.responses.create({ model: MODEL, input: [{ role: 'user', content: 'Hello there' }], stream: true });
    const events = [];
    for await (const ev of stream) events.push(ev);
    expect(events.map((e) => e.sequence_number)).toEqual(events.map((_, i) => i));
    expect(events[0].type).toBe('response.created');
    const last = events.at(-1)!;
    expect(last.type).toBe('response.completed');
    if (last.type === 'response.completed') expect(last.response.usage?.total_tokens).toBe(8);
    const text = events.flatMap((e) => (e.type === 'response.output_text.delta' ? [e.delta] : [])).join('');
    expect(text).toBe('Hello from the fake upstream.');
  });

  it('enforces the api key when configured', async () => {
    const guarded = await startFakeOpenAI({ apiKey: 'sk-good' });
    try {
      const wrong = new OpenAI({ baseURL: guarded.url, apiKey: 'sk-bad', maxRetries: 0 });
      const err = await wrong.chat.completions.create({ model: MODEL, messages }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(OpenAI.AuthenticationError);
      expect((err as InstanceType<typeof OpenAI.AuthenticationError>).code).toBe('invalid_api_key');
      const right = new OpenAI({ baseURL: guarded.url, apiKey: 'sk-good', maxRetries: 0 });
      await expect(right.chat.completions.create({ model: MODEL, messages })).resolves.toMatchObject({ model: MODEL });
    } finally {
      await guarded.close();
    }
  });

  it('slow delays the answer but still completes', async () => {
    fake.once({ kind: 'slow', delayMs: 30, text: 'a b' });
    const t0 = Date.now();
    const stream = await client.chat.completions.create({ model: MODEL, messages, stream: true });
    let text = '';
    for await (const c of stream) text += c.choices[0]?.delta.content ?? '';
    expect(text).toBe('a b');
    expect(Date.now() - t0).toBeGreaterThanOrEqual(100); // headers + 4 gaps of 30ms
  });
});
