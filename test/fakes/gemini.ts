// Fake Google Gemini (generativelanguage v1beta) upstream for tests. Wire shapes follow
// ../../docs/vendors/gemini.md and its fake-server checklist; the thought-signature rule follows
// https://ai.google.dev/gemini-api/docs/thought-signatures (Gemini 3: 400 when the first functionCall
// part of a step in the current turn has no signature).
import type http from 'node:http';
import { randomBytes } from 'node:crypto';
import {
  approxTokens, callOf, gone, isFault, parseJson, playFault, readBody, scenarios, sendJson as send, serveFake,
  splitText, wordCount, writeFrames, type Fault, type FakeCall,
} from './scenarios.js';

export type { FakeCall } from './scenarios.js';
export interface FunctionCallSpec { name: string; args?: Record<string, unknown>; id?: string }
/** The fake's own answers, and every fault of the scenario engine (./scenarios.ts). */
export type Scenario =
  /** Text answer. `thoughts` are sent as `thought: true` parts only when the request sets includeThoughts. */
  | { kind: 'ok'; text?: string; thoughts?: string; chunks?: number; finishReason?: string; signature?: string; usage?: Partial<GeminiUsage> }
  /** One call, or parallel `calls`; the first call carries a thought signature (Gemini 3 behaviour). */
  | { kind: 'function_call'; name?: string; args?: Record<string, unknown>; calls?: FunctionCallSpec[]; text?: string; signature?: string | null }
  | { kind: 'blocked'; reason?: string }
  | { kind: 'safety'; text?: string; reason?: string }
  /** Streams `after` text chunks, then an `{"error":...}` event (HTTP status already 200). */
  | { kind: 'stream_error'; after: number; status?: number }
  | Fault;
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

const JSON_TYPE = 'application/json; charset=UTF-8';
const sendJson = (res: Res, status: number, body: unknown) => send(res, status, body, JSON_TYPE);

function openStream(ctx: GenCtx): void {
  ctx.res.writeHead(200, { 'content-type': ctx.sse ? 'text/event-stream' : JSON_TYPE, 'cache-control': 'no-cache' });
  ctx.res.flushHeaders();
}

/** alt=sse: `data: <json>\r\n\r\n` per chunk; without it, one JSON array written piecewise. */
function streamFrames(ctx: GenCtx, chunks: object[], complete = true): string[] {
  if (ctx.sse) return chunks.map((c) => `data: ${JSON.stringify(c)}\r\n\r\n`);
  const frames = chunks.map((c, i) => `${i === 0 ? '[' : ',\r\n'}${JSON.stringify(c)}`);
  if (complete) frames.push(']');
  return frames;
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

/** Stream frames of `n` text chunks (the words cycled) and no end: the array not closed. */
function partialFrames(ctx: GenCtx, n: number): string[] {
  const words = splitText(DEFAULT_TEXT);
  const partial = { promptTokenCount: ctx.promptTokens, totalTokenCount: ctx.promptTokens };
  const chunks = Array.from({ length: n }, (_, i) => response(ctx, [{ content: { parts: [{ text: words[i % words.length] }], role: 'model' }, index: 0 }], partial));
  return streamFrames(ctx, chunks, false);
}

async function handleGenerate(ctx: GenCtx, s: Scenario): Promise<void> {
  const { res } = ctx;
  if (isFault(s)) {
    return playFault(s, {
      res, stream: ctx.stream, signal: ctx.signal, jsonType: JSON_TYPE, openStream: () => openStream(ctx), errorBody: defaultError,
      partialStream: (n) => partialFrames(ctx, n),
      fullBody: () => JSON.stringify(response(ctx, [{ content: { parts: [{ text: DEFAULT_TEXT }], role: 'model' }, finishReason: 'STOP', index: 0 }], usageOf(ctx, 5, 0))),
      answer: (slow) => answerText(ctx, slow),
    });
  }
  switch (s.kind) {
    case 'ok': return answerText(ctx, s);
    case 'function_call': return answerFunctionCall(ctx, s);
    case 'blocked': return answerBlocked(ctx, s.reason ?? 'SAFETY');
    case 'safety': return answerSafety(ctx, s);
    case 'stream_error': {
      if (!ctx.stream) return sendJson(res, s.status ?? 503, defaultError(s.status ?? 503));
      const error = JSON.stringify(defaultError(s.status ?? 503));
      openStream(ctx);
      await writeFrames(res, [...partialFrames(ctx, s.after), ctx.sse ? `data: ${error}\r\n\r\n` : `,\r\n${error}]`], 0, ctx.signal);
      if (!gone(res)) res.end();
      return;
    }
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
  const plays = scenarios<Scenario>({ kind: 'ok' });
  const calls: FakeCall[] = [];
  const signatures = new Set<string>();
  const aborter = new AbortController();
  const models = opts.models;

  async function handle(req: http.IncomingMessage, res: Res): Promise<void> {
    const raw = (await readBody(req)).toString('utf8');
    const parsed = parseJson(raw);
    calls.push(callOf(req, parsed.ok ? parsed.value : raw));
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
    const next = plays.next();
    if ((next.kind === 'ok' && next.signature) || (next.kind === 'function_call' && next.signature)) signatures.add(next.signature);
    return handleGenerate(ctx, next);
  }

  const crash = (res: Res, err: unknown) => sendJson(res, 500, geminiErrorBody(500, `fake upstream crashed: ${String(err)}`));
  const { origin, close } = await serveFake(handle, crash, aborter);
  return {
    url: origin,
    origin,
    calls,
    signatures,
    setScenario: plays.setScenario,
    once: plays.once,
    reset() { calls.length = 0; plays.reset(); },
    close,
  };
}
