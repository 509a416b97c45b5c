// A replay upstream: answers every request with one recorded vendor answer from test/fixtures/recorded/ (INDEX.md
// there says where each recording comes from). A test chooses the recording before its call; the bytes go out as
// recorded.
import http from 'node:http'
import { readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { listenLocal } from './listen-local.js'

export const RECORDED_DIR = join(dirname(fileURLToPath(import.meta.url)), '..', 'fixtures', 'recorded')

/**
 * How a recorded stream goes on the wire. A `.chunks.txt` recording holds the payloads the vendor streamed, one per
 * line (the AI SDK's fixture format); each protocol frames them its own way (docs/vendors/):
 * - `chat`: OpenAI-compatible chat completions, `data: <payload>\n\n` each, then `data: [DONE]\n\n`;
 * - `events`: Anthropic messages and OpenAI responses, `event: <payload's type>\ndata: <payload>\n\n`, no terminator;
 * - `gemini`: `:streamGenerateContent?alt=sse`, `data: <payload>\r\n\r\n` each, no terminator;
 * - `interactions`: Gemini's `/v1beta/interactions`, `data: <payload>\n\n` each (the payload names its own
 *   `event_type`), no terminator: the recorded stream ends with `interaction.completed`.
 */
export type Framing = 'chat' | 'events' | 'gemini' | 'interactions'

export interface Recording {
  /** the file under test/fixtures/recorded/, e.g. `xai/xai-tool-call.json` */
  file: string
  /** for a `.chunks.txt` stream: how its payloads are framed */
  framing?: Framing
  /** the answer's status (default 200) */
  status?: number
  /** headers to answer with, beside the content type */
  headers?: Record<string, string>
  /** the content type of a whole body that is not JSON (e.g. `audio/mpeg` for recorded speech) */
  contentType?: string
}

export interface ReplayCall {
  method: string
  /** path and query, as the gateway sent them */
  path: string
  headers: http.IncomingHttpHeaders
  /** the request body as sent */
  body: string
}

export interface ReplayUpstream {
  url: string
  /** every request received since the last reset */
  calls: ReplayCall[]
  /**
   * The recording the next requests are answered with (until another is chosen); a list answers them in turn, its
   * last recording then answering every further request (a task created, then polled).
   */
  serve(recording: Recording | Recording[]): void
  reset(): void
  close(): Promise<void>
}

/** The recorded bytes of a file under test/fixtures/recorded/. */
export const recordedBytes = (file: string): Buffer => readFileSync(join(RECORDED_DIR, file))

/** The payloads of a `.chunks.txt` recording, one per non-empty line, as recorded. */
export const recordedChunks = (file: string): string[] => recordedBytes(file).toString('utf8').split('\n').filter((line) => line !== '')

/** The bytes a recorded stream goes out as, framed for its protocol. */
export function framedStream(file: string, framing: Framing): Buffer {
  const frames = recordedChunks(file).map((payload) => {
    if (framing === 'gemini') return `data: ${payload}\r\n\r\n`
    if (framing === 'chat' || framing === 'interactions') return `data: ${payload}\n\n`
    return `event: ${(JSON.parse(payload) as { type: string }).type}\ndata: ${payload}\n\n`
  })
  if (framing === 'chat') frames.push('data: [DONE]\n\n')
  return Buffer.from(frames.join(''), 'utf8')
}

/** A request body is read whole, up to this many bytes (the replay's requests are small chat bodies). */
const MAX_BODY = 1 << 20

export async function startReplayUpstream(): Promise<ReplayUpstream> {
  let queue: Recording[] = []
  const calls: ReplayCall[] = []
  const server = http.createServer((req, res) => {
    const parts: Buffer[] = []
    let size = 0
    req.on('data', (part: Buffer) => {
      size += part.length
      if (size <= MAX_BODY) parts.push(part)
    })
    req.on('end', () => {
      calls.push({ method: req.method ?? '', path: req.url ?? '', headers: req.headers, body: Buffer.concat(parts).toString('utf8') })
      const current = queue.length > 1 ? queue.shift() : queue[0]
      if (current === undefined) {
        res.writeHead(500, { 'content-type': 'application/json' }).end('{"error":{"message":"replay upstream: no recording chosen"}}')
        return
      }
      const stream = current.framing !== undefined
      const body = stream ? framedStream(current.file, current.framing!) : recordedBytes(current.file)
      res.writeHead(current.status ?? 200, {
        'content-type': stream ? 'text/event-stream' : (current.contentType ?? 'application/json'),
        'content-length': String(body.length),
        ...current.headers,
      })
      res.end(body)
    })
  })
  const { origin, close } = await listenLocal(server)
  return {
    url: origin,
    calls,
    serve(recordings) {
      const list = Array.isArray(recordings) ? recordings : [recordings]
      if (list.length === 0) throw new Error('replay upstream: no recording to serve')
      // Checked now, so a missing file or framing fails the test that names it rather than the gateway's call.
      for (const recording of list) {
        recordedBytes(recording.file)
        if (recording.file.endsWith('.chunks.txt') !== (recording.framing !== undefined)) throw new Error(`replay upstream: ${recording.file} needs a framing exactly when it is a .chunks.txt stream`)
      }
      queue = [...list]
    },
    reset() {
      calls.length = 0
      queue = []
    },
    close,
  }
}
