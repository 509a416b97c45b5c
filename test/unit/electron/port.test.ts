import { createServer, type AddressInfo, type Server } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import { findFreePort, isAddressInUse, startupPort } from '../../../electron/port.js'

const servers: Server[] = []
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise((resolve) => s.close(resolve))))
})

function listen(port: number): Promise<Server> {
  const server = createServer()
  servers.push(server)
  return new Promise((resolve, reject) => {
    server.once('error', reject)
    server.listen(port, '127.0.0.1', () => resolve(server))
  })
}

describe('findFreePort', () => {
  it('returns a port that can be listened on at once', async () => {
    const port = await findFreePort()
    expect(port).toBeGreaterThan(0)
    const server = await listen(port)
    expect((server.address() as AddressInfo).port).toBe(port)
  })
  it('does not return a port that is taken', async () => {
    const taken = (await listen(0)).address() as AddressInfo
    expect(await findFreePort()).not.toBe(taken.port)
  })
})

describe('isAddressInUse', () => {
  it('recognises the listen error for a busy port', async () => {
    const taken = ((await listen(0)).address() as AddressInfo).port
    const err = await listen(taken).catch((e: unknown) => e)
    expect(isAddressInUse(err)).toBe(true)
  })
  it.each([[new Error('x')], [null], ['EADDRINUSE'], [{ code: 'EACCES' }]])('is false for %j', (err) => {
    expect(isAddressInUse(err)).toBe(false)
  })
})

describe('startupPort', () => {
  it.each([
    [undefined, 8787],
    ['0', 0],
    ['9000', 9000],
    [' 9001 ', 9001],
    ['65536', 8787],
    ['-1', 8787],
    ['80a', 8787],
    ['', 8787],
  ])('GATEHOUSE_PORT=%j → %i', (env, expected) => {
    expect(startupPort(env, 8787)).toBe(expected)
  })
})
