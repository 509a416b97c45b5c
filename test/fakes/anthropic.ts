// Fake Anthropic (Claude Messages API) upstream for tests. Wire shapes follow ../../docs/vendors/anthropic.md.
// Error wordings that real API responses show verbatim: "x-api-key header is required", "max_tokens: Field required",
// and "anthropic-version: header is required" (which the real API answers with 400 invalid_request_error, not 401).
import type http from 'node:http';
import { randomBytes } from 'node:crypto';
import {
  approxTokens, callOf, gone, openSse, parseJson, playFault, readBody, scenarios, sendJson as send, serveFake, splitText,
  textChars, wordCount, writeFrames as write, type FakeCall,
} from './scenarios.js';

export type { FakeCall } from './scenarios.js';
export interface AnthropicUsage {
  input_tokens: number;
  output_tokens: number;
  cache_creation_input_tokens?: number;
  cache_read_input_tokens?: number;
}
export type AnthropicScenario =
  /** `delayMs`: a pause before each frame after the first (a stream's pace). */
  | { kind: 'ok'; text?: string; usage?: AnthropicUsage; delayMs?: number }
  /** A thinking block (with signature), then a text block. */
  | { kind: 'thinking'; thinking: string; text?: string }
  /** stop_reason tool_use; streamed as an empty then three input_json_delta fragments. */
  | { kind: 'tool_use'; name: string; input: Record<string, unknown> }
  /** HTTP error with the Anthropic error body; errorType/message default from the status (529 → overloaded_error). */
  | { kind: 'status'; status: number; errorType?: string; message?: string; headers?: Record<string, string> }
  /** Stream: message_start, text block start, ping, N text deltas, then `event: error` and end. Non-stream: the matching HTTP error. */
  | { kind: 'stream_error'; afterDeltas: number; errorType?: string }
  /**
   * Stream: cut the socket after N text deltas (no message_delta / message_stop); `usage`: message_start's counts
   * (default: the input as counted, no cache). Non-stream: cut mid-body.
   */
  | { kind: 'break_after'; deltas: number; usage?: AnthropicUsage }
  | { kind: 'stall' }
  | { kind: 'reset' };
export interface FakeAnthropic {
  url: string; // origin, e.g. http://127.0.0.1:PORT — SDKs take it without /v1
  calls: FakeCall[];
  setScenario(s: AnthropicScenario): void;
  once(...s: AnthropicScenario[]): void;
  reset(): void;
  close(): Promise<void>;
}

type Res = http.ServerResponse;
type Block =
  | { type: 'text'; text: string }
  | { type: 'thinking'; thinking: string; signature: string }
  | { type: 'tool_use'; id: string; name: string; input: Record<string, unknown> };
interface Ctx { res: Res; model: string; stream: boolean; inputTokens: number; signal: AbortSignal }

const DEFAULT_TEXT = 'Hello from the fake upstream.';

// status → [error.type, default message]
const ERRORS: Record<number, [string, string]> = {
  400: ['invalid_request_error', 'Invalid request.'],
  401: ['authentication_error', 'invalid x-api-key'],
  402: ['billing_error', 'Your credit balance is too low to access the Anthropic API.'],
  403: ['permission_error', 'Your API key does not have permission to use the specified resource.'],
  404: ['not_found_error', 'Not Found'],
  413: ['request_too_large', 'Request exceeds the maximum allowed number of bytes.'],
  429: ['rate_limit_error', 'This request would exceed the rate limit for your organization. Please try again later.'],
  500: ['api_error', 'Internal server error'],
  504: ['timeout_error', 'Request timeout'],
  529: ['overloaded_error', 'Overloaded'],
};
const errorFor = (status: number): [string, string] =>
  ERRORS[status] ?? (status >= 500 ? ERRORS[500] : ['invalid_request_error', `Request failed with status ${status}.`]);
/** [status, default message] for an error.type; unknown types map to 500 with the type as message. */
function byType(type: string): [number, string] {
  const hit = Object.entries(ERRORS).find(([, [t]]) => t === type);
  return hit ? [Number(hit[0]), hit[1][1]] : [500, type];
}

const newId = (prefix: string) => prefix + randomBytes(12).toString('base64url');
const JSON_TYPE = 'application/json';
const sendJson = (res: Res, status: number, body: unknown, headers: Record<string, string> = {}) => send(res, status, body, JSON_TYPE, headers);

function sendError(res: Res, status: number, type: string, message: string, headers: Record<string, string> = {}): void {
  sendJson(res, status, { type: 'error', error: { type, message }, request_id: res.getHeader('request-id') }, headers);
}

const sse = (type: string, data: object = {}) => `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`;

/** The stream's 200 and headers unless sent, then the frames. */
async function writeFrames(res: Res, frames: string[], delayMs = 0, signal?: AbortSignal): Promise<void> {
  if (!res.headersSent) openSse(res);
  await write(res, frames, delayMs, signal);
}

function fullUsage(u: AnthropicUsage) {
  const cacheCreation = u.cache_creation_input_tokens ?? 0;
  return {
    input_tokens: u.input_tokens, output_tokens: u.output_tokens,
    cache_creation_input_tokens: cacheCreation, cache_read_input_tokens: u.cache_read_input_tokens ?? 0,
    cache_creation: { ephemeral_5m_input_tokens: cacheCreation, ephemeral_1h_input_tokens: 0 },
    server_tool_use: null, service_tier: 'standard',
  };
}

function messageStart(ctx: Ctx, id: string, u: AnthropicUsage): string {
  const usage = {
    input_tokens: u.input_tokens, output_tokens: 1,
    cache_creation_input_tokens: u.cache_creation_input_tokens ?? 0, cache_read_input_tokens: u.cache_read_input_tokens ?? 0,
  };
  const message = { id, type: 'message', role: 'assistant', model: ctx.model, content: [], stop_reason: null, stop_sequence: null, usage };
  return sse('message_start', { message });
}

/** content_block_start, its deltas, content_block_stop. */
function blockFrames(block: Block, index: number): string[] {
  const delta = (d: object) => sse('content_block_delta', { index, delta: d });
  let start: object;
  let deltas: string[];
  if (block.type === 'text') {
    start = { type: 'text', text: '' };
    deltas = splitText(block.text).map((text) => delta({ type: 'text_delta', text }));
  } else if (block.type === 'thinking') {
    start = { type: 'thinking', thinking: '', signature: '' };
    deltas = [
      ...splitText(block.thinking).map((thinking) => delta({ type: 'thinking_delta', thinking })),
      delta({ type: 'signature_delta', signature: block.signature }),
    ];
  } else {
    start = { type: 'tool_use', id: block.id, name: block.name, input: {} };
    deltas = ['', ...splitText(JSON.stringify(block.input), 3)].map((partial_json) => delta({ type: 'input_json_delta', partial_json }));
  }
  return [sse('content_block_start', { index, content_block: start }), ...deltas, sse('content_block_stop', { index })];
}

async function answer(ctx: Ctx, blocks: Block[], stopReason: string, usage: AnthropicUsage, delayMs = 0): Promise<void> {
  const id = newId('msg_01');
  if (!ctx.stream) {
    const message = { id, type: 'message', role: 'assistant', model: ctx.model, content: blocks, stop_reason: stopReason, stop_sequence: null, usage: fullUsage(usage) };
    return sendJson(ctx.res, 200, message);
  }
  const frames = [messageStart(ctx, id, usage), ...blocks.flatMap(blockFrames)];
  frames.splice(2, 0, sse('ping')); // right after the first content_block_start, like the real API
  frames.push(
    sse('message_delta', { delta: { stop_reason: stopReason, stop_sequence: null }, usage: { output_tokens: usage.output_tokens } }),
    sse('message_stop'),
  );
  await writeFrames(ctx.res, frames, delayMs, ctx.signal);
  if (!gone(ctx.res)) ctx.res.end();
}

/** Stream prefix shared by stream_error and break_after: message_start, text block start, ping, exactly n text deltas. */
function partialFrames(ctx: Ctx, n: number, usage: AnthropicUsage = { input_tokens: ctx.inputTokens, output_tokens: 1 }): string[] {
  const words = splitText(DEFAULT_TEXT);
  return [
    messageStart(ctx, newId('msg_01'), usage),
    sse('content_block_start', { index: 0, content_block: { type: 'text', text: '' } }),
    sse('ping'),
    ...Array.from({ length: n }, (_, i) => sse('content_block_delta', { index: 0, delta: { type: 'text_delta', text: words[i % words.length] } })),
  ];
}

async function handleMessages(ctx: Ctx, s: AnthropicScenario): Promise<void> {
  const { res } = ctx;
  switch (s.kind) {
    case 'ok': {
      const text = s.text ?? DEFAULT_TEXT;
      return answer(ctx, [{ type: 'text', text }], 'end_turn', s.usage ?? { input_tokens: ctx.inputTokens, output_tokens: wordCount(text) }, s.delayMs);
    }
    case 'thinking': {
      const text = s.text ?? DEFAULT_TEXT;
      const signature = 'EqQB' + randomBytes(48).toString('base64');
      const usage = { input_tokens: ctx.inputTokens, output_tokens: wordCount(s.thinking) + wordCount(text) };
      return answer(ctx, [{ type: 'thinking', thinking: s.thinking, signature }, { type: 'text', text }], 'end_turn', usage);
    }
    case 'tool_use': {
      const usage = { input_tokens: ctx.inputTokens, output_tokens: approxTokens(JSON.stringify(s.input).length) };
      return answer(ctx, [{ type: 'tool_use', id: newId('toolu_01'), name: s.name, input: s.input }], 'tool_use', usage);
    }
    case 'status': {
      const [type, message] = errorFor(s.status);
      const errorType = s.errorType ?? type;
      return sendError(res, s.status, errorType, s.message ?? (s.errorType ? byType(s.errorType)[1] : message), s.headers);
    }
    case 'stream_error': {
      const type = s.errorType ?? 'overloaded_error';
      const [status, message] = byType(type);
      if (!ctx.stream) return sendError(res, status, type, message);
      await writeFrames(res, [...partialFrames(ctx, s.afterDeltas), sse('error', { error: { type, message } })]);
      if (!gone(res)) res.end();
      return;
    }
    case 'break_after':
      return playFault({ kind: 'break_after', chunks: s.deltas }, {
        res, stream: ctx.stream, signal: ctx.signal, jsonType: JSON_TYPE,
        partialStream: (n) => partialFrames(ctx, n, s.usage),
        fullBody: () => JSON.stringify({ id: newId('msg_01'), type: 'message', role: 'assistant', model: ctx.model, content: [{ type: 'text', text: DEFAULT_TEXT }] }),
      });
    case 'stall': case 'reset': return playFault(s, { res, stream: ctx.stream, signal: ctx.signal, jsonType: JSON_TYPE });
  }
}

/** `GET /v1/models` (../../docs/vendors/anthropic.md "Models"): newest first, one page. */
const DEFAULT_MODELS = ['claude-sonnet-4-5-20250929', 'claude-haiku-4-5-20251001'];
function modelPage(ids: string[]) {
  const data = ids.map((id) => ({ type: 'model', id, display_name: id, created_at: '2025-09-29T00:00:00Z' }));
  return { data, has_more: false, first_id: ids[0] ?? null, last_id: ids.at(-1) ?? null };
}

/** `models`: what `GET /v1/models` lists. */
export async function startFakeAnthropic(opts: { apiKey?: string; models?: string[] } = {}): Promise<FakeAnthropic> {
  const plays = scenarios<AnthropicScenario>({ kind: 'ok' });
  const calls: FakeCall[] = [];
  const aborter = new AbortController();

  async function handle(req: http.IncomingMessage, res: Res): Promise<void> {
    const raw = (await readBody(req)).toString('utf8');
    const json = parseJson(raw);
    const parsed = json.ok;
    const body: any = json.ok ? json.value : raw;
    calls.push(callOf(req, body));
    res.setHeader('request-id', newId('req_011'));
    res.setHeader('connection', 'keep-alive');

    const key = req.headers['x-api-key'];
    const bearer = req.headers.authorization?.match(/^Bearer (.+)$/)?.[1];
    if (!key && !bearer) return sendError(res, 401, 'authentication_error', 'x-api-key header is required');
    if (opts.apiKey && key !== opts.apiKey && bearer !== opts.apiKey) return sendError(res, 401, 'authentication_error', 'invalid x-api-key');
    if (!req.headers['anthropic-version']) return sendError(res, 400, 'invalid_request_error', 'anthropic-version: header is required');

    const path = (req.url ?? '/').split('?')[0];
    if (req.method === 'GET' && path === '/v1/models') return sendJson(res, 200, modelPage(opts.models ?? DEFAULT_MODELS));
    if (req.method !== 'POST' || (path !== '/v1/messages' && path !== '/v1/messages/count_tokens')) {
      return sendError(res, 404, 'not_found_error', 'Not Found');
    }
    if (!parsed || !body || typeof body !== 'object' || Array.isArray(body)) {
      return sendError(res, 400, 'invalid_request_error', 'The request body is not valid JSON.');
    }
    if (body.model == null) return sendError(res, 400, 'invalid_request_error', 'model: Field required');
    if (!Array.isArray(body.messages)) return sendError(res, 400, 'invalid_request_error', 'messages: Field required');
    const inputTokens = approxTokens(textChars(body.messages) + textChars(body.system));
    if (path === '/v1/messages/count_tokens') return sendJson(res, 200, { input_tokens: inputTokens }); // consumes no scenario
    if (body.max_tokens == null) return sendError(res, 400, 'invalid_request_error', 'max_tokens: Field required');
    return handleMessages({ res, model: String(body.model), stream: body.stream === true, inputTokens, signal: aborter.signal }, plays.next());
  }

  const crash = (res: Res, err: unknown) => sendError(res, 500, 'api_error', `fake upstream crashed: ${String(err)}`);
  const { origin, close } = await serveFake(handle, crash, aborter);
  return {
    url: origin,
    calls,
    setScenario: plays.setScenario,
    once: plays.once,
    reset() { calls.length = 0; plays.reset(); },
    close,
  };
}
