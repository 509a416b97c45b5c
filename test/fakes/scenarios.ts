// The scenario engine of the vendor fakes (openai, anthropic, gemini, images/*): what the next call plays (a default
// scenario, and a queue of one-off ones before it), the calls recorded, the server around a fake's handler, and the
// faults every fake plays the same way whatever its vendor: an error status, a stall (before or after the headers),
// a reset, a stream cut after N chunks, an empty stream, a slow answer. A fake says only how its vendor's wire looks
// (its JSON content type, how its stream opens, its partial frames and error bodies) through a `Wire`.
import http from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { listenLocal } from './listen-local.js';

type Res = http.ServerResponse;

export interface FakeCall {
  method: string;
  path: string; // request-target as received (path plus any query string)
  headers: Record<string, string | string[] | undefined>;
  body: any; // parsed JSON, or raw string if not JSON
}

/** The call as recorded: method, request-target, a copy of the headers, and the body as the fake read it. */
export const callOf = (req: http.IncomingMessage, body: unknown): FakeCall =>
  ({ method: req.method ?? 'GET', path: req.url ?? '/', headers: { ...req.headers }, body });

/** Which scenario each call plays: the next one queued by `once`, else the one `setScenario` set (at first `initial`). */
export interface Scenarios<S> {
  next(): S;
  setScenario(s: S): void;
  once(...s: S[]): void;
  /** back to `initial`, the queue emptied */
  reset(): void;
}

export function scenarios<S>(initial: S): Scenarios<S> {
  let current = initial;
  const queue: S[] = [];
  return {
    next: () => queue.shift() ?? current,
    setScenario: (s) => void (current = s),
    once: (...s) => void queue.push(...s),
    reset() {
      queue.length = 0;
      current = initial;
    },
  };
}

// --- HTTP plumbing every fake shares -------------------------------------------------------------

/** A client that went away leaves res un-destroyed but its socket destroyed; writing then would throw. */
export const gone = (res: Res) => res.destroyed || (res.socket?.destroyed ?? true);

/** Waits `ms`, cut short (without throwing) when `signal` aborts: close() never waits for a slow scenario. */
export const pause = (ms: number, signal?: AbortSignal) => sleep(ms, undefined, { signal }).catch(() => {});

export function readBody(req: http.IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    req.on('data', (c: Buffer) => parts.push(c));
    req.on('end', () => resolve(Buffer.concat(parts)));
    req.on('error', reject);
  });
}

export function parseJson(raw: string): { ok: true; value: any } | { ok: false } {
  try { return { ok: true, value: JSON.parse(raw) }; } catch { return { ok: false }; }
}

/** A JSON answer (a string body is sent as it is) with the vendor's JSON content type. */
export function sendJson(res: Res, status: number, body: unknown, contentType: string, headers: Record<string, string> = {}): void {
  if (gone(res)) return;
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  res.writeHead(status, { 'content-type': contentType, 'content-length': Buffer.byteLength(text), ...headers });
  res.end(text);
}

export function openSse(res: Res): void {
  res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache' });
  res.flushHeaders();
}

/** One write per frame, awaiting the flush, so a relaying proxy sees frames arrive separately; `delayMs` between frames. */
export async function writeFrames(res: Res, frames: string[], delayMs = 0, signal?: AbortSignal): Promise<void> {
  for (const [i, frame] of frames.entries()) {
    if (i > 0 && delayMs > 0) await pause(delayMs, signal);
    if (gone(res)) return;
    await new Promise<void>((resolve) => res.write(frame, () => resolve()));
  }
}

/** Pieces that concatenate back to `text`: one per word (leading whitespace kept), or exactly `chunks` character slices. */
export function splitText(text: string, chunks?: number): string[] {
  if (!chunks) return text.split(/(?=\s+\S)/).filter(Boolean);
  const n = Math.max(1, Math.min(chunks, text.length));
  return Array.from({ length: n }, (_, i) => text.slice(Math.floor((i * text.length) / n), Math.floor(((i + 1) * text.length) / n))).filter(Boolean);
}

export const wordCount = (s: string) => s.split(/\s+/).filter(Boolean).length;
export const approxTokens = (chars: number) => Math.max(1, Math.ceil(chars / 4));

/** Characters of message text: strings, `{text}` parts, and `content` of messages, blocks and items, nested. */
export function textChars(v: unknown): number {
  if (typeof v === 'string') return v.length;
  if (Array.isArray(v)) return v.reduce((n: number, x) => n + textChars(x), 0);
  if (v && typeof v === 'object') {
    const o = v as { text?: unknown; content?: unknown };
    return typeof o.text === 'string' ? o.text.length : textChars(o.content);
  }
  return 0;
}

/**
 * Serves `handle` on 127.0.0.1 (see listenLocal: close() never hangs, and aborts `aborter`, which scenarios pass
 * to their waits). A handler that throws gets `crash` (the vendor's 500) if nothing was sent yet, else a cut socket.
 */
export function serveFake(
  handle: (req: http.IncomingMessage, res: Res) => Promise<void>,
  crash: (res: Res, err: unknown) => void,
  aborter = new AbortController(),
): Promise<{ origin: string; close(): Promise<void> }> {
  const server = http.createServer((req, res) => {
    handle(req, res).catch((err) => {
      if (gone(res)) return;
      if (res.headersSent) return void res.destroy();
      crash(res, err);
    });
  });
  return listenLocal(server, aborter);
}

// --- the faults ------------------------------------------------------------------------------------

/** The faults the fakes share; each fake's Scenario type names the ones it plays (under its own field names). */
export type Fault =
  /** the vendor's error answer: `body`, else the vendor's error body for the status */
  | { kind: 'status'; status: number; body?: unknown; headers?: Record<string, string> }
  /** no answer: the socket stays open until the client leaves or close() destroys it */
  | { kind: 'stall' }
  /** a 200 and its headers (a stream's, or JSON's), then nothing */
  | { kind: 'stall_after_headers' }
  /** the socket destroyed before any byte of the answer */
  | { kind: 'reset' }
  /** stream: the frames up to `chunks` content chunks, then the socket destroyed; JSON: half the body, then the same */
  | { kind: 'break_after'; chunks: number }
  /** a 200 with no body at all */
  | { kind: 'empty_stream' }
  /** waits `delayMs`, then the normal answer, its stream frames `delayMs` apart where the fake paces them */
  | { kind: 'slow'; delayMs: number; text?: string };
export type FaultKind = Fault['kind'];

/** How one call's answer looks on the vendor's wire: what the faults need to know. */
export interface Wire {
  res: Res;
  /** the call asked for a stream */
  stream: boolean;
  /** aborted when the fake closes */
  signal: AbortSignal;
  /** content type of the vendor's JSON answers */
  jsonType: string;
  /** writes a stream's 200 and headers (default: server-sent events) */
  openStream?(): void;
  /** `status`: the vendor's error body for a status */
  errorBody?(status: number): unknown;
  /** `break_after` on a stream: every frame up to the n-th content chunk */
  partialStream?(n: number): string[];
  /** `break_after` without a stream: the whole JSON body, half of which is sent */
  fullBody?(): string;
  /** `slow`: the normal answer, played after the wait */
  answer?(s: Extract<Fault, { kind: 'slow' }>): Promise<void>;
}

const FAULT_KINDS = new Set<string>(['status', 'stall', 'stall_after_headers', 'reset', 'break_after', 'empty_stream', 'slow']);
/** A scenario the engine plays (rather than the fake's own answers). */
export const isFault = <S extends { kind: string }>(s: S): s is Extract<S, Fault> => FAULT_KINDS.has(s.kind);

function needs<T>(part: T | undefined, fault: FaultKind): T {
  if (part === undefined) throw new Error(`this fake does not play ${fault}`);
  return part;
}

/** Plays `fault` as the call's answer, in the vendor's wire format that `wire` describes. */
export async function playFault(fault: Fault, wire: Wire): Promise<void> {
  const { res } = wire;
  const openStream = () => (wire.openStream ? wire.openStream() : openSse(res));
  switch (fault.kind) {
    case 'status': {
      const body = fault.body ?? needs(wire.errorBody, 'status')(fault.status);
      return sendJson(res, fault.status, body, wire.jsonType, fault.headers);
    }
    case 'stall': return;
    case 'stall_after_headers':
      if (wire.stream) return openStream();
      res.writeHead(200, { 'content-type': wire.jsonType });
      return res.flushHeaders();
    case 'reset': return void res.socket?.destroy();
    case 'break_after':
      if (wire.stream) {
        openStream();
        await writeFrames(res, needs(wire.partialStream, 'break_after')(fault.chunks), 0, wire.signal);
      } else {
        const body = needs(wire.fullBody, 'break_after')();
        res.writeHead(200, { 'content-type': wire.jsonType, 'content-length': Buffer.byteLength(body) });
        await writeFrames(res, [body.slice(0, body.length >> 1)], 0, wire.signal);
      }
      return void res.socket?.destroy();
    case 'empty_stream':
      if (wire.stream) openStream();
      else res.writeHead(200, { 'content-type': wire.jsonType });
      return void res.end();
    case 'slow':
      await pause(fault.delayMs, wire.signal);
      if (gone(res)) return;
      return needs(wire.answer, 'slow')(fault);
  }
}
