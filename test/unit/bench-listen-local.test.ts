// bench/listen-local.mjs, preloaded into a peer gateway that takes a port but no host: such a server listens on
// 127.0.0.1, not on every interface, and the first to listen prints the port it got for the benchmark to read.
import { execFile } from 'node:child_process'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { promisify } from 'node:util'
import { describe, expect, it } from 'vitest'
import { ROOT } from '../../bench/root.js'

const run = promisify(execFile)
const PRELOAD = pathToFileURL(join(ROOT, 'bench', 'listen-local.mjs')).href

/** Runs `listen` (a call on `server`) in a Node process with the preload; the server prints its address, then closes. */
async function listenWith(listen: string): Promise<{ stdout: string; address: { address: string; port: number } }> {
  const script = `const http = require('node:http'); const server = http.createServer(); const done = () => { console.log('ADDRESS ' + JSON.stringify(server.address())); server.close() }; ${listen}`
  const { stdout } = await run(process.execPath, ['--import', PRELOAD, '-e', script], { timeout: 10_000 })
  const line = /^ADDRESS (.*)$/m.exec(stdout)
  if (!line) throw new Error(`no address printed:\n${stdout}`)
  return { stdout, address: JSON.parse(line[1]) as { address: string; port: number } }
}

describe('listen-local preload', () => {
  it('binds a server given a port and no host to 127.0.0.1 and prints the port it got', async () => {
    const { stdout, address } = await listenWith('server.listen(0, done)')
    expect(address.address).toBe('127.0.0.1')
    expect(address.port).toBeGreaterThan(0)
    expect(stdout).toContain(`listening on http://127.0.0.1:${address.port}\n`)
  })

  it('binds an explicitly undefined host to 127.0.0.1, as @hono/node-server passes it', async () => {
    const { address } = await listenWith('server.listen(0, undefined, done)')
    expect(address.address).toBe('127.0.0.1')
  })

  it('keeps a host the server names', async () => {
    const { stdout, address } = await listenWith("server.listen(0, 'localhost', done)")
    expect(['127.0.0.1', '::1']).toContain(address.address)
    const host = address.address === '::1' ? '[::1]' : address.address
    expect(stdout).toContain(`listening on http://${host}:${address.port}\n`)
  })
})
