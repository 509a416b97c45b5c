/** Timeouts that bound how long a client may hold the gateway's resources (config `timeouts`, README "Config file"). */
export interface ClientTimeouts {
  /** longest wait for a request's headers (Node's `server.headersTimeout`) */
  headersMs: number
  /** longest silence while a request body arrives */
  bodyIdleMs: number
  /** the whole request body must arrive within it */
  bodyMs: number
  /** longest time a client may leave a response unread (writes back-pressured, no drain) before it is cut */
  clientIdleMs: number
}

export const DEFAULT_CLIENT_TIMEOUTS: ClientTimeouts = { headersMs: 20_000, bodyIdleMs: 30_000, bodyMs: 120_000, clientIdleMs: 30_000 }

/** The config's client timeouts over the defaults (the same `timeouts` object also holds the upstream ones). */
export function clientTimeoutsOf(config: Partial<ClientTimeouts> = {}): ClientTimeouts {
  const d = DEFAULT_CLIENT_TIMEOUTS
  return {
    headersMs: config.headersMs ?? d.headersMs,
    bodyIdleMs: config.bodyIdleMs ?? d.bodyIdleMs,
    bodyMs: config.bodyMs ?? d.bodyMs,
    clientIdleMs: config.clientIdleMs ?? d.clientIdleMs,
  }
}

/**
 * Open connections the server keeps at once (config `limits.maxConnections`). Every local client shares
 * 127.0.0.1, so it stays far above heavy local use; it only stops a runaway from exhausting file descriptors.
 * At the cap a newcomer takes the place of a connection not being served (connection-table.ts).
 */
export const DEFAULT_MAX_CONNECTIONS = 1024

/**
 * Open connections from one address other than loopback (config `limits.maxConnectionsPerAddress`; an IPv6 client's
 * /64 is one address): one machine on the network cannot take the whole cap. A quarter of it.
 */
export const DEFAULT_MAX_CONNECTIONS_PER_ADDRESS = 256
