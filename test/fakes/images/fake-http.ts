// Common plumbing for the fake image vendors, on the scenario engine (../scenarios.ts: server lifecycle, scenario
// queue, faults): call recording (JSON or streamed multipart via busboy), SSE frames, and "hosted" result files
// served by the same fake at signed URLs (what the gateway downloads).
import type http from 'node:http';
import { randomBytes } from 'node:crypto';
import busboy from 'busboy';
import { imageInfo } from './image-bytes.js';
import { gone, openSse, pause, readBody, scenarios, sendJson as send, serveFake, writeFrames as write, type FakeCall as EngineCall } from '../scenarios.js';

export { approxTokens, gone, openSse, playFault, isFault } from '../scenarios.js';

export interface UploadedFile {
  field: string; filename: string; mimeType: string; bytes: Buffer;
  /** from the image header (PNG IHDR, JPEG SOFn, WebP) when recognised */
  width?: number; height?: number;
  /** PNG colour type 4/6 or a tRNS chunk; WebP alpha flag; false for JPEG */
  hasAlpha?: boolean;
}
export interface MultipartBody { fields: Record<string, string | string[]>; files: UploadedFile[]; error?: string }
export interface FakeCall extends EngineCall {
  body: any; // parsed JSON, MultipartBody for multipart/form-data, raw string otherwise, undefined if empty
  /** set when the client went away before the answer was complete */
  aborted?: boolean;
}
export interface HostedFile { bytes: Buffer; mimeType: string; signature?: string }
export interface FakeImageServer<S> {
  /** what the gateway account takes as baseUrl (as the vendor's official SDK does) */
  url: string;
  origin: string;
  /** API calls, recorded before answering (downloads of hosted files are in `downloads`) */
  calls: FakeCall[];
  downloads: FakeCall[];
  /** result files by path; delete entries (or clear) to make their links 404, as expired links do */
  hosted: Map<string, HostedFile>;
  /** the next `n` downloads of hosted files answer 503 (the vendor's storage failing, then recovering) */
  failDownloads(n: number): void;
  setScenario(s: S): void;
  once(...s: S[]): void;
  reset(): void;
  close(): Promise<void>;
}
export interface Ctx<S> {
  req: http.IncomingMessage; res: http.ServerResponse; call: FakeCall; body: any;
  /** pathname without query */ path: string; query: URLSearchParams; origin: string; signal: AbortSignal;
  /** the next queued scenario, else the current one */
  next(): S;
  /** serves `bytes` at `${dir}${prefix}<id>.<ext>` and returns its absolute URL (with a signature query if `signed`) */
  host(bytes: Buffer, mimeType: string, o: { dir: string; prefix?: string; ext: string; signed?: boolean }): string;
}

export const newId = (bytes = 12) => randomBytes(bytes).toString('hex');
export const nowSec = () => Math.floor(Date.now() / 1000);
export const sleep = (ms: number, signal: AbortSignal) => pause(ms, signal);

/** The image fakes' JSON content type. */
export const JSON_TYPE = 'application/json; charset=utf-8';
export function sendJson(res: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  send(res, status, body, JSON_TYPE, headers);
}

/** `event: <type>` + `data: <json>` frame; `type` null gives a bare data frame. */
export const sseFrame = (type: string | null, data: unknown) =>
  `${type ? `event: ${type}\n` : ''}data: ${typeof data === 'string' ? data : JSON.stringify(data)}\n\n`;

/** One write per frame, awaiting the flush; `breakAfter` destroys the socket after that many frames. */
export async function writeFrames(res: http.ServerResponse, frames: string[], o: { delayMs?: number; signal: AbortSignal; breakAfter?: number }): Promise<void> {
  const cut = o.breakAfter !== undefined && o.breakAfter < frames.length;
  await write(res, cut ? frames.slice(0, o.breakAfter) : frames, o.delayMs, o.signal);
  if (cut) return void res.socket?.destroy();
  if (!gone(res)) res.end();
}

/** Streams multipart/form-data through busboy; repeated field names collect into arrays. Never rejects. */
export function parseMultipart(req: http.IncomingMessage): Promise<MultipartBody> {
  const out: MultipartBody = { fields: {}, files: [] };
  return new Promise((resolve) => {
    const fail = (err: unknown) => { out.error = String((err as Error)?.message ?? err); req.resume(); resolve(out); };
    let bb: busboy.Busboy;
    try { bb = busboy({ headers: req.headers }); } catch (err) { return fail(err); }
    const pending: Promise<void>[] = [];
    bb.on('field', (name, value) => {
      const prev = out.fields[name];
      out.fields[name] = prev === undefined ? value : [...(Array.isArray(prev) ? prev : [prev]), value];
    });
    bb.on('file', (field, stream, info) => {
      const file: UploadedFile = { field, filename: info.filename ?? '', mimeType: info.mimeType, bytes: Buffer.alloc(0) };
      out.files.push(file); // in arrival order
      pending.push(new Promise<void>((done) => {
        const parts: Buffer[] = [];
        stream.on('data', (c: Buffer) => parts.push(c));
        stream.on('end', () => {
          file.bytes = Buffer.concat(parts);
          const { width, height, hasAlpha } = imageInfo(file.bytes);
          Object.assign(file, { width, height, hasAlpha });
          done();
        });
      }));
    });
    bb.on('close', () => void Promise.all(pending).then(() => resolve(out)));
    bb.on('error', fail);
    req.pipe(bb);
  });
}

export async function startFakeImageServer<S extends object>(o: {
  basePath: string;
  initial: S;
  handle(ctx: Ctx<S>): Promise<void>;
  /** answer for a handler that threw (vendor error shape) */
  crash(res: http.ServerResponse, err: unknown): void;
}): Promise<FakeImageServer<S>> {
  const plays = scenarios<S>(o.initial);
  const calls: FakeCall[] = [];
  const downloads: FakeCall[] = [];
  const hosted = new Map<string, HostedFile>();
  let failing = 0;
  const aborter = new AbortController();
  let origin = '';

  async function handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://fake');
    const call: FakeCall = { method: req.method ?? 'GET', path: req.url ?? '/', headers: { ...req.headers }, body: undefined };
    res.on('close', () => { if (!res.writableFinished) call.aborted = true; });
    const file = req.method === 'GET' ? hosted.get(url.pathname) : undefined;
    if (file) {
      downloads.push(call);
      await readBody(req);
      if (failing > 0) {
        failing--;
        res.writeHead(503, { 'content-type': 'application/xml' });
        return void res.end('<Error><Code>ServiceUnavailable</Code><Message>please retry</Message></Error>');
      }
      if (file.signature && url.searchParams.get('X-Fake-Signature') !== file.signature) {
        res.writeHead(403, { 'content-type': 'application/xml' });
        return void res.end('<Error><Code>AccessDenied</Code><Message>signature mismatch</Message></Error>');
      }
      res.writeHead(200, { 'content-type': file.mimeType, 'content-length': file.bytes.length });
      return void res.end(file.bytes);
    }
    if (/^multipart\/form-data/i.test(String(req.headers['content-type'] ?? ''))) {
      call.body = await parseMultipart(req);
    } else {
      const raw = (await readBody(req)).toString('utf8');
      try { call.body = raw === '' ? undefined : JSON.parse(raw); } catch { call.body = raw; }
    }
    calls.push(call);
    await o.handle({
      req, res, call, body: call.body, path: url.pathname, query: url.searchParams, origin, signal: aborter.signal,
      next: plays.next,
      host(bytes, mimeType, h) {
        const path = `${h.dir}${h.prefix ?? ''}${newId(10)}.${h.ext}`;
        const signature = h.signed ? newId(16) : undefined;
        hosted.set(path, { bytes, mimeType, signature });
        return `${origin}${path}${signature ? `?X-Fake-Expires=86400&X-Fake-Date=${nowSec()}&X-Fake-Signature=${signature}` : ''}`;
      },
    });
  }

  const listening = await serveFake(handle, o.crash, aborter);
  origin = listening.origin;
  return {
    url: origin + o.basePath,
    origin,
    calls,
    downloads,
    hosted,
    failDownloads(n) { failing = n; },
    setScenario: plays.setScenario,
    once: plays.once,
    reset() { calls.length = 0; downloads.length = 0; plays.reset(); hosted.clear(); },
    close: listening.close,
  };
}
