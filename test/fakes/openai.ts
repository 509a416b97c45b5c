// Fake OpenAI upstream for integration tests. Wire shapes follow ../../docs/vendors/openai.md; `streamUsage` switches
// to where other OpenAI-compatible vendors put usage in a stream (../../docs/vendors/README.md, zhipu-glm.md, xai.md).
import type http from 'node:http';
import { randomBytes } from 'node:crypto';
import {
  approxTokens, callOf, gone, isFault, openSse, parseJson, playFault, readBody, scenarios, sendJson as send, serveFake,
  splitText, textChars, wordCount, writeFrames, type Fault, type FakeCall,
} from './scenarios.js';

export type { FakeCall } from './scenarios.js';
/** The fake's own answers, and every fault of the scenario engine (./scenarios.ts). */
export type Scenario =
  | { kind: 'ok'; text?: string; chunks?: number; usage?: { prompt_tokens: number; completion_tokens: number } }
  | { kind: 'tool_call'; name: string; arguments: string }
  | Fault;
export interface FakeOpenAI {
  url: string;
  origin: string;
  calls: FakeCall[];
  setScenario(s: Scenario): void;
  once(...s: Scenario[]): void;
  reset(): void;
  close(): Promise<void>;
}

type Res = http.ServerResponse;
interface Usage { prompt_tokens: number; completion_tokens: number }
/**
 * Where a stream carries usage:
 * - `openai` (also DashScope compatible mode, Ark): only with include_usage, `"usage":null` on every chunk and one
 *   extra final chunk with `choices: []` and the totals;
 * - `glm` (Zhipu): always, on the last chunk together with `finish_reason`; chunks have no `object` field;
 * - `xai` (Grok, reported in BerriAI/litellm#17136): with include_usage, on the finish chunk, followed by a final
 *   chunk with `choices: []` and no usage.
 */
export type StreamUsageStyle = 'openai' | 'glm' | 'xai';
interface ChatCtx { res: Res; model: string; stream: boolean; includeUsage: boolean; promptTokens: number; signal: AbortSignal; streamUsage: StreamUsageStyle }

const DEFAULT_TEXT = 'Hello from the fake upstream.';
const MODELS = ['gpt-4.1', 'gpt-4.1-mini', 'gpt-4o-mini', 'o4-mini'];
const FINGERPRINT = 'fp_fake';

const newId = (prefix: string) => prefix + randomBytes(12).toString('hex');
const now = () => Math.floor(Date.now() / 1000);

function errorBody(message: string, type: string, param: string | null = null, code: string | null = null) {
  return { error: { message, type, param, code } };
}

const STATUS_ERRORS: Record<number, [string, string, string | null]> = {
  400: ['Invalid request.', 'invalid_request_error', null],
  401: ['Incorrect API key provided: sk-fake***. You can find your API key at https://platform.openai.com/account/api-keys.', 'invalid_request_error', 'invalid_api_key'],
  403: ['Country, region, or territory not supported', 'request_forbidden', 'unsupported_country_region_territory'],
  404: ['The model does not exist or you do not have access to it.', 'invalid_request_error', 'model_not_found'],
  429: ['Rate limit reached for requests. Please try again in 1s.', 'requests', 'rate_limit_exceeded'],
};

function defaultError(status: number) {
  const [message, type, code] = STATUS_ERRORS[status]
    ?? (status >= 500 ? ['The server had an error while processing your request. Sorry about that!', 'server_error', null] : [`Request failed with status ${status}.`, 'invalid_request_error', null]);
  return errorBody(message, type, null, code);
}

const JSON_TYPE = 'application/json';
const sendJson = (res: Res, status: number, body: unknown) => send(res, status, body, JSON_TYPE);

// Speech answers audio bytes whatever the voice or format (openai.md "Audio"); tests only need the relay.
const FAKE_AUDIO = Buffer.from('ID3\u0004fake-mp3-frames');
function sendAudio(res: Res): void {
  res.writeHead(200, { 'content-type': 'audio/mpeg', 'content-length': FAKE_AUDIO.length });
  res.end(FAKE_AUDIO);
}


function chatUsage(u: Usage) {
  return {
    prompt_tokens: u.prompt_tokens, completion_tokens: u.completion_tokens, total_tokens: u.prompt_tokens + u.completion_tokens,
    prompt_tokens_details: { cached_tokens: 0, audio_tokens: 0 },
    completion_tokens_details: { reasoning_tokens: 0, audio_tokens: 0, accepted_prediction_tokens: 0, rejected_prediction_tokens: 0 },
  };
}

function completion(ctx: ChatCtx, message: object, finish: string, usage: Usage) {
  return {
    id: newId('chatcmpl-'), object: 'chat.completion', created: now(), model: ctx.model, service_tier: 'default', system_fingerprint: FINGERPRINT,
    choices: [{ index: 0, logprobs: null, finish_reason: finish, message: { refusal: null, annotations: [], ...message } }],
    usage: chatUsage(usage),
  };
}

/** SSE frames for a streamed chat answer: role/first delta, content deltas, finish, usage where the vendor puts it, [DONE]. */
function chatFrames(ctx: ChatCtx, deltas: object[], finish: string, usage: Usage): string[] {
  const id = newId('chatcmpl-');
  const base = ctx.streamUsage === 'glm'
    ? { id, created: now(), model: ctx.model }
    : { id, object: 'chat.completion.chunk', created: now(), model: ctx.model, service_tier: 'default', system_fingerprint: FINGERPRINT };
  const usageNull = ctx.includeUsage && ctx.streamUsage === 'openai' ? { usage: null } : {};
  const chunk = (delta: object, finish_reason: string | null = null) =>
    ({ ...base, choices: [{ index: 0, delta, logprobs: null, finish_reason }], ...usageNull });
  const payloads: object[] = deltas.map((d) => chunk(d));
  const finishOnly = chunk({}, finish);
  if (ctx.streamUsage === 'glm') payloads.push({ ...finishOnly, usage: chatUsage(usage) });
  else if (ctx.streamUsage === 'xai' && ctx.includeUsage) payloads.push({ ...finishOnly, usage: chatUsage(usage) }, { ...base, choices: [] });
  else payloads.push(finishOnly);
  if (ctx.streamUsage === 'openai' && ctx.includeUsage) payloads.push({ ...base, choices: [], usage: chatUsage(usage) });
  return [...payloads.map((p) => `data: ${JSON.stringify(p)}\n\n`), 'data: [DONE]\n\n'];
}

async function answerText(ctx: ChatCtx, text: string, opts: { chunks?: number; usage?: Usage; delayMs?: number } = {}) {
  const usage = opts.usage ?? { prompt_tokens: ctx.promptTokens, completion_tokens: wordCount(text) };
  if (!ctx.stream) return sendJson(ctx.res, 200, completion(ctx, { role: 'assistant', content: text }, 'stop', usage));
  const deltas = [{ role: 'assistant', content: '', refusal: null }, ...splitText(text, opts.chunks).map((content) => ({ content }))];
  openSse(ctx.res);
  await writeFrames(ctx.res, chatFrames(ctx, deltas, 'stop', usage), opts.delayMs ?? 0, ctx.signal);
  if (!gone(ctx.res)) ctx.res.end();
}

async function answerTool(ctx: ChatCtx, name: string, args: string) {
  const usage = { prompt_tokens: ctx.promptTokens, completion_tokens: approxTokens(args.length) };
  const id = newId('call_');
  if (!ctx.stream) {
    const message = { role: 'assistant', content: null, tool_calls: [{ id, type: 'function', function: { name, arguments: args } }] };
    return sendJson(ctx.res, 200, completion(ctx, message, 'tool_calls', usage));
  }
  const first = { role: 'assistant', content: null, refusal: null, tool_calls: [{ index: 0, id, type: 'function', function: { name, arguments: '' } }] };
  const rest = splitText(args, Math.min(4, args.length)).map((arguments_) => ({ tool_calls: [{ index: 0, function: { arguments: arguments_ } }] }));
  openSse(ctx.res);
  await writeFrames(ctx.res, chatFrames(ctx, [first, ...rest], 'tool_calls', usage), 0, ctx.signal);
  if (!gone(ctx.res)) ctx.res.end();
}

/** Stream frames of a cut answer: the role delta and exactly `n` content deltas (the words cycled), nothing after. */
function partialFrames(ctx: ChatCtx, n: number): string[] {
  const words = splitText(DEFAULT_TEXT);
  const deltas = [{ role: 'assistant', content: '', refusal: null }, ...Array.from({ length: n }, (_, i) => ({ content: words[i % words.length] }))];
  return chatFrames(ctx, deltas, 'stop', { prompt_tokens: 0, completion_tokens: 0 }).slice(0, deltas.length);
}

async function handleChat(ctx: ChatCtx, s: Scenario): Promise<void> {
  if (isFault(s)) {
    return playFault(s, {
      res: ctx.res, stream: ctx.stream, signal: ctx.signal, jsonType: JSON_TYPE, errorBody: defaultError,
      partialStream: (n) => partialFrames(ctx, n),
      fullBody: () => JSON.stringify(completion(ctx, { role: 'assistant', content: DEFAULT_TEXT }, 'stop', { prompt_tokens: ctx.promptTokens, completion_tokens: 5 })),
      answer: (slow) => answerText(ctx, slow.text ?? DEFAULT_TEXT, { delayMs: slow.delayMs }),
    });
  }
  switch (s.kind) {
    case 'ok': return answerText(ctx, s.text ?? DEFAULT_TEXT, { chunks: s.chunks, usage: s.usage });
    case 'tool_call': return answerTool(ctx, s.name, s.arguments);
  }
}

function responseObject(id: string, body: any, status: string, output: object[], usage: object | null) {
  return {
    id, object: 'response', created_at: now(), status, background: false, error: null, incomplete_details: null,
    instructions: body.instructions ?? null, max_output_tokens: body.max_output_tokens ?? null, model: body.model, output,
    parallel_tool_calls: true, previous_response_id: body.previous_response_id ?? null, reasoning: { effort: null, summary: null },
    service_tier: 'default', store: body.store ?? true, temperature: body.temperature ?? 1, text: { format: { type: 'text' }, verbosity: 'medium' },
    tool_choice: 'auto', tools: [], top_p: body.top_p ?? 1, truncation: 'disabled', usage, user: null, metadata: body.metadata ?? {},
  };
}

async function handleResponses(res: Res, body: any, signal: AbortSignal): Promise<void> {
  const text = DEFAULT_TEXT;
  const input = approxTokens(textChars(body.input) + textChars(body.instructions));
  const output = wordCount(text);
  const usage = { input_tokens: input, input_tokens_details: { cached_tokens: 0 }, output_tokens: output, output_tokens_details: { reasoning_tokens: 0 }, total_tokens: input + output };
  const id = newId('resp_');
  const msgId = newId('msg_');
  const part = { type: 'output_text', text, annotations: [], logprobs: [] };
  const item = { type: 'message', id: msgId, status: 'completed', role: 'assistant', content: [part] };
  if (!body.stream) return sendJson(res, 200, responseObject(id, body, 'completed', [item], usage));
  const pending = responseObject(id, body, 'in_progress', [], null);
  const at = { item_id: msgId, output_index: 0, content_index: 0 };
  const events: [string, object][] = [
    ['response.created', { response: pending }],
    ['response.in_progress', { response: pending }],
    ['response.output_item.added', { output_index: 0, item: { ...item, status: 'in_progress', content: [] } }],
    ['response.content_part.added', { ...at, part: { ...part, text: '' } }],
    ...splitText(text).map((delta): [string, object] => ['response.output_text.delta', { ...at, delta, logprobs: [] }]),
    ['response.output_text.done', { ...at, text, logprobs: [] }],
    ['response.content_part.done', { ...at, part }],
    ['response.output_item.done', { output_index: 0, item }],
    ['response.completed', { response: responseObject(id, body, 'completed', [item], usage) }],
  ];
  openSse(res);
  const frames = events.map(([type, data], sequence_number) => `event: ${type}\ndata: ${JSON.stringify({ type, sequence_number, ...data })}\n\n`);
  await writeFrames(res, frames, 0, signal);
  if (!gone(res)) res.end();
}

const modelEntry = (id: string) => ({ id, object: 'model', created: 1744316542, owned_by: 'system' });

/**
 * `chatPath`: where chat completions are served (DashScope's compatible mode is `/compatible-mode/v1/chat/completions`);
 * `models`: what `GET /v1/models` lists (the account's models).
 */
export async function startFakeOpenAI(opts: { apiKey?: string; streamUsage?: StreamUsageStyle; chatPath?: string; models?: string[] } = {}): Promise<FakeOpenAI> {
  const chatPath = opts.chatPath ?? '/v1/chat/completions';
  const plays = scenarios<Scenario>({ kind: 'ok' });
  const calls: FakeCall[] = [];
  const aborter = new AbortController(); // cuts slow-scenario sleeps short on close()

  async function handle(req: http.IncomingMessage, res: Res): Promise<void> {
    const raw = (await readBody(req)).toString('utf8');
    const parsed = parseJson(raw);
    calls.push(callOf(req, parsed.ok ? parsed.value : raw));
    res.setHeader('x-request-id', newId('req_'));
    res.setHeader('openai-version', '2020-10-01');
    res.setHeader('connection', 'keep-alive');

    if (opts.apiKey && req.headers.authorization !== `Bearer ${opts.apiKey}`) return sendJson(res, 401, defaultError(401));
    const path = (req.url ?? '/').split('?')[0];
    const route = `${req.method} ${path}`;
    if (route === 'GET /v1/models') return sendJson(res, 200, { object: 'list', data: (opts.models ?? MODELS).map(modelEntry) });
    if (req.method === 'GET' && path.startsWith('/v1/models/')) return sendJson(res, 200, modelEntry(decodeURIComponent(path.slice(11))));
    if (route === 'POST /v1/audio/speech') return sendAudio(res);
    if (route !== `POST ${chatPath}` && route !== 'POST /v1/responses') {
      return sendJson(res, 404, errorBody(`Invalid URL (${req.method} ${path})`, 'invalid_request_error'));
    }
    if (!parsed.ok) {
      return sendJson(res, 400, errorBody("We could not parse the JSON body of your request. (HINT: This likely means you aren't using your HTTP library correctly. The OpenAI API expects a JSON payload, but what was sent was not valid JSON.)", 'invalid_request_error'));
    }
    const body = parsed.value ?? {};
    if (typeof body !== 'object' || Array.isArray(body) || !body.model) return sendJson(res, 400, errorBody('you must provide a model parameter', 'invalid_request_error'));
    if (path === '/v1/responses') {
      // A status scenario answers the responses endpoint too (the failover and fallback tests of that protocol).
      const play = plays.next();
      if (play.kind === 'status') {
        for (const [name, value] of Object.entries(play.headers ?? {})) res.setHeader(name, value);
        return sendJson(res, play.status, play.body ?? defaultError(play.status));
      }
      return handleResponses(res, body, aborter.signal);
    }
    if (!Array.isArray(body.messages)) {
      return sendJson(res, 400, errorBody("Missing required parameter: 'messages'.", 'invalid_request_error', 'messages', 'missing_required_parameter'));
    }
    const ctx: ChatCtx = {
      res, model: String(body.model), stream: body.stream === true, includeUsage: body.stream === true && body.stream_options?.include_usage === true,
      promptTokens: approxTokens(textChars(body.messages)), signal: aborter.signal, streamUsage: opts.streamUsage ?? 'openai',
    };
    return handleChat(ctx, plays.next());
  }

  const crash = (res: Res, err: unknown) => sendJson(res, 500, errorBody(`fake upstream crashed: ${String(err)}`, 'server_error'));
  const { origin, close } = await serveFake(handle, crash, aborter);
  return {
    url: `${origin}/v1`,
    origin,
    calls,
    setScenario: plays.setScenario,
    once: plays.once,
    reset() { calls.length = 0; plays.reset(); },
    close,
  };
}
