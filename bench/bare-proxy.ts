// The floor for any Node gateway: node:http in, one pooled keep-alive undici Agent out, and nothing else — no auth,
// no validation, no accounting. Usage: bare-proxy.ts UPSTREAM_ORIGIN. Prints `listening on URL`.
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { pipeline } from 'node:stream/promises'
import { Agent, request, type Dispatcher } from 'undici'

const upstream = process.argv[2]
if (!upstream) throw new Error('usage: bare-proxy.ts UPSTREAM_ORIGIN')

// Same pool settings as the gateway's own agent, so the comparison is about what happens around the call.
const agent = new Agent({ keepAliveTimeout: 30_000 })

// A gateway must hold the whole body to route it; buffering here keeps the floor honest about that cost.
function readBody(req: http.IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = []
    req.on('data', (c: Buffer) => parts.push(c))
    req.on('end', () => resolve(Buffer.concat(parts)))
    req.on('error', reject)
  })
}

async function relay(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
  const body = await readBody(req)
  const headers: Record<string, string> = {}
  // Content-type is part of what the body means; every other request header is deliberately dropped.
  if (req.headers['content-type']) headers['content-type'] = req.headers['content-type']
  const up = await request(`${upstream}${req.url}`, { method: req.method as Dispatcher.HttpMethod, headers, body, dispatcher: agent })
  const type = up.headers['content-type']
  res.writeHead(up.statusCode, typeof type === 'string' ? { 'content-type': type } : {})
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
