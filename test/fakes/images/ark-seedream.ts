// Fake Volcengine Ark Seedream upstream: POST /api/v3/images/generations (Bearer), sync JSON or SSE (`stream: true`).
// Wire shapes: ../../../docs/vendors/volcengine-ark.md §1 and §3. Result links point at GET /files/<id>.jpeg|png on
// this fake, signed (a mangled query answers 403, as TOS does); usage.output_tokens = W*H/256 per generated image.
// Size tiers map to 1K=1024², 2K=2048², 3K=3072², 4K=4096²; explicit WxH must have 921600..16777216 pixels and a
// ratio within 1/16..16 (4.0-family limits; newer models are stricter - not modelled).
import type http from 'node:http';
import { gone, JSON_TYPE, newId, nowSec, openSse, playFault, sendJson, sseFrame, startFakeImageServer, writeFrames, type Ctx, type FakeImageServer } from './fake-http.js';
import { colorFor, makeImage } from './image-bytes.js';

export type { FakeCall } from './fake-http.js';
export type Scenario =
  /** `images` results (default: max_images when sequential_image_generation is auto, else 1); indexes in `failed`
   *  become per-image `error` entries (not billed); `format` overrides output_format (default jpeg) */
  | { kind: 'ok'; images?: number; failed?: number[]; format?: 'jpeg' | 'png' }
  /** HTTP error with an Ark error body (default code/type per status) */
  | { kind: 'status'; status: number; code?: string; message?: string; body?: unknown }
  | { kind: 'slow'; delayMs: number }
  | { kind: 'stall' };
export type FakeArkSeedream = FakeImageServer<Scenario>;

type Res = http.ServerResponse;
const TIERS: Record<string, number> = { '1K': 1024, '2K': 2048, '3K': 3072, '4K': 4096 };
const STATUS: Record<number, [string, string, string]> = {
  400: ['BadRequest', 'InvalidParameter', 'A parameter specified in the request is not valid.'],
  401: ['Unauthorized', 'AuthenticationError', 'The API key or AK/SK in the request is missing or invalid.'],
  403: ['Forbidden', 'AccessDenied', 'The request failed because you do not have access to the requested resource.'],
  404: ['NotFound', 'InvalidEndpointOrModel.NotFound', 'The model or endpoint does not exist or you do not have access to it.'],
  429: ['TooManyRequests', 'RateLimitExceeded.EndpointRPMExceeded', 'The request has exceeded the RPM rate limit of the endpoint.'],
  500: ['InternalServerError', 'InternalServiceError', 'The service encountered an unexpected internal error.'],
};
const SENSITIVE = { code: 'OutputImageSensitiveContentDetected', message: 'The request failed because the output image may contain sensitive information.' };

export function arkError(status: number, code?: string, message?: string, param?: string) {
  const [type, dCode, dMessage] = STATUS[status] ?? (status >= 500 ? STATUS[500] : STATUS[400]);
  const requestId = `0217${Date.now()}${newId(8)}`;
  return { error: { code: code ?? dCode, message: `${message ?? dMessage} Request id: ${requestId}`, param: param ?? '', type } };
}

interface Job { model: string; width: number; height: number; count: number; b64: boolean; stream: boolean; format: 'jpeg' | 'png' }

function toJob(body: any): Job | { error: object } {
  if (!body.model) return { error: arkError(400, 'MissingParameter', 'The request failed because it is missing the `model` parameter.', 'model') };
  if (typeof body.prompt !== 'string' || !body.prompt) return { error: arkError(400, 'MissingParameter', 'The request failed because it is missing the `prompt` parameter.', 'prompt') };
  const size = String(body.size ?? '2K');
  const m = /^(\d+)x(\d+)$/.exec(size);
  const [width, height] = TIERS[size] ? [TIERS[size], TIERS[size]] : m ? [Number(m[1]), Number(m[2])] : [0, 0];
  const area = width * height;
  if (!area || area < 921600 || area > 16777216 || width / height > 16 || height / width > 16) {
    return { error: arkError(400, 'InvalidParameter', `The parameter \`size\` specified in the request is not valid: ${size}.`, 'size') };
  }
  const refs = body.image === undefined ? 0 : Array.isArray(body.image) ? body.image.length : 1;
  if (refs > 14) return { error: arkError(400, 'InvalidParameter', 'The parameter `image` specified in the request is not valid: too many images.', 'image') };
  const rf = body.response_format ?? 'url';
  if (rf !== 'url' && rf !== 'b64_json') return { error: arkError(400, 'InvalidParameter', `The parameter \`response_format\` specified in the request is not valid: ${rf}.`, 'response_format') };
  const max = Number(body.sequential_image_generation_options?.max_images ?? 15);
  const count = body.sequential_image_generation === 'auto' ? Math.max(1, Math.min(max, 15 - refs)) : 1;
  return { model: String(body.model), width, height, count, b64: rf === 'b64_json', stream: body.stream === true, format: body.output_format === 'png' ? 'png' : 'jpeg' };
}

async function answer(ctx: Ctx<Scenario>, job: Job, s: Extract<Scenario, { kind: 'ok' }>): Promise<void> {
  const format = s.format ?? job.format;
  const count = s.images ?? job.count;
  const size = `${job.width}x${job.height}`;
  const entries: object[] = [];
  let generated = 0;
  for (let i = 0; i < count; i++) {
    if (s.failed?.includes(i)) { entries.push({ error: SENSITIVE }); continue; }
    const bytes = await makeImage(format, job.width, job.height, { color: colorFor(i) });
    generated++;
    entries.push(job.b64
      ? { b64_json: bytes.toString('base64'), size }
      : { url: ctx.host(bytes, `image/${format}`, { dir: '/files/', ext: format, signed: true }), size });
  }
  const tokens = generated * Math.round((job.width * job.height) / 256);
  const usage = { generated_images: generated, output_tokens: tokens, total_tokens: tokens };
  if (!job.stream) return sendJson(ctx.res, 200, { model: job.model, created: nowSec(), data: entries, usage });
  const frames = entries.map((e, image_index) => {
    const type = 'error' in e ? 'image_generation.partial_failed' : 'image_generation.partial_succeeded';
    return sseFrame(type, { type, model: job.model, created: nowSec(), image_index, ...e });
  });
  frames.push(sseFrame('image_generation.completed', { type: 'image_generation.completed', model: job.model, created: nowSec(), usage }), sseFrame(null, '[DONE]'));
  if (gone(ctx.res)) return;
  openSse(ctx.res);
  await writeFrames(ctx.res, frames, { signal: ctx.signal });
}

async function handle(ctx: Ctx<Scenario>, opts: { apiKey?: string }): Promise<void> {
  const { req, res, body } = ctx;
  res.setHeader('x-request-id', `0217${Date.now()}${newId(8)}`);
  const auth = req.headers.authorization;
  if (!auth?.startsWith('Bearer ') || (opts.apiKey !== undefined && auth !== `Bearer ${opts.apiKey}`)) return sendJson(res, 401, arkError(401));
  if (req.method !== 'POST' || ctx.path !== '/api/v3/images/generations') return sendJson(res, 404, arkError(404, 'NotFound', `The requested URL ${ctx.path} was not found.`));
  if (!body || typeof body !== 'object' || Array.isArray(body)) return sendJson(res, 400, arkError(400, 'InvalidParameter', 'The request body is not valid JSON.'));
  const job = toJob(body);
  if ('error' in job) return sendJson(res, 400, job.error);
  const s = ctx.next();
  switch (s.kind) {
    case 'ok': return answer(ctx, job, s);
    case 'status': return sendJson(res, s.status, s.body ?? arkError(s.status, s.code, s.message));
    case 'slow': case 'stall':
      return playFault(s, { res, stream: job.stream, signal: ctx.signal, jsonType: JSON_TYPE, answer: () => answer(ctx, job, { kind: 'ok' }) });
  }
}

/** Fake Ark; `url` is `${origin}/api/v3` (the Ark SDK's base_url). */
export async function startFakeArkSeedream(opts: { apiKey?: string } = {}): Promise<FakeArkSeedream> {
  return startFakeImageServer<Scenario>({
    basePath: '/api/v3',
    initial: { kind: 'ok' },
    handle: (ctx) => handle(ctx, opts),
    crash: (res: Res, err) => sendJson(res, 500, arkError(500, undefined, `fake upstream crashed: ${String(err)}`)),
  });
}
