// Fake Gemini image-output upstream: POST /v1beta/models/{model}:generateContent answering `inlineData` parts.
// Wire shapes: ../../../docs/vendors/gemini.md. Checked with search: imageSize values 1K/2K/4K (js-genai ImageConfig;
// "uppercase K required" per third-party docs, so lowercase is rejected here), the 1K pixel sizes per aspect ratio,
// 1290 output tokens per gemini-2.5-flash-image image, and for Pro-class image models 1120 tokens at 1K/2K, 2000 at 4K
// and 560 tokens per input image (Vertex model page). The 258 input-image tokens for other models is a fake figure.
import type http from 'node:http';
import { approxTokens, JSON_TYPE, newId, playFault, sendJson, sleep, startFakeImageServer, type Ctx, type FakeImageServer } from './fake-http.js';
import { colorFor, makeImage } from './image-bytes.js';

export type { FakeCall } from './fake-http.js';
type Mime = 'image/png' | 'image/jpeg';
export type Scenario =
  /** `images` inlineData parts (default 1) of the size imageConfig asks for, after an optional text part */
  | { kind: 'ok'; text?: string; mimeType?: Mime; images?: number }
  /** refusal: the image model answers with text parts only (HTTP 200) */
  | { kind: 'text_only'; text?: string }
  /** prompt blocked: no candidates, promptFeedback.blockReason (HTTP 200) */
  | { kind: 'blocked'; reason?: string }
  /** output blocked: a candidate with finishReason (default IMAGE_SAFETY) and no content */
  | { kind: 'no_image'; finishReason?: string }
  | { kind: 'status'; status: number; body?: unknown; headers?: Record<string, string> }
  | { kind: 'slow'; delayMs: number; text?: string; mimeType?: Mime }
  /** while set, the nth call (1-based) answers `status` (default 503) at once; the others answer ok after delayMs */
  | { kind: 'fail_nth'; n: number; status?: number; body?: unknown; delayMs?: number }
  | { kind: 'stall' };
export type FakeGeminiImage = FakeImageServer<Scenario>;

type Res = http.ServerResponse;
const ASPECTS: Record<string, [number, number]> = {
  '1:1': [1024, 1024], '2:3': [832, 1216], '3:2': [1216, 832], '3:4': [896, 1152], '4:3': [1152, 896],
  '4:5': [896, 1088], '5:4': [1088, 896], '9:16': [768, 1408], '16:9': [1408, 768], '21:9': [1536, 640],
};
const SIZES: Record<string, number> = { '1K': 1, '2K': 2, '4K': 4 };
const STATUS: Record<number, [string, string]> = {
  400: ['INVALID_ARGUMENT', 'Request contains an invalid argument.'],
  403: ['PERMISSION_DENIED', 'The caller does not have permission'],
  404: ['NOT_FOUND', 'Requested entity was not found.'],
  429: ['RESOURCE_EXHAUSTED', 'You exceeded your current quota, please check your plan and billing details.'],
  500: ['INTERNAL', 'An internal error has occurred.'],
  503: ['UNAVAILABLE', 'The model is overloaded. Please try again later.'],
};
export function geminiError(code: number, message?: string) {
  const [status, text] = STATUS[code] ?? (code >= 500 ? STATUS[500] : STATUS[400]);
  return { error: { code, message: message ?? text, status } };
}
const API_KEY_INVALID = { error: { ...geminiError(400, 'API key not valid. Please pass a valid API key.').error, details: [
  { '@type': 'type.googleapis.com/google.rpc.ErrorInfo', reason: 'API_KEY_INVALID', domain: 'googleapis.com', metadata: { service: 'generativelanguage.googleapis.com' } },
] } };

const isPro = (model: string) => /pro-image|gemini-3(\.\d+)?-.*image/.test(model);
const outTokens = (model: string, size: string) => (isPro(model) ? (size === '4K' ? 2000 : 1120) : 1290);

interface Job { model: string; width: number; height: number; size: string; textTokens: number; inputImages: number }

function parts(v: unknown): any[] {
  return Array.isArray(v) ? v.flatMap((c: any) => (Array.isArray(c?.parts) ? c.parts : [])) : [];
}

function toJob(body: any, model: string): Job | { error: object } {
  if (!Array.isArray(body.contents) || body.contents.length === 0) return { error: geminiError(400, '* GenerateContentRequest.contents: contents is not specified\n') };
  const ic = (body.generationConfig ?? body.generation_config)?.imageConfig ?? (body.generationConfig ?? body.generation_config)?.image_config ?? {};
  const aspect = ic.aspectRatio ?? ic.aspect_ratio ?? '1:1';
  const size = ic.imageSize ?? ic.image_size ?? '1K';
  if (!ASPECTS[aspect]) return { error: geminiError(400, `Unsupported aspect ratio: ${aspect}. Supported values are ${Object.keys(ASPECTS).join(', ')}.`) };
  if (!SIZES[size]) return { error: geminiError(400, `Unsupported image size: ${size}. Supported values are 1K, 2K, 4K.`) };
  const all = parts(body.contents);
  const text = all.reduce((n: number, p: any) => n + (typeof p?.text === 'string' ? p.text.length : 0), 0);
  const [w, h] = ASPECTS[aspect];
  return {
    model, size, width: w * SIZES[size], height: h * SIZES[size],
    textTokens: approxTokens(text), inputImages: all.filter((p: any) => p?.inlineData ?? p?.inline_data ?? p?.fileData).length,
  };
}

function envelope(job: Job, candidates: object[] | undefined, usage: object, extra: object = {}) {
  return { ...(candidates ? { candidates } : {}), ...extra, usageMetadata: usage, modelVersion: job.model, responseId: newId(11) };
}

function promptUsage(job: Job) {
  const img = job.inputImages * (isPro(job.model) ? 560 : 258);
  const details = [{ modality: 'TEXT', tokenCount: job.textTokens }, ...(img ? [{ modality: 'IMAGE', tokenCount: img }] : [])];
  return { prompt: job.textTokens + img, details };
}

async function answerOk(ctx: Ctx<Scenario>, job: Job, s: { text?: string; mimeType?: Mime; images?: number }): Promise<void> {
  const mimeType = s.mimeType ?? 'image/png';
  const count = s.images ?? 1;
  const out: object[] = s.text ? [{ text: s.text }] : [];
  for (let i = 0; i < count; i++) {
    const bytes = await makeImage(mimeType === 'image/jpeg' ? 'jpeg' : 'png', job.width, job.height, { color: colorFor(i) });
    out.push({ inlineData: { mimeType, data: bytes.toString('base64') } });
  }
  const p = promptUsage(job);
  const image = outTokens(job.model, job.size) * count;
  const text = s.text ? approxTokens(s.text.length) : 0;
  const usage = {
    promptTokenCount: p.prompt, candidatesTokenCount: image + text, totalTokenCount: p.prompt + image + text, promptTokensDetails: p.details,
    candidatesTokensDetails: [{ modality: 'IMAGE', tokenCount: image }, ...(text ? [{ modality: 'TEXT', tokenCount: text }] : [])],
  };
  sendJson(ctx.res, 200, envelope(job, [{ content: { parts: out, role: 'model' }, finishReason: 'STOP', index: 0 }], usage));
}

export async function startFakeGeminiImage(opts: { apiKey?: string } = {}): Promise<FakeGeminiImage> {
  const counters = new WeakMap<object, number>();

  async function handle(ctx: Ctx<Scenario>): Promise<void> {
    const { req, res, body } = ctx;
    const key = (req.headers['x-goog-api-key'] as string | undefined) ?? ctx.query.get('key') ?? undefined;
    if (!key) return sendJson(res, 403, geminiError(403, 'Method doesn\'t allow unregistered callers (callers without established identity). Please use API Key or other form of API consumer identity to call this API.'));
    if (opts.apiKey !== undefined && key !== opts.apiKey) return sendJson(res, 400, API_KEY_INVALID);
    const route = /^\/v1beta\/models\/([^/:]+):generateContent$/.exec(ctx.path);
    if (!route || req.method !== 'POST') return sendJson(res, 404, geminiError(404, `Requested entity was not found. (${req.method} ${ctx.path})`));
    if (!body || typeof body !== 'object' || Array.isArray(body)) return sendJson(res, 400, geminiError(400, 'Invalid JSON payload received.'));
    const job = toJob(body, decodeURIComponent(route[1]));
    if ('error' in job) return sendJson(res, 400, job.error);
    const s = ctx.next();
    const p = promptUsage(job);
    const usage = { promptTokenCount: p.prompt, totalTokenCount: p.prompt, promptTokensDetails: p.details };
    switch (s.kind) {
      case 'ok': return answerOk(ctx, job, s);
      case 'text_only': {
        const text = s.text ?? "I can't create that image, but I can help with something else.";
        const t = approxTokens(text.length);
        return sendJson(res, 200, envelope(job, [{ content: { parts: [{ text }], role: 'model' }, finishReason: 'STOP', index: 0 }],
          { ...usage, candidatesTokenCount: t, totalTokenCount: p.prompt + t }));
      }
      case 'blocked':
        return sendJson(res, 200, envelope(job, undefined, usage, { promptFeedback: { blockReason: s.reason ?? 'PROHIBITED_CONTENT' } }));
      case 'no_image':
        return sendJson(res, 200, envelope(job, [{ finishReason: s.finishReason ?? 'IMAGE_SAFETY', index: 0 }], usage));
      case 'status': case 'slow': case 'stall':
        return playFault(s, { res, stream: false, signal: ctx.signal, jsonType: JSON_TYPE, errorBody: (status) => geminiError(status), answer: (slow) => answerOk(ctx, job, slow) });
      case 'fail_nth': {
        const nth = (counters.get(s) ?? 0) + 1;
        counters.set(s, nth);
        if (nth === s.n) return sendJson(res, s.status ?? 503, s.body ?? geminiError(s.status ?? 503));
        if (s.delayMs) await sleep(s.delayMs, ctx.signal);
        return answerOk(ctx, job, {});
      }
    }
  }

  return startFakeImageServer<Scenario>({
    basePath: '',
    initial: { kind: 'ok' },
    handle,
    crash: (res: Res, err) => sendJson(res, 500, geminiError(500, `fake upstream crashed: ${String(err)}`)),
  });
}
