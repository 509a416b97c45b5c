// Fake OpenAI Images upstream (POST /v1/images/generations JSON, POST /v1/images/edits multipart).
// Wire shapes: ../../../docs/vendors/openai.md §3 and openai-node 6.x `resources/images.ts` (stream events,
// `image[]` array encoding). Token figures: output tokens per image scale with area from the documented
// 1024x1024 figures (low 272, medium 1056, high 4160); input image tokens (388 per image) are a fake figure.
// Not vendor-verified: the mask-error wording, and whether a `data: [DONE]` ends image streams (opt-in here).
import type http from 'node:http';
import { approxTokens, gone, isFault, JSON_TYPE, newId, nowSec, openSse, playFault, sendJson, sseFrame, startFakeImageServer, writeFrames, type Ctx, type FakeImageServer, type MultipartBody } from './fake-http.js';
import { colorFor, imageInfo, makeImage, type ImageFormat } from './image-bytes.js';

export type { FakeCall, UploadedFile, MultipartBody } from './fake-http.js';
export interface ImagesUsage {
  input_tokens: number; input_tokens_details: { text_tokens: number; image_tokens: number };
  output_tokens: number; output_tokens_details: { text_tokens: number; image_tokens: number }; total_tokens: number;
}
export type Scenario =
  /** b64 images of the requested size (`n` of them); `stream: true` requests get the SSE events */
  | { kind: 'ok'; usage?: Partial<ImagesUsage> }
  | { kind: 'status'; status: number; body?: unknown; headers?: Record<string, string> }
  | { kind: 'moderation_blocked'; message?: string }
  /** waits delayMs before answering (and between stream events) */
  | { kind: 'slow'; delayMs: number }
  | { kind: 'stall' }
  /** stream shape knobs: partial count (default: request's partial_images), trailing [DONE], socket cut after k events */
  | { kind: 'stream'; partials?: number; done?: boolean; delayMs?: number; breakAfter?: number };
export type FakeOpenAIImages = FakeImageServer<Scenario>;

type Res = http.ServerResponse;
const GPT_SIZES = ['1024x1024', '1536x1024', '1024x1536'];
const DALLE_SIZES: Record<string, string[]> = { 'dall-e-2': ['256x256', '512x512', '1024x1024'], 'dall-e-3': ['1024x1024', '1792x1024', '1024x1792'] };
const QUALITY_TOKENS: Record<string, number> = { low: 272, medium: 1056, high: 4160 };
const INPUT_IMAGE_TOKENS = 388;

export const openaiError = (message: string, type: string, param: string | null = null, code: string | null = null) =>
  ({ error: { message, type, param, code } });
const invalid = (message: string, param: string | null, code: string | null = 'invalid_value') => openaiError(message, 'invalid_request_error', param, code);
const MODERATION = 'Your request was rejected by the safety system. If you believe this is an error, contact us at help.openai.com and include the request ID req_fake.';
const STATUS_ERRORS: Record<number, [string, string, string | null]> = {
  401: ['Incorrect API key provided: sk-fake***. You can find your API key at https://platform.openai.com/account/api-keys.', 'invalid_request_error', 'invalid_api_key'],
  429: ['Rate limit reached for images per minute. Please try again in 1s.', 'requests', 'rate_limit_exceeded'],
};
function defaultError(status: number) {
  const [message, type, code] = STATUS_ERRORS[status]
    ?? (status >= 500 ? ['The server had an error while processing your request. Sorry about that!', 'server_error', null] : [`Request failed with status ${status}.`, 'invalid_request_error', null]);
  return openaiError(message, type, null, code);
}

interface Job {
  edit: boolean; model: string; n: number; width: number; height: number; size: string; format: ImageFormat;
  background: string; quality: string; stream: boolean; partials: number; url: boolean; promptTokens: number; inputImages: number;
}

/** Validates the request the way the API answers it; returns the job or an error body. */
function toJob(body: any, edit: boolean): Job | { error: object } {
  const f = (k: string): any => (edit ? (body as MultipartBody).fields[k] : body[k]);
  const prompt = f('prompt');
  if (typeof prompt !== 'string' || !prompt) return { error: invalid("Missing required parameter: 'prompt'.", 'prompt', 'missing_required_parameter') };
  const model = String(f('model') ?? 'dall-e-2');
  const n = Number(f('n') ?? 1);
  if (!Number.isInteger(n) || n < 1 || n > 10) return { error: invalid(`Invalid value for 'n': expected an integer between 1 and 10, got ${f('n')}.`, 'n') };
  const size = String(f('size') ?? 'auto');
  const m = /^(\d+)x(\d+)$/.exec(size);
  const allowed = DALLE_SIZES[model] ?? (/^gpt-image-2/.test(model) ? null : GPT_SIZES);
  if (size !== 'auto' && (!m || (allowed && !allowed.includes(size)))) {
    return { error: invalid(`Invalid value: '${size}'. Supported values are: ${(allowed ?? ['WxH']).map((s) => `'${s}'`).join(', ')}, and 'auto'.`, 'size') };
  }
  const format = String(f('output_format') ?? 'png') as ImageFormat;
  if (!['png', 'jpeg', 'webp'].includes(format)) return { error: invalid(`Invalid value: '${format}'. Supported values are: 'png', 'jpeg', and 'webp'.`, 'output_format') };
  const background = String(f('background') ?? 'auto');
  if (background === 'transparent' && format === 'jpeg') return { error: invalid('Transparent background is not supported for jpeg output format.', 'background') };
  const quality = String(f('quality') ?? 'auto');
  const stream = f('stream') === true || f('stream') === 'true';
  const images = edit ? (body as MultipartBody).files.filter((x) => x.field === 'image' || x.field === 'image[]') : [];
  return {
    edit, model, n, size, format, stream, url: model.startsWith('dall-e') && f('response_format') === 'url',
    width: m ? Number(m[1]) : 1024, height: m ? Number(m[2]) : 1024,
    background: background === 'transparent' ? 'transparent' : 'opaque', quality: QUALITY_TOKENS[quality] ? quality : 'high',
    partials: Math.max(0, Math.min(3, Number(f('partial_images') ?? 0))), promptTokens: approxTokens(prompt.length), inputImages: images.length,
  };
}

function editError(body: MultipartBody, validateMask: boolean): object | undefined {
  if (body.error) return invalid(`Could not parse multipart form: ${body.error}`, null, null);
  const images = body.files.filter((x) => x.field === 'image' || x.field === 'image[]');
  if (images.length === 0) return invalid("Missing required parameter: 'image'.", 'image', 'missing_required_parameter');
  if (images.length > 16) return invalid(`Invalid 'image': too many images (${images.length}); the maximum is 16.`, 'image', 'array_above_max_length');
  const mask = body.files.find((x) => x.field === 'mask');
  if (!mask || !validateMask) return undefined;
  if (imageInfo(mask.bytes).format !== 'png' || !mask.hasAlpha) return invalid('Invalid mask image format - mask must be a PNG with an alpha channel.', 'mask', 'invalid_image_format');
  if (mask.width !== images[0].width || mask.height !== images[0].height) return invalid('Invalid mask image format - mask size does not match image size.', 'mask', 'invalid_image_format');
  return undefined;
}

function usageFor(job: Job, images: number, withInput: boolean, over?: Partial<ImagesUsage>): ImagesUsage {
  const perImage = Math.round(QUALITY_TOKENS[job.quality] * (job.width * job.height) / (1024 * 1024));
  const text = withInput ? job.promptTokens : 0;
  const image = withInput ? job.inputImages * INPUT_IMAGE_TOKENS : 0;
  const out = perImage * images;
  return {
    input_tokens: text + image, input_tokens_details: { text_tokens: text, image_tokens: image },
    output_tokens: out, output_tokens_details: { text_tokens: 0, image_tokens: out }, total_tokens: text + image + out, ...over,
  };
}

async function answer(ctx: Ctx<Scenario>, job: Job, s: Extract<Scenario, { kind: 'ok' | 'slow' | 'stream' }>): Promise<void> {
  const { res } = ctx;
  const meta = { background: job.background, output_format: job.format, quality: job.quality, size: `${job.width}x${job.height}` };
  const bytes = (i: number, partial = -1) =>
    makeImage(job.format, job.width, job.height, { color: colorFor(partial >= 0 ? 100 + partial : i), alpha: job.background === 'transparent' });
  const over = s.kind === 'ok' ? s.usage : undefined;
  if (!job.stream) {
    const data = await Promise.all(Array.from({ length: job.n }, async (_, i) => {
      const b = await bytes(i);
      return job.url ? { url: ctx.host(b, `image/${job.format}`, { dir: '/files/', ext: job.format, signed: true }) } : { b64_json: b.toString('base64') };
    }));
    const usage = job.model.startsWith('dall-e') ? {} : { usage: usageFor(job, job.n, true, over) };
    return sendJson(res, 200, { created: nowSec(), ...(job.model.startsWith('dall-e') ? {} : meta), data, ...usage });
  }
  const prefix = job.edit ? 'image_edit' : 'image_generation';
  const partials = s.kind === 'stream' && s.partials !== undefined ? s.partials : job.partials;
  const frames: string[] = [];
  for (let i = 0; i < job.n; i++) {
    for (let p = 0; p < partials; p++) {
      const type = `${prefix}.partial_image`;
      frames.push(sseFrame(type, { type, b64_json: (await bytes(i, p)).toString('base64'), partial_image_index: p, ...meta, created_at: nowSec() }));
    }
    const type = `${prefix}.completed`;
    frames.push(sseFrame(type, { type, b64_json: (await bytes(i)).toString('base64'), ...meta, created_at: nowSec(), usage: usageFor(job, 1, i === 0, over) }));
  }
  if (s.kind === 'stream' && s.done) frames.push(sseFrame(null, '[DONE]'));
  if (gone(res)) return;
  openSse(res);
  const delayMs = s.kind === 'slow' ? s.delayMs : s.kind === 'stream' ? s.delayMs : 0;
  await writeFrames(res, frames, { delayMs, signal: ctx.signal, breakAfter: s.kind === 'stream' ? s.breakAfter : undefined });
}

async function handle(ctx: Ctx<Scenario>, opts: { apiKey?: string; validateMask?: boolean }): Promise<void> {
  const { req, res, body } = ctx;
  res.setHeader('x-request-id', `req_${newId()}`);
  res.setHeader('openai-version', '2020-10-01');
  if (opts.apiKey && req.headers.authorization !== `Bearer ${opts.apiKey}`) return sendJson(res, 401, defaultError(401));
  const route = `${req.method} ${ctx.path}`;
  const edit = route === 'POST /v1/images/edits';
  if (!edit && route !== 'POST /v1/images/generations') return sendJson(res, 404, invalid(`Invalid URL (${req.method} ${ctx.path})`, null, null));
  if (edit) {
    if (!body || !Array.isArray(body.files)) return sendJson(res, 400, invalid("Invalid Content-Type header (expected multipart/form-data).", null, null));
    const err = editError(body, opts.validateMask ?? true);
    if (err) return sendJson(res, 400, err);
  } else if (!body || typeof body !== 'object' || Array.isArray(body)) {
    return sendJson(res, 400, invalid('We could not parse the JSON body of your request.', null, null));
  }
  const job = toJob(body, edit);
  if ('error' in job) return sendJson(res, 400, job.error);
  const s = ctx.next();
  if (isFault(s)) {
    return playFault(s, { res, stream: job.stream, signal: ctx.signal, jsonType: JSON_TYPE, errorBody: defaultError, answer: (slow) => answer(ctx, job, slow) });
  }
  if (s.kind === 'moderation_blocked') {
    return sendJson(res, 400, openaiError(s.message ?? MODERATION, 'image_generation_user_error', null, 'moderation_blocked'));
  }
  return answer(ctx, job, s);
}

/** Fake OpenAI Images API; `url` is `${origin}/v1` (the openai SDK's baseURL). */
export async function startFakeOpenAIImages(opts: { apiKey?: string; validateMask?: boolean } = {}): Promise<FakeOpenAIImages> {
  return startFakeImageServer<Scenario>({
    basePath: '/v1',
    initial: { kind: 'ok' },
    handle: (ctx) => handle(ctx, opts),
    crash: (res: Res, err) => sendJson(res, 500, openaiError(`fake upstream crashed: ${String(err)}`, 'server_error')),
  });
}
