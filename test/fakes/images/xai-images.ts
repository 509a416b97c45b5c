// Fake xAI Grok Imagine upstream: POST /v1/images/generations and POST /v1/images/edits (JSON, `image: {url}`) (Bearer) answering JPEGs as `url` (default; served
// by this fake under /xai-imgen/) or `b64_json`, with `mime_type`, `revised_prompt` and usage.cost_in_usd_ticks.
// Wire shapes: ../../../docs/vendors/xai.md (flat {code, error} error bodies; a bad key is 400, not 401).
// Checked with search: `size`/`style` are rejected with "Argument not supported: <name>" (a proxy's docs quoting
// xAI; the notes left it open); $0.02 per grok-imagine-image image = 200000000 ticks.
import type http from 'node:http';
import { isFault, JSON_TYPE, newId, playFault, sendJson, startFakeImageServer, type Ctx, type FakeImageServer } from './fake-http.js';
import { colorFor, makeImage, sizeForRatio } from './image-bytes.js';

export type { FakeCall } from './fake-http.js';
export type Scenario =
  /** `costTicks` per image (default 200000000 = $0.02) */
  | { kind: 'ok'; revisedPrompt?: string; costTicks?: number }
  | { kind: 'status'; status: number; body?: unknown; headers?: Record<string, string> }
  | { kind: 'moderation_blocked'; message?: string }
  | { kind: 'slow'; delayMs: number }
  | { kind: 'stall' };
export type FakeXaiImages = FakeImageServer<Scenario>;

type Res = http.ServerResponse;
const INVALID = 'Client specified an invalid argument';
const CODES: Record<number, string> = {
  400: INVALID, 403: 'The caller does not have permission to execute the specified operation', 404: 'Some requested entity was not found',
  422: INVALID, 429: 'Some resource has been exhausted', 500: 'Internal error', 503: 'The service is currently unavailable',
};
export const xaiError = (status: number, error: string) => ({ code: CODES[status] ?? (status >= 500 ? CODES[500] : INVALID), error });
const ASPECTS = ['1:1', '3:4', '4:3', '9:16', '16:9', '2:3', '3:2', '9:19.5', '19.5:9', '9:20', '20:9', '1:2', '2:1', 'auto'];

interface Job { model: string; n: number; b64: boolean; width: number; height: number; prompt: string }

const isImageRef = (v: unknown): boolean => typeof v === 'object' && v !== null && typeof (v as { url?: unknown }).url === 'string' && /^(https?:|data:image\/)/.test((v as { url: string }).url);

function toJob(body: any): Job | { error: object } {
  const bad = (msg: string) => ({ error: xaiError(400, msg) });
  for (const k of ['size', 'style']) if (body[k] !== undefined) return bad(`Argument not supported: ${k}`);
  if (typeof body.prompt !== 'string' || !body.prompt) return bad('Missing required argument: prompt');
  const n = Number(body.n ?? 1);
  if (!Number.isInteger(n) || n < 1 || n > 10) return bad(`Invalid n: ${body.n}; must be between 1 and 10`);
  const rf = body.response_format ?? 'url';
  if (rf !== 'url' && rf !== 'b64_json') return bad(`Invalid response_format: ${rf}`);
  const aspect = String(body.aspect_ratio ?? 'auto');
  if (!ASPECTS.includes(aspect)) return bad(`Invalid aspect_ratio: ${aspect}`);
  const resolution = String(body.resolution ?? '1k');
  if (resolution !== '1k' && resolution !== '2k') return bad(`Invalid resolution: ${resolution}`);
  const [width, height] = sizeForRatio(aspect === 'auto' ? '1:1' : aspect, resolution === '2k' ? 2048 : 1024);
  return { model: String(body.model ?? 'grok-imagine-image'), n, b64: rf === 'b64_json', width, height, prompt: body.prompt };
}

async function answer(ctx: Ctx<Scenario>, job: Job, s: { revisedPrompt?: string; costTicks?: number }): Promise<void> {
  const data = [];
  for (let i = 0; i < job.n; i++) {
    const bytes = await makeImage('jpeg', job.width, job.height, { color: colorFor(i) });
    const image = job.b64
      ? { b64_json: bytes.toString('base64') }
      : { url: ctx.host(bytes, 'image/jpeg', { dir: '/xai-imgen/', prefix: 'xai-tmp-imgen-', ext: 'jpeg' }) };
    data.push({ ...image, mime_type: 'image/jpeg', revised_prompt: s.revisedPrompt ?? `${job.prompt}, highly detailed, soft natural light.` });
  }
  sendJson(ctx.res, 200, { data, usage: { cost_in_usd_ticks: (s.costTicks ?? 200_000_000) * job.n } });
}

async function handle(ctx: Ctx<Scenario>, opts: { apiKey?: string }): Promise<void> {
  const { req, res, body } = ctx;
  res.setHeader('x-request-id', newId(16));
  const auth = req.headers.authorization;
  if (!auth?.startsWith('Bearer ') || (opts.apiKey !== undefined && auth !== `Bearer ${opts.apiKey}`)) {
    const shown = (auth ?? '').replace(/^Bearer /, '');
    return sendJson(res, 400, xaiError(400, `Incorrect API key provided: ${shown.slice(0, 2)}***${shown.slice(-2)}. You can obtain an API key from https://console.x.ai.`));
  }
  const edit = ctx.path === '/v1/images/edits';
  if (req.method !== 'POST' || (ctx.path !== '/v1/images/generations' && !edit)) return sendJson(res, 404, xaiError(404, `No handler found for ${req.method} ${ctx.path}`));
  if (!body || typeof body !== 'object' || Array.isArray(body)) return sendJson(res, 400, xaiError(400, 'Failed to deserialize the JSON body into the target type'));
  // Edits are JSON too: the source image(s) as `image: {url}` (a link or a data URI), or a list of them (xai.md §2).
  if (edit && !isImageRef(body.image) && !(Array.isArray(body.image) && body.image.length > 0 && body.image.every(isImageRef))) return sendJson(res, 400, xaiError(400, 'Missing required argument: image'));
  const job = toJob(body);
  if ('error' in job) return sendJson(res, 400, job.error);
  const s = ctx.next();
  if (isFault(s)) {
    const errorBody = (status: number) => xaiError(status, `Request failed with status ${status}`);
    return playFault(s, { res, stream: false, signal: ctx.signal, jsonType: JSON_TYPE, errorBody, answer: () => answer(ctx, job, {}) });
  }
  switch (s.kind) {
    case 'ok': return answer(ctx, job, s);
    case 'moderation_blocked': return sendJson(res, 400, xaiError(400, s.message ?? 'Content violates usage guidelines.'));
  }
}

/** Fake xAI images; `url` is `${origin}/v1` (as the openai SDK is pointed at https://api.x.ai/v1). */
export async function startFakeXaiImages(opts: { apiKey?: string } = {}): Promise<FakeXaiImages> {
  return startFakeImageServer<Scenario>({
    basePath: '/v1',
    initial: { kind: 'ok' },
    handle: (ctx) => handle(ctx, opts),
    crash: (res: Res, err) => sendJson(res, 500, xaiError(500, `fake upstream crashed: ${String(err)}`)),
  });
}
