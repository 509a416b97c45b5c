import { createServer, type AddressInfo } from 'node:net'

/** A port nobody listens on right now: the OS picks one for a throwaway listener on port 0. */
export function findFreePort(host = '127.0.0.1'): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.unref()
    server.once('error', reject)
    server.listen(0, host, () => {
      const { port } = server.address() as AddressInfo
      server.close(() => resolve(port))
    })
  })
}

/** True for the error `listen()` gives when another program holds the port. */
export function isAddressInUse(err: unknown): boolean {
  return typeof err === 'object' && err !== null && (err as NodeJS.ErrnoException).code === 'EADDRINUSE'
}

/**
 * The port to start on: `GATEHOUSE_PORT` when it is a port number (tests pass 0 for any free port),
 * else the one in settings.
 */
export function startupPort(envPort: string | undefined, settingsPort: number): number {
  if (envPort === undefined || !/^\d{1,5}$/.test(envPort.trim())) return settingsPort
  const port = Number(envPort)
  return port <= 65535 ? port : settingsPort
}
