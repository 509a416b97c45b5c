// Fake Kling image-generation upstream: async tasks. POST /v1/images/generations creates a task
// (`task_status: submitted`); GET /v1/images/generations/{task_id} walks the task through the scenario's `steps`,
// then `succeed` with `task_result.images[{index, url}]` (urls served by this fake) or `failed`.
// Auth: HS256 JWT from AccessKey/SecretKey (iss = AK, exp, nbf), verified here: codes 1001 (no header),
// 1002 (malformed / not HS256 / no exp), 1000 (bad signature or iss), 1003 (nbf in the future), 1004 (expired).
// Wire shapes: ../../../docs/vendors/kling.md; the error table (incl. 1103=403, 1202/1203=404) was checked against
// a copy of the official "General Information" page; message wordings are the fake's own.
import type http from 'node:http';
import { createHmac, timingSafeEqual } from 'node:crypto';
import { newId, sendJson, sleep, startFakeImageServer, type Ctx, type FakeImageServer } from './fake-http.js';
import { colorFor, makeImage, sizeForRatio } from './image-bytes.js';

export type { FakeCall } from './fake-http.js';
/** What one poll answers before the final state: a state name, or an HTTP error for that poll. */
export type Step = 'submitted' | 'processing' | { status: number; code?: number; message?: string };
export type Scenario =
  /** default steps ['processing']; `images` defaults to the request's n */
  | { kind: 'ok'; steps?: Step[]; images?: number; format?: 'png' | 'jpeg' }
  | { kind: 'fail'; steps?: Step[]; message?: string }
  /** the create call itself is rejected */
  | { kind: 'status'; status: number; code?: number; message?: string }
  /** the create call answers after delayMs, then the task behaves as `ok` */
  | { kind: 'slow'; delayMs: number };
export interface KlingTask {
  task_id: string; external_task_id: string; created_at: number; polls: number;
  script: Extract<Scenario, { kind: 'ok' | 'fail' }>; n: number; width: number; height: number; images?: { index: number; url: string }[];
}
export interface FakeKlingImages extends FakeImageServer<Scenario> {
  accessKey: string; secretKey: string;
  tasks: Map<string, KlingTask>;
}

type Res = http.ServerResponse;
const ASPECTS = ['16:9', '9:16', '1:1', '4:3', '3:4', '3:2', '2:3', '21:9'];
const DEFAULT_STATUS: Record<number, number> = { 1000: 401, 1001: 401, 1002: 401, 1003: 401, 1004: 401, 1102: 429, 1103: 403, 1201: 400, 1203: 404, 1301: 400, 1302: 429, 1303: 429, 5000: 500, 5001: 503 };
const DEFAULT_CODE: Record<number, number> = { 400: 1201, 401: 1000, 403: 1103, 404: 1203, 429: 1302, 500: 5000, 503: 5001 };

const b64url = (v: Buffer | string) => Buffer.from(v).toString('base64url');
const requestId = () => newId(11);
export const klingError = (code: number, message: string) => ({ code, message, request_id: requestId() });
const ok = (data: unknown) => ({ code: 0, message: 'SUCCEED', request_id: requestId(), data });

/** Mints a token the way Kling's sample does (30 min validity, 5 s back-dated nbf); overrides for negative tests. */
export function mintKlingJwt(accessKey: string, secretKey: string, o: { exp?: number; nbf?: number; iss?: string; alg?: string } = {}): string {
  const now = Math.floor(Date.now() / 1000);
  const head = b64url(JSON.stringify({ alg: o.alg ?? 'HS256', typ: 'JWT' }));
  const body = b64url(JSON.stringify({ iss: o.iss ?? accessKey, exp: o.exp ?? now + 1800, nbf: o.nbf ?? now - 5 }));
  return `${head}.${body}.${b64url(createHmac('sha256', secretKey).update(`${head}.${body}`).digest())}`;
}

/** Returns [code, message] of the auth failure, or undefined when the token is good. */
function verifyJwt(header: string | undefined, ak: string, sk: string): [number, string] | undefined {
  if (!header) return [1001, 'Authorization is empty'];
  const m = /^Bearer ([\w-]+)\.([\w-]+)\.([\w-]+)$/.exec(header);
  if (!m) return [1002, 'Authorization is invalid'];
  let head: any, payload: any;
  try { head = JSON.parse(Buffer.from(m[1], 'base64url').toString()); payload = JSON.parse(Buffer.from(m[2], 'base64url').toString()); } catch { return [1002, 'Authorization is invalid'] as [number, string]; }
  if (head?.alg !== 'HS256' || typeof payload?.exp !== 'number') return [1002, 'Authorization is invalid'];
  const want = createHmac('sha256', sk).update(`${m[1]}.${m[2]}`).digest();
  const got = Buffer.from(m[3], 'base64url');
  if (got.length !== want.length || !timingSafeEqual(got, want) || payload.iss !== ak) return [1000, 'Authentication failed'];
  const now = Math.floor(Date.now() / 1000);
  if (typeof payload.nbf === 'number' && payload.nbf > now) return [1003, 'Authorization is not yet valid'];
  if (payload.exp <= now) return [1004, 'Authorization has expired'];
  return undefined;
}

function taskData(t: KlingTask, status: string, extra: object = {}) {
  return { task_id: t.task_id, task_status: status, task_status_msg: '', task_info: { external_task_id: t.external_task_id }, created_at: t.created_at, updated_at: Date.now(), ...extra };
}

export async function startFakeKlingImages(opts: { accessKey?: string; secretKey?: string } = {}): Promise<FakeKlingImages> {
  const accessKey = opts.accessKey ?? 'ak-fake';
  const secretKey = opts.secretKey ?? 'sk-fake';
  const tasks = new Map<string, KlingTask>();

  async function create(ctx: Ctx<Scenario>): Promise<void> {
    const { res, body } = ctx;
    const bad = (msg: string) => sendJson(res, 400, klingError(1201, msg));
    if (!body || typeof body !== 'object' || Array.isArray(body)) return bad('Request body is not valid JSON');
    if (typeof body.prompt !== 'string' || !body.prompt || body.prompt.length > 2500) return bad('prompt is required and must not exceed 2500 characters');
    const n = Number(body.n ?? 1);
    if (!Number.isInteger(n) || n < 1 || n > 9) return bad('n must be an integer between 1 and 9');
    const aspect = String(body.aspect_ratio ?? '16:9');
    if (!ASPECTS.includes(aspect)) return bad(`aspect_ratio is invalid: ${aspect}`);
    const resolution = String(body.resolution ?? '1k');
    if (resolution !== '1k' && resolution !== '2k') return bad(`resolution is invalid: ${resolution}`);
    if (typeof body.image === 'string' && body.image.startsWith('data:')) return bad('image must be a URL or raw Base64 without a data: prefix');
    let s = ctx.next();
    if (s.kind === 'status') return sendJson(res, s.status, klingError(s.code ?? DEFAULT_CODE[s.status] ?? 5000, s.message ?? `Request failed with status ${s.status}`));
    if (s.kind === 'slow') { await sleep(s.delayMs, ctx.signal); s = { kind: 'ok' }; }
    const [width, height] = sizeForRatio(aspect, resolution === '2k' ? 2048 : 1024);
    const t: KlingTask = { task_id: String(BigInt(`0x${newId(7)}`)), external_task_id: String(body.external_task_id ?? ''), created_at: Date.now(), polls: 0, script: s, n, width, height };
    tasks.set(t.task_id, t);
    sendJson(res, 200, ok(taskData(t, 'submitted', { updated_at: t.created_at })));
  }

  async function query(ctx: Ctx<Scenario>, id: string): Promise<void> {
    const t = tasks.get(id);
    if (!t) return sendJson(ctx.res, 404, klingError(1203, `task not found: ${id}`));
    const steps = t.script.steps ?? ['processing'];
    const step = steps[t.polls++];
    if (typeof step === 'object') {
      const code = step.code ?? DEFAULT_CODE[step.status] ?? 5000;
      return sendJson(ctx.res, step.status, klingError(code, step.message ?? `Request failed with status ${step.status}`));
    }
    if (step) return sendJson(ctx.res, 200, ok(taskData(t, step)));
    if (t.script.kind === 'fail') {
      return sendJson(ctx.res, 200, ok({ ...taskData(t, 'failed'), task_status_msg: t.script.message ?? 'Failure to pass the risk control system' }));
    }
    const format = t.script.format ?? 'png';
    if (!t.images) {
      const count = t.script.images ?? t.n;
      t.images = [];
      for (let i = 0; i < count; i++) {
        const bytes = await makeImage(format, t.width, t.height, { color: colorFor(i) });
        t.images.push({ index: i, url: ctx.host(bytes, `image/${format}`, { dir: '/bs2/upload-kling-api/image/', prefix: `${t.task_id}-${i}_raw_image_`, ext: format }) });
      }
    }
    sendJson(ctx.res, 200, ok(taskData(t, 'succeed', { task_result: { images: t.images } })));
  }

  async function handle(ctx: Ctx<Scenario>): Promise<void> {
    const auth = verifyJwt(ctx.req.headers.authorization, accessKey, secretKey);
    if (auth) return sendJson(ctx.res, DEFAULT_STATUS[auth[0]], klingError(auth[0], auth[1]));
    if (ctx.req.method === 'POST' && ctx.path === '/v1/images/generations') return create(ctx);
    const q = /^\/v1\/images\/generations\/([^/]+)$/.exec(ctx.path);
    if (ctx.req.method === 'GET' && q) return query(ctx, decodeURIComponent(q[1]));
    sendJson(ctx.res, 404, klingError(1202, `Invalid method: ${ctx.req.method} ${ctx.path}`));
  }

  const base = await startFakeImageServer<Scenario>({
    basePath: '',
    initial: { kind: 'ok' },
    handle,
    crash: (res: Res, err) => sendJson(res, 500, klingError(5000, `fake upstream crashed: ${String(err)}`)),
  });
  return { ...base, accessKey, secretKey, tasks, reset() { base.reset(); tasks.clear(); } };
}
