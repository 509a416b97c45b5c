// Fake Google Gemini (generativelanguage v1beta) upstream for tests. Wire shapes follow
// ../../docs/vendors/gemini.md and its fake-server checklist; the thought-signature rule follows
// https://ai.google.dev/gemini-api/docs/thought-signatures (Gemini 3: 400 when the first functionCall
// part of a step in the current turn has no signature).
import http from 'node:http';
import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { listenLocal } from './listen-local.js';

export interface FakeCall {
  method: string;
  path: string; // request-target as received (path plus any query string)
  headers: Record<string, string | string[] | undefined>;
  body: any; // parsed JSON, or raw string if not JSON
}
export interface FunctionCallSpec { name: string; args?: Record<string, unknown>; id?: string }
export type Scenario =
  /** Text answer. `thoughts` are sent as `thought: true` parts only when the request sets includeThoughts. */
  | { kind: 'ok'; text?: string; thoughts?: string; chunks?: number; finishReason?: string; signature?: string; usage?: Partial<GeminiUsage> }
  /** One call, or parallel `calls`; the first call carries a thought signature (Gemini 3 behaviour). */
  | { kind: 'function_call'; name?: string; args?: Record<string, unknown>; calls?: FunctionCallSpec[]; text?: string; signature?: string | null }
  | { kind: 'blocked'; reason?: string }
  | { kind: 'safety'; text?: string; reason?: string }
  | { kind: 'status'; status: number; body?: unknown; headers?: Record<string, string> }
  /** Streams `after` text chunks, then an `{"error":...}` event (HTTP status already 200). */
  | { kind: 'stream_error'; after: number; status?: number }
  | { kind: 'stall' }
  | { kind: 'stall_after_headers' }
  | { kind: 'reset' }
  | { kind: 'break_after'; chunks: number }
  | { kind: 'empty_stream' }
  | { kind: 'slow'; delayMs: number; text?: string };
export interface GeminiUsage {
  promptTokenCount: number; candidatesTokenCount?: number; thoughtsTokenCount?: number; cachedContentTokenCount?: number;
  toolUsePromptTokenCount?: number; totalTokenCount: number;
}
export interface FakeGemini {
  /** origin, used as the account's baseUrl (paths start with /v1beta) */
  url: string;
  origin: string;
  calls: FakeCall[];
  /** every thought signature this fake has issued */
  signatures: Set<string>;
  setScenario(s: Scenario): void;
  once(...s: Scenario[]): void;
  reset(): void;
  close(): Promise<void>;
}

type Res = http.ServerResponse;
interface GenCtx { res: Res; model: string; stream: boolean; sse: boolean; body: any; promptTokens: number; signal: AbortSignal; issue: () => string }

export const DEFAULT_TEXT = 'Hello from the fake Gemini.';
const MODELS = ['gemini-2.5-flash', 'gemini-2.5-pro', 'gemini-3-pro-preview', 'gemini-3.8-flash'];
/** Placeholders Google documents for function calls the model did not sign. */
const SKIP_SIGNATURES = new Set(['skip_thought_signature_validator', 'context_engineering_is_the_way_to_go']);

const newId = () => randomBytes(16).toString('base64url').slice(0, 22);
const newSignature = () => randomBytes(48).toString('base64');
const wordCount = (s: string) => s.split(/\s+/).filter(Boolean).length;
const approxTokens = (chars: number) => Math.max(1, Math.ceil(chars / 4));
const gone = (res: Res) => res.destroyed || (res.socket?.destroyed ?? true);

const STATUS_NAMES: Record<number, [string, string]> = {
  400: ['INVALID_ARGUMENT', 'Request contains an invalid argument.'],
  403: ['PERMISSION_DENIED', 'The caller does not have permission'],
  404: ['NOT_FOUND', 'Requested entity was not found.'],
  429: ['RESOURCE_EXHAUSTED', 'You exceeded your current quota, please check your plan and billing details. For more information on this error, head to: https://ai.google.dev/gemini-api/docs/rate-limits.'],
  500: ['INTERNAL', 'An internal error has occurred. Please retry or report in https://developers.generativeai.google/guide/troubleshooting'],
  503: ['UNAVAILABLE', 'The model is overloaded. Please try again later.'],
  504: ['DEADLINE_EXCEEDED', 'Deadline expired before operation could complete.'],
};

export function geminiErrorBody(code: number, message?: string, status?: string, details?: unknown[]) {
  const [name, text] = STATUS_NAMES[code] ?? (code >= 500 ? ['INTERNAL', STATUS_NAMES[500][1]] : ['INVALID_ARGUMENT', STATUS_NAMES[400][1]]);
  return { error: { code, message: message ?? text, status: status ?? name, ...(details ? { details } : {}) } };
}

function defaultError(code: number) {
  if (code === 429) {
    return geminiErrorBody(429, undefined, undefined, [
      { '@type': 'type.googleapis.com/google.rpc.QuotaFailure', violations: [{ quotaMetric: 'generativelanguage.googleapis.com/generate_content_free_tier_requests', quotaId: 'GenerateRequestsPerMinutePerProjectPerModel-FreeTier' }] },
      { '@type': 'type.googleapis.com/google.rpc.RetryInfo', retryDelay: '23s' },
    ]);
  }
  return geminiErrorBody(code);
}

const API_KEY_INVALID = geminiErrorBody(400, 'API key not valid. Please pass a valid API key.', 'INVALID_ARGUMENT', [
  { '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason: 'API_KEY_INVALID', domain: 'googleapis.com', metadata: { service: 'generativelanguage.googleapis.com' } },
]);
const NO_KEY = geminiErrorBody(403, 'Method doesn\'t allow unregistered callers (callers without established identity). Please use API Key or other form of API consumer identity to call this API.');

function sendJson(res: Res, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json; charset=UTF-8', 'content-length': Buffer.byteLength(text), ...headers });
  res.end(text);
}

function openStream(ctx: GenCtx): void {
  ctx.res.writeHead(200, { 'content-type': ctx.sse ? 'text/event-stream' : 'application/json; charset=UTF-8', 'cache-control': 'no-cache' });
  ctx.res.flushHeaders();
}

// One write per frame, awaiting the flush, so a relaying proxy sees frames arrive separately.
async function writeFrames(res: Res, frames: string[], delayMs: number, signal: AbortSignal): Promise<void> {
  for (const [i, frame] of frames.entries()) {
    if (i > 0 && delayMs > 0) await sleep(delayMs, undefined, { signal }).catch(() => {});
    if (gone(res)) return;
    await new Promise<void>((resolve) => res.write(frame, () => resolve()));
  }
}

/** alt=sse: `data: <json>\r\n\r\n` per chunk; without it, one JSON array written piecewise. */
function streamFrames(ctx: GenCtx, chunks: object[], complete = true): string[] {
  if (ctx.sse) return chunks.map((c) => `data: ${JSON.stringify(c)}\r\n\r\n`);
  const frames = chunks.map((c, i) => `${i === 0 ? '[' : ',\r\n'}${JSON.stringify(c)}`);
  if (complete) frames.push(']');
  return frames;
}

function splitText(text: string, chunks?: number): string[] {
  if (!chunks) return text.split(/(?=\s+\S)/).filter(Boolean);
  const n = Math.max(1, Math.min(chunks, text.length));
  return Array.from({ length: n }, (_, i) => text.slice(Math.floor((i * text.length) / n), Math.floor(((i + 1) * text.length) / n))).filter(Boolean);
}

function textChars(v: unknown): number {
  if (typeof v === 'string') return v.length;
  if (Array.isArray(v)) return v.reduce((n: number, x) => n + textChars(x), 0);
  if (v && typeof v === 'object') {
    const o = v as { text?: unknown; parts?: unknown; functionResponse?: unknown; functionCall?: unknown };
    if (typeof o.text === 'string') return o.text.length;
    if (o.functionResponse || o.functionCall) return JSON.stringify(o.functionResponse ?? o.functionCall).length;
    return textChars(o.parts);
  }
  return 0;
}

function usageOf(ctx: GenCtx, candidates: number, thoughts: number, extra?: Partial<GeminiUsage>): GeminiUsage {
  const u: GeminiUsage = { promptTokenCount: ctx.promptTokens, candidatesTokenCount: candidates, totalTokenCount: 0, ...extra };
  if (thoughts > 0 && u.thoughtsTokenCount === undefined) u.thoughtsTokenCount = thoughts;
  u.totalTokenCount = extra?.totalTokenCount
    ?? u.promptTokenCount + (u.candidatesTokenCount ?? 0) + (u.thoughtsTokenCount ?? 0) + (u.toolUsePromptTokenCount ?? 0);
  return u;
}

function response(ctx: GenCtx, candidates: object[] | undefined, usage: object, extra: object = {}) {
  return { ...(candidates ? { candidates } : {}), ...extra, usageMetadata: usage, modelVersion: ctx.model, responseId: responseIds.get(ctx.res)! };
}
const responseIds = new WeakMap<Res, string>();

const includeThoughts = (body: any) => body?.generationConfig?.thinkingConfig?.includeThoughts === true;
const candidateCount = (body: any) => Math.max(1, Number(body?.generationConfig?.candidateCount ?? 1) || 1);

async function answerText(ctx: GenCtx, s: Extract<Scenario, { kind: 'ok' }> | { kind: 'slow'; text?: string; delayMs: number }): Promise<void> {
  const ok = s.kind === 'ok' ? s : undefined;
  const text = s.text ?? DEFAULT_TEXT;
  const thoughts = ok?.thoughts;
  const showThoughts = thoughts !== undefined && includeThoughts(ctx.body);
  const finishReason = ok?.finishReason ?? 'STOP';
  const usage = usageOf(ctx, wordCount(text), thoughts ? approxTokens(thoughts.length) : 0, ok?.usage);
  const n = candidateCount(ctx.body);
  const cands = (parts: object[], last: boolean) => Array.from({ length: n }, (_, index) => ({
    content: { parts, role: 'model' }, ...(last ? { finishReason } : {}), index,
  }));
  const textPart = (t: string, last: boolean) => (last && ok?.signature ? { text: t, thoughtSignature: ok.signature } : { text: t });
  if (!ctx.stream) {
    const parts = [...(showThoughts ? [{ text: thoughts, thought: true }] : []), textPart(text, true)];
    return sendJson(ctx.res, 200, response(ctx, cands(parts, true), usage));
  }
  const pieces = splitText(text, ok?.chunks);
  const partial = { promptTokenCount: ctx.promptTokens, totalTokenCount: ctx.promptTokens };
  const chunks: object[] = [];
  if (showThoughts) chunks.push(response(ctx, cands([{ text: thoughts, thought: true }], false), partial));
  pieces.forEach((piece, i) => {
    const last = i === pieces.length - 1;
    chunks.push(response(ctx, cands([textPart(piece, last)], last), last ? usage : partial));
  });
  openStream(ctx);
  await writeFrames(ctx.res, streamFrames(ctx, chunks), s.kind === 'slow' ? s.delayMs : 0, ctx.signal);
  if (!gone(ctx.res)) ctx.res.end();
}

async function answerFunctionCall(ctx: GenCtx, s: Extract<Scenario, { kind: 'function_call' }>): Promise<void> {
  const specs = s.calls ?? [{ name: s.name ?? 'get_weather', args: s.args ?? {} }];
  const signature = s.signature === null ? undefined : (s.signature ?? ctx.issue());
  const parts: object[] = [];
  if (s.text) parts.push({ text: s.text });
  specs.forEach((c, i) => {
    const functionCall = { ...(c.id ? { id: c.id } : {}), name: c.name, args: c.args ?? {} };
    parts.push(i === 0 && signature ? { functionCall, thoughtSignature: signature } : { functionCall });
  });
  const usage = usageOf(ctx, approxTokens(JSON.stringify(specs).length), 0);
  const candidates = [{ content: { parts, role: 'model' }, finishReason: 'STOP', index: 0 }];
  if (!ctx.stream) return sendJson(ctx.res, 200, response(ctx, candidates, usage));
  openStream(ctx);
  await writeFrames(ctx.res, streamFrames(ctx, [response(ctx, candidates, usage)]), 0, ctx.signal);
  if (!gone(ctx.res)) ctx.res.end();
}

async function answerSafety(ctx: GenCtx, s: Extract<Scenario, { kind: 'safety' }>): Promise<void> {
  const reason = s.reason ?? 'SAFETY';
  const ratings = [{ category: 'HARM_CATEGORY_DANGEROUS_CONTENT', probability: 'HIGH', blocked: true }];
  const blockedCandidate = [{ finishReason: reason, index: 0, safetyRatings: ratings }];
  const usage = usageOf(ctx, s.text ? wordCount(s.text) : 0, 0);
  if (!ctx.stream) return sendJson(ctx.res, 200, response(ctx, blockedCandidate, usage));
  const partial = { promptTokenCount: ctx.promptTokens, totalTokenCount: ctx.promptTokens };
  const chunks: object[] = splitText(s.text ?? '').map((t) => response(ctx, [{ content: { parts: [{ text: t }], role: 'model' }, index: 0 }], partial));
  chunks.push(response(ctx, blockedCandidate, usage));
  openStream(ctx);
  await writeFrames(ctx.res, streamFrames(ctx, chunks), 0, ctx.signal);
  if (!gone(ctx.res)) ctx.res.end();
}

async function answerBlocked(ctx: GenCtx, reason: string): Promise<void> {
  const body = response(ctx, undefined, { promptTokenCount: ctx.promptTokens, totalTokenCount: ctx.promptTokens }, {
    promptFeedback: { blockReason: reason, safetyRatings: [{ category: 'HARM_CATEGORY_HARASSMENT', probability: 'HIGH' }] },
  });
  if (!ctx.stream) return sendJson(ctx.res, 200, body);
  openStream(ctx);
  await writeFrames(ctx.res, streamFrames(ctx, [body]), 0, ctx.signal);
  if (!gone(ctx.res)) ctx.res.end();
}

async function textChunksThen(ctx: GenCtx, n: number, after: (frames: string[]) => string[]): Promise<void> {
  const words = splitText(DEFAULT_TEXT);
  const partial = { promptTokenCount: ctx.promptTokens, totalTokenCount: ctx.promptTokens };
  const chunks = Array.from({ length: n }, (_, i) => response(ctx, [{ content: { parts: [{ text: words[i % words.length] }], role: 'model' }, index: 0 }], partial));
  openStream(ctx);
  await writeFrames(ctx.res, after(streamFrames(ctx, chunks, false)), 0, ctx.signal);
}

async function breakAfter(ctx: GenCtx, n: number): Promise<void> {
  if (ctx.stream) {
    await textChunksThen(ctx, n, (f) => f);
  } else {
    const body = JSON.stringify(response(ctx, [{ content: { parts: [{ text: DEFAULT_TEXT }], role: 'model' }, finishReason: 'STOP', index: 0 }], usageOf(ctx, 5, 0)));
    ctx.res.writeHead(200, { 'content-type': 'application/json; charset=UTF-8', 'content-length': Buffer.byteLength(body) });
    await writeFrames(ctx.res, [body.slice(0, body.length >> 1)], 0, ctx.signal);
  }
  ctx.res.socket?.destroy();
}

async function handleGenerate(ctx: GenCtx, s: Scenario): Promise<void> {
  const { res } = ctx;
  switch (s.kind) {
    case 'ok': return answerText(ctx, s);
    case 'function_call': return answerFunctionCall(ctx, s);
    case 'blocked': return answerBlocked(ctx, s.reason ?? 'SAFETY');
    case 'safety': return answerSafety(ctx, s);
    case 'status': return sendJson(res, s.status, s.body ?? defaultError(s.status), s.headers);
    case 'stream_error': {
      if (!ctx.stream) return sendJson(res, s.status ?? 503, defaultError(s.status ?? 503));
      const error = JSON.stringify(defaultError(s.status ?? 503));
      await textChunksThen(ctx, s.after, (f) => [...f, ctx.sse ? `data: ${error}\r\n\r\n` : `,\r\n${error}]`]);
      if (!gone(res)) res.end();
      return;
    }
    case 'stall': return;
    case 'stall_after_headers':
      if (ctx.stream) return openStream(ctx);
      res.writeHead(200, { 'content-type': 'application/json; charset=UTF-8' });
      return res.flushHeaders();
    case 'reset': res.socket?.destroy(); return;
    case 'break_after': return breakAfter(ctx, s.chunks);
    case 'empty_stream':
      if (ctx.stream) openStream(ctx);
      else res.writeHead(200, { 'content-type': 'application/json; charset=UTF-8' });
      return void res.end();
    case 'slow':
      await sleep(s.delayMs, undefined, { signal: ctx.signal }).catch(() => {});
      if (gone(res)) return;
      return answerText(ctx, s);
  }
}

// --- request validation, as the real API answers it -------------------------------------------

const TOP_LEVEL = ['contents', 'systemInstruction', 'tools', 'toolConfig', 'safetySettings', 'generationConfig', 'cachedContent'];
const GENERATION_CONFIG = [
  'stopSequences', 'responseMimeType', 'responseSchema', 'responseJsonSchema', 'responseModalities', 'candidateCount', 'maxOutputTokens',
  'temperature', 'topP', 'topK', 'seed', 'presencePenalty', 'frequencyPenalty', 'responseLogprobs', 'logprobs', 'enableEnhancedCivicAnswers',
  'speechConfig', 'thinkingConfig', 'imageConfig', 'mediaResolution',
];
const THINKING_CONFIG = ['thinkingBudget', 'includeThoughts', 'thinkingLevel'];
const camel = (k: string) => k.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());

function unknownField(obj: unknown, known: string[], at?: string): string | undefined {
  if (!obj || typeof obj !== 'object') return undefined;
  const bad = Object.keys(obj).find((k) => !known.includes(camel(k)));
  return bad === undefined ? undefined : `Invalid JSON payload received. Unknown name "${bad}"${at ? ` at '${at}'` : ''}: Cannot find field.`;
}

/** Gemini 3: the first functionCall part of every model step of the current turn must carry a signature. */
function signatureError(contents: any[], model: string, issued: Set<string>): string | undefined {
  for (const c of contents) {
    for (const p of c?.parts ?? []) {
      const sig = p?.thoughtSignature ?? p?.thought_signature;
      if (p?.functionCall && typeof sig === 'string' && !issued.has(sig) && !SKIP_SIGNATURES.has(sig)) return 'Corrupted thought signature.';
    }
  }
  const major = /^gemini-(\d+)/.exec(model);
  if (!major || Number(major[1]) < 3) return undefined;
  let start = -1; // the current turn starts at the latest user content with standard (non functionResponse) parts
  contents.forEach((c, i) => {
    if (c?.role !== 'model' && (c?.parts ?? []).some((p: any) => !p?.functionResponse)) start = i;
  });
  for (let i = start + 1; i < contents.length; i++) {
    const c = contents[i];
    if (c?.role !== 'model') continue;
    const first = (c.parts ?? []).find((p: any) => p?.functionCall);
    if (first && !(first.thoughtSignature ?? first.thought_signature)) {
      return `Function call is missing a thought_signature in functionCall parts. This is required for tools to work correctly, and missing thought_signature may lead to degraded model performance. Additional data, function call \`default_api:${first.functionCall.name}\` , position ${i + 1}. Please refer to https://ai.google.dev/gemini-api/docs/thought-signatures for more details.`;
    }
  }
  return undefined;
}

function validate(body: any, model: string, issued: Set<string>): string | undefined {
  const unknown = unknownField(body, TOP_LEVEL)
    ?? unknownField(body.generationConfig ?? body.generation_config, GENERATION_CONFIG, 'generation_config')
    ?? unknownField((body.generationConfig ?? body.generation_config)?.thinkingConfig, THINKING_CONFIG, 'generation_config.thinking_config');
  if (unknown) return unknown;
  // Gemini answers at most 8 candidates; anything else is its INVALID_ARGUMENT, never a crash of the fake.
  const candidates = (body.generationConfig ?? body.generation_config)?.candidateCount;
  if (candidates !== undefined && !(Number.isInteger(candidates) && candidates >= 1 && candidates <= 8)) {
    return '* GenerateContentRequest.generation_config.candidate_count: must be between 1 and 8\n';
  }
  const contents = body.contents;
  if (!Array.isArray(contents) || contents.length === 0) return '* GenerateContentRequest.contents: contents is not specified\n';
  for (const [i, c] of contents.entries()) {
    if (c?.role !== undefined && c.role !== 'user' && c.role !== 'model') return 'Please use a valid role: user, model.';
    if (!Array.isArray(c?.parts) || c.parts.length === 0) return `* GenerateContentRequest.contents[${i}].parts: contents.parts must not be empty.\n`;
    for (const p of c.parts) if (p?.text === '') return 'Unable to submit request because it has an empty text parameter. Add a value to the parameter and try again.';
    const calls = c.role === 'model' ? c.parts.filter((p: any) => p?.functionCall).length : 0;
    const next = contents[i + 1];
    const responses = next ? (next.parts ?? []).filter((p: any) => p?.functionResponse).length : 0;
    if (calls > 0 && responses > 0 && calls !== responses) {
      return 'Please ensure that the number of function response parts is equal to the number of function call parts of the function call turn.';
    }
  }
  return signatureError(contents, model, issued);
}

function readBody(req: http.IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    req.on('data', (c: Buffer) => parts.push(c));
    req.on('end', () => resolve(Buffer.concat(parts).toString('utf8')));
    req.on('error', reject);
  });
}

function parseJson(raw: string): { ok: true; value: any } | { ok: false } {
  try { return { ok: true, value: JSON.parse(raw) }; } catch { return { ok: false }; }
}

const modelEntry = (id: string) => ({
  name: `models/${id}`, version: '001', displayName: id, inputTokenLimit: 1048576, outputTokenLimit: 65536,
  supportedGenerationMethods: ['generateContent', 'countTokens'], thinking: true,
});

/** Interactions API (gemini.md "Interactions API"): one completed text interaction, as JSON or as its event stream. */
function answerInteraction(res: Res, body: any): void {
  const usage = { total_input_tokens: 10, total_output_tokens: 3, total_tokens: 13 };
  const interaction = { id: `int_${newId()}`, status: 'completed', model: body?.model, outputs: [{ type: 'text', text: DEFAULT_TEXT }], usage };
  if (body?.stream !== true) return sendJson(res, 200, interaction);
  res.writeHead(200, { 'content-type': 'text/event-stream' });
  const frame = (data: unknown) => `data: ${JSON.stringify(data)}\n\n`;
  res.write(frame({ event_type: 'interaction.created', interaction: { id: interaction.id, status: 'in_progress' } }));
  res.write(frame({ event_type: 'step.delta', index: 0, delta: { type: 'text', text: DEFAULT_TEXT } }));
  res.end(frame({ event_type: 'interaction.completed', interaction }) + 'data: [DONE]\n\n');
}

export async function startFakeGemini(opts: { apiKey?: string; models?: string[] } = {}): Promise<FakeGemini> {
  const OK: Scenario = { kind: 'ok' };
  let scenario: Scenario = OK;
  const queue: Scenario[] = [];
  const calls: FakeCall[] = [];
  const signatures = new Set<string>();
  const aborter = new AbortController();
  const models = opts.models;

  async function handle(req: http.IncomingMessage, res: Res): Promise<void> {
    const raw = await readBody(req);
    const parsed = parseJson(raw);
    calls.push({ method: req.method ?? 'GET', path: req.url ?? '/', headers: { ...req.headers }, body: parsed.ok ? parsed.value : raw });
    res.setHeader('x-gemini-service-tier', 'standard');
    res.setHeader('server-timing', 'gfet4t7; dur=42');

    const url = new URL(req.url ?? '/', 'http://fake');
    const key = (req.headers['x-goog-api-key'] as string | undefined) ?? url.searchParams.get('key') ?? undefined;
    if (!key) return sendJson(res, 403, NO_KEY);
    if (opts.apiKey !== undefined && key !== opts.apiKey) return sendJson(res, 400, API_KEY_INVALID);

    if (req.method === 'GET' && url.pathname === '/v1beta/models') return sendJson(res, 200, { models: (models ?? MODELS).map(modelEntry) });
    if (req.method === 'POST' && url.pathname === '/v1beta/interactions') return answerInteraction(res, parsed.ok ? parsed.value : undefined);
    const route = /^\/v1beta\/models\/([^/:]+):(generateContent|streamGenerateContent)$/.exec(url.pathname);
    if (!route || req.method !== 'POST') {
      return sendJson(res, 404, geminiErrorBody(404, `Requested entity was not found. (${req.method} ${url.pathname})`));
    }
    const model = decodeURIComponent(route[1]);
    if (models && !models.includes(model)) {
      return sendJson(res, 404, geminiErrorBody(404, `models/${model} is not found for API version v1beta, or is not supported for generateContent. Call ListModels to see the list of available models and their supported methods.`));
    }
    if (!parsed.ok || !parsed.value || typeof parsed.value !== 'object' || Array.isArray(parsed.value)) {
      return sendJson(res, 400, geminiErrorBody(400, 'Invalid JSON payload received. Unexpected token.'));
    }
    const body = parsed.value;
    const invalid = validate(body, model, signatures);
    if (invalid) return sendJson(res, 400, geminiErrorBody(400, invalid));
    responseIds.set(res, newId());
    const stream = route[2] === 'streamGenerateContent';
    const ctx: GenCtx = {
      res, model, stream, sse: stream && url.searchParams.get('alt') === 'sse', body,
      promptTokens: approxTokens(textChars(body.contents) + textChars(body.systemInstruction)), signal: aborter.signal,
      issue: () => { const s = newSignature(); signatures.add(s); return s; },
    };
    const next = queue.shift() ?? scenario;
    if ((next.kind === 'ok' && next.signature) || (next.kind === 'function_call' && next.signature)) signatures.add(next.signature);
    return handleGenerate(ctx, next);
  }

  const server = http.createServer((req, res) => {
    handle(req, res).catch((err) => {
      if (gone(res)) return;
      if (res.headersSent) return void res.destroy();
      sendJson(res, 500, geminiErrorBody(500, `fake upstream crashed: ${String(err)}`));
    });
  });
  const listening = await listenLocal(server, aborter);
  const origin = listening.origin;

  return {
    url: origin,
    origin,
    calls,
    signatures,
    setScenario(s) { scenario = s; },
    once(...s) { queue.push(...s); },
    reset() { calls.length = 0; queue.length = 0; scenario = OK; },
    close: listening.close,
  };
}
