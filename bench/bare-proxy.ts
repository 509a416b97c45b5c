// The floors for any Node gateway: node:http in, one pooled keep-alive undici Agent out, and nothing else — no auth,
// no validation, no accounting. Usage: bare-proxy.ts UPSTREAM_ORIGIN [streaming|buffering]. Prints `listening on URL`.
// - streaming (the default): every answer is piped back as it arrives (stream.pipeline, chunked).
// - buffering: a JSON answer is read whole, then sent in one write with a Content-Length, as a gateway that must read
//   the usage before replying does; an SSE answer is still piped (nothing can buffer a stream and stay a stream).
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import type { Readable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import { Agent, request, type Dispatcher } from 'undici'

const MODES = ['streaming', 'buffering'] as const
const upstream = process.argv[2]
const mode = process.argv[3] ?? 'streaming'
if (!upstream || !(MODES as readonly string[]).includes(mode)) throw new Error(`usage: bare-proxy.ts UPSTREAM_ORIGIN [${MODES.join('|')}]`)
const buffering = mode === 'buffering'

// Same pool settings as the gateway's own agent, so the comparison is about what happens around the call.
const agent = new Agent({ keepAliveTimeout: 30_000 })

// A gateway must hold the whole body to route it; buffering here keeps the floor honest about that cost.
function readAll(stream: Readable): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = []
    stream.on('data', (c: Buffer) => parts.push(c))
    stream.on('end', () => resolve(Buffer.concat(parts)))
    stream.on('error', reject)
  })
}

async function relay(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
  const body = await readAll(req)
  const headers: Record<string, string> = {}
  // Content-type is part of what the body means; every other request header is deliberately dropped.
  if (req.headers['content-type']) headers['content-type'] = req.headers['content-type']
  const up = await request(`${upstream}${req.url}`, { method: req.method as Dispatcher.HttpMethod, headers, body, dispatcher: agent })
  const type = up.headers['content-type']
  const typeHeader = typeof type === 'string' ? { 'content-type': type } : {}
  if (buffering && !(typeof type === 'string' && type.startsWith('text/event-stream'))) {
    const answer = await readAll(up.body)
    // writeHead only records the head: end() sends it and the body together.
    res.writeHead(up.statusCode, { ...typeHeader, 'content-length': answer.length }).end(answer)
    return
  }
  res.writeHead(up.statusCode, typeHeader)
  // pipeline forwards each chunk as it arrives (SSE frames stay separate) and honours back-pressure.
  await pipeline(up.body, res)
}

const server = http.createServer((req, res) => {
  relay(req, res).catch(() => {
    if (!res.headersSent) res.writeHead(502).end()
    else res.destroy()
  })
})
server.listen(0, '127.0.0.1', () => {
  const { port } = server.address() as AddressInfo
  process.stdout.write(`listening on http://127.0.0.1:${port}\n`)
})

let closing = false
function shutdown(): void {
  if (closing) return
  closing = true
  server.close()
  server.closeAllConnections()
  agent.close().finally(() => process.exit(0))
}
process.on('SIGTERM', shutdown)
process.on('SIGINT', shutdown)
