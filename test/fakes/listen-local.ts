import type http from 'node:http'
import type { AddressInfo, Socket } from 'node:net'

/**
 * Listens on 127.0.0.1 (a free port) and returns a close() that never hangs: stalled requests' sockets are
 * destroyed, and `aborter` (which scenarios pass to their sleeps) is aborted first. close() is idempotent.
 */
export async function listenLocal(server: http.Server, aborter?: AbortController): Promise<{ origin: string; close(): Promise<void> }> {
  const sockets = new Set<Socket>()
  server.on('connection', (s: Socket) => {
    sockets.add(s)
    s.on('close', () => sockets.delete(s))
  })
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => resolve())
  })
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  let closing: Promise<void> | undefined
  return {
    origin,
    close: () =>
      (closing ??= new Promise<void>((resolve) => {
        aborter?.abort()
        server.close(() => resolve())
        server.closeAllConnections?.()
        for (const s of sockets) s.destroy()
      })),
  }
}
