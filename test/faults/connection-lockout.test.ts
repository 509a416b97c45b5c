// Connections that are served nothing — silent ones, ones that sent one junk line, heads that never end — must not
// keep anyone else from being answered, whatever their number; and a connection the gateway answered with an error
// is closed for good, even when the peer keeps its own side open.
import { connect, type Socket } from 'node:net'
import { Agent, request } from 'undici'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startFakeOpenAI, type FakeOpenAI } from '../fakes/openai.js'
import { chatConfig, startTestGateway, TEST_KEY, type TestGateway } from '../helpers/gateway.js'
import { until } from '../helpers/until.js'

const FLOOD = 2_000
/** The default `limits.maxConnections`. */
const DEFAULT_CAP = 1024
/** Connections opened at once while flooding (the listen backlog is 511). */
const BATCH = 250

let fake: FakeOpenAI

beforeAll(async () => {
  fake = await startFakeOpenAI()
})
afterAll(() => fake.close())

interface Peer {
  socket: Socket
  /** the bytes received so far */
  received: () => string
}

/**
 * Opens `count` connections in batches, each writing `line` (when given) once connected. Like an attacker, each keeps
 * its own side open when the gateway ends its side (allowHalfOpen). Resolves once every one has connected or been
 * closed; rejects after `ms`.
 */
async function flood(g: TestGateway, count: number, line: string | undefined, ms = 30_000): Promise<Peer[]> {
  const peers: Peer[] = []
  const deadline = Date.now() + ms
  for (let start = 0; start < count; start += BATCH) {
    const batch = Array.from({ length: Math.min(BATCH, count - start) }, () => {
      const socket = connect({ port: g.port, host: '127.0.0.1', allowHalfOpen: true })
      const chunks: Buffer[] = []
      socket.on('data', (c: Buffer) => chunks.push(c))
      socket.on('error', () => {}) // an evicted connection may be reset; that is the gateway's right
      const settled = new Promise<void>((resolve) => {
        socket.once('connect', () => {
          if (line !== undefined) socket.write(line)
          resolve()
        })
        socket.once('close', () => resolve())
      })
      peers.push({ socket, received: () => Buffer.concat(chunks).toString('latin1') })
      return settled
    })
    let timer: NodeJS.Timeout | undefined
    const late = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error('the flood did not connect in time')), Math.max(deadline - Date.now(), 0))))
    try {
      await Promise.race([Promise.all(batch), late])
    } finally {
      clearTimeout(timer)
    }
  }
  return peers
}

/** The gateway ended or dropped the connection (the peer keeps its own side open, so it is not destroyed itself). */
const closedByGateway = (p: Peer) => p.socket.readableEnded || p.socket.destroyed

const openConnections = (g: TestGateway) =>
  new Promise<number>((resolve, reject) => g.server.getConnections((err, count) => (err ? reject(err) : resolve(count))))

/** Rows of the request log: a request served leaves one. */
async function ledgerRows(g: TestGateway): Promise<number> {
  await g.services.store.ledger.flush()
  return (await g.services.store.ledger.recent(null, 1_000)).length
}

/** GET /v1/models on a connection of its own, every phase bounded: the status it got. */
async function modelsStatus(g: TestGateway): Promise<number> {
  const agent = new Agent({ connect: { timeout: 5_000 }, headersTimeout: 5_000, bodyTimeout: 5_000 })
  try {
    const res = await request(`${g.url}/v1/models`, { headers: { authorization: `Bearer ${TEST_KEY}` }, dispatcher: agent })
    await res.body.dump()
    return res.statusCode
  } finally {
    await agent.destroy()
  }
}

const answerOf = (status: string, message: string, code: string) => new RegExp(
  `^HTTP/1\\.1 ${status}\\r\\nx-request-id: req_\\w+\\r\\ncontent-type: application/json; charset=utf-8\\r\\ncontent-length: \\d+\\r\\nconnection: close\\r\\n\\r\\n`
    + JSON.stringify({ error: { message, type: 'invalid_request_error', param: null, code } }).replace(/[.*+?^${}()|[\]\\]/g, '\\$&') + '$',
)

describe('the default connection cap (1024) against 2,000 connections served nothing', () => {
  let gw: TestGateway
  beforeAll(async () => {
    gw = await startTestGateway(chatConfig([{ id: 'a', baseUrl: fake.url }]))
  })
  afterAll(() => gw.stop())

  it('2,000 silent connections: a client is still answered (200), and no more than the cap stay open', async () => {
    const peers = await flood(gw, FLOOD, undefined)
    try {
      expect(await modelsStatus(gw)).toBe(200)
      expect(await openConnections(gw)).toBeLessThanOrEqual(DEFAULT_CAP)
      // The newest silent ones are still held: the oldest made room for the newcomers.
      expect(closedByGateway(peers[0])).toBe(true)
      expect(closedByGateway(peers.at(-1)!)).toBe(false)
    } finally {
      for (const p of peers) p.socket.destroy()
    }
    await until('the silent connections to be gone', 10_000, async () => (await openConnections(gw)) === 0)
  })

  it('2,000 connections that each sent one junk line: each gets its 400, a client is answered (200), and all are closed although the peers keep their side open', async () => {
    const peers = await flood(gw, FLOOD, 'JUNK\r\n')
    try {
      expect(await modelsStatus(gw)).toBe(200)
      const junkAnswer = answerOf('400 Bad Request', 'The HTTP request is malformed (HPE_INVALID_METHOD)', 'invalid_request')
      await until('every junk line to be answered', 10_000, () => peers.every((p) => p.received() !== ''))
      for (const p of peers) expect(p.received()).toMatch(junkAnswer)
      // Answered and ended by the gateway; the peers never close: the gateway destroys its side after a short linger.
      await until('the answered connections to be closed', 5_000, async () => (await openConnections(gw)) === 0)
    } finally {
      for (const p of peers) p.socket.destroy()
    }
  })
})

describe('headers that never come (timeouts.headersMs)', () => {
  let gw: TestGateway
  beforeAll(async () => {
    gw = await startTestGateway(chatConfig([{ id: 'a', baseUrl: fake.url }], { timeouts: { headersMs: 1_000 } }))
  })
  afterAll(() => gw.stop())

  it('connections that send nothing at all get a 408 and are closed, although the peers keep their side open', async () => {
    const peers = await flood(gw, 50, undefined)
    try {
      await until('the 50 connections to be accepted', 5_000, async () => (await openConnections(gw)) === 50)
      const timeoutAnswer = answerOf('408 Request Timeout', 'The request headers did not arrive in full within 1000 ms (timeouts.headersMs).', 'request_timeout')
      // headersMs, plus Node's check every second, plus the linger.
      await until('the silent connections to be answered', 5_000, () => peers.every((p) => p.received() !== ''))
      for (const p of peers) expect(p.received()).toMatch(timeoutAnswer)
      await until('the answered connections to be closed', 5_000, async () => (await openConnections(gw)) === 0)
      expect(await modelsStatus(gw)).toBe(200)
    } finally {
      for (const p of peers) p.socket.destroy()
    }
  })

  it('a head completed after its 408 is not served: the connection is closed', async () => {
    const [peer] = await flood(gw, 1, 'GET /v1/models HTTP/1.1\r\nHost: 127.0.0.1\r\n')
    try {
      await until('the 408', 5_000, () => peer.received() !== '')
      expect(peer.received()).toMatch(/^HTTP\/1\.1 408 /)
      const closed = new Promise<void>((resolve) => peer.socket.once('close', () => resolve()))
      const rowsBefore = await ledgerRows(gw)
      peer.socket.write(`Authorization: Bearer ${TEST_KEY}\r\n\r\n`)
      await until('the connection to close', 5_000, async () => (await openConnections(gw)) === 0)
      peer.socket.end()
      await closed
      expect(await ledgerRows(gw)).toBe(rowsBefore)
    } finally {
      peer.socket.destroy()
    }
  })
})

describe('a small cap (limits.maxConnections 4)', () => {
  let gw: TestGateway
  beforeAll(async () => {
    gw = await startTestGateway(chatConfig([{ id: 'a', baseUrl: fake.url }], { limits: { maxConnections: 4 } }))
  })
  afterAll(() => gw.stop())

  /**
   * Connections being served: an authenticated POST whose body never comes (bounded by timeouts.bodyIdleMs, 30 s).
   * Node's `100 Continue` tells when the gateway has taken the request.
   */
  async function served(count: number): Promise<Peer[]> {
    const head = `POST /v1/chat/completions HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${TEST_KEY}\r\nContent-Type: application/json\r\nContent-Length: 100\r\nExpect: 100-continue\r\n\r\n`
    const peers = await flood(gw, count, head)
    await until('the requests to be taken', 5_000, () => peers.every((p) => p.received().startsWith('HTTP/1.1 100 Continue\r\n')))
    return peers
  }

  it('a newcomer takes the place of the oldest connection not being served; the ones being served stay', async () => {
    const busy = await served(2)
    const silent = await flood(gw, 2, undefined)
    try {
      expect(await modelsStatus(gw)).toBe(200)
      await until('the oldest silent connection to be dropped', 5_000, () => closedByGateway(silent[0]))
      expect(closedByGateway(silent[1])).toBe(false)
      for (const p of busy) expect(closedByGateway(p)).toBe(false)
    } finally {
      for (const p of [...busy, ...silent]) p.socket.destroy()
    }
    await until('the connections to be gone', 5_000, async () => (await openConnections(gw)) === 0)
  })

  it('when every connection is being served, a newcomer is closed at once without an answer; once one leaves, clients are served', async () => {
    const busy = await served(4)
    try {
      const [over] = await flood(gw, 1, 'GET /v1/models HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n')
      await until('the newcomer to be closed', 5_000, () => closedByGateway(over))
      expect(over.received()).toBe('')
      over.socket.destroy()
      for (const p of busy) expect(closedByGateway(p)).toBe(false)
      busy[0].socket.destroy()
      await until('a place to be free', 5_000, async () => (await openConnections(gw)) === 3)
      expect(await modelsStatus(gw)).toBe(200)
    } finally {
      for (const p of busy) p.socket.destroy()
    }
  })
})
