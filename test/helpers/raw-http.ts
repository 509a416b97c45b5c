import { connect } from 'node:net'
/** An answer as read off the socket. */
export interface RawAnswer {
  status: number
  headers: Headers
  text: string
}

/**
 * Sends bytes fetch() refuses to send (any header value, a Content-Length that lies) over a plain socket and
 * parses the first answer; the head should say `connection: close` so the gateway closes after it. The socket is
 * not half-closed (a gateway may take that for a client that left). `undefined` when nothing came back within
 * `timeoutMs` (then the socket is destroyed), which a body shorter than its declared length allows.
 */
export function rawRequest(url: string, head: string, body: Buffer, timeoutMs = 5_000): Promise<RawAnswer | undefined> {
  const { hostname, port } = new URL(url)
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    const socket = connect({ host: hostname, port: Number(port) })
    const timer = setTimeout(() => socket.destroy(), timeoutMs)
    socket.on('data', (c: Buffer) => chunks.push(c))
    socket.on('error', () => {}) // a reset after the answer is the server's right; what arrived is judged below
    socket.on('close', () => {
      clearTimeout(timer)
      try {
        resolve(parseAnswer(Buffer.concat(chunks)))
      } catch (err) {
        reject(err)
      }
    })
    socket.write(Buffer.concat([Buffer.from(head, 'latin1'), body]))
  })
}

function parseAnswer(bytes: Buffer): RawAnswer | undefined {
  if (bytes.length === 0) return undefined
  const split = bytes.indexOf('\r\n\r\n')
  if (split < 0) throw new Error(`incomplete answer head: ${bytes.toString('latin1').slice(0, 200)}`)
  const [statusLine, ...lines] = bytes.subarray(0, split).toString('latin1').split('\r\n')
  const headers = new Headers()
  for (const line of lines) headers.append(line.slice(0, line.indexOf(':')), line.slice(line.indexOf(':') + 1).trim())
  const rest = bytes.subarray(split + 4)
  const length = headers.get('content-length')
  const body = headers.get('transfer-encoding') === 'chunked' ? dechunk(rest) : length !== null ? rest.subarray(0, Number(length)) : rest
  return { status: Number(statusLine.split(' ')[1]), headers, text: body.toString('utf8') }
}

function dechunk(bytes: Buffer): Buffer {
  const parts: Buffer[] = []
  for (let at = 0; at < bytes.length;) {
    const lineEnd = bytes.indexOf('\r\n', at)
    const size = parseInt(bytes.subarray(at, lineEnd).toString('latin1'), 16)
    if (!(size > 0)) break
    parts.push(bytes.subarray(lineEnd + 2, lineEnd + 2 + size))
    at = lineEnd + 2 + size + 2
  }
  return Buffer.concat(parts)
}
