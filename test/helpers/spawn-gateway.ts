import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process'
import { GATEWAY_NODE_FLAGS } from '../../electron/gateway/node-flags.js'

const ROOT = new URL('../../', import.meta.url).pathname

export interface GatewayProcess {
  child: ChildProcessWithoutNullStreams
  stdout: string[]
  stderr: () => string
  exited: Promise<number | null>
  url: Promise<string>
}

/** Runs the headless gateway as its own process, exactly as `npm run gateway -- ...` does. */
/** `nodeArgs`: flags for Node itself, before the script (a preload, say); `env`: added to the test's environment. */
export function runGateway(args: string[], nodeArgs: string[] = [], env: Record<string, string> = {}): GatewayProcess {
  // The script and flags `npm run gateway` runs, without npm in between: the pid signalled is the gateway's own.
  const child = spawn(process.execPath, [...GATEWAY_NODE_FLAGS, ...nodeArgs, 'scripts/gateway.mjs', ...args], { cwd: ROOT, env: { ...process.env, NODE_OPTIONS: '', ...env } })
  const stdout: string[] = []
  let err = ''
  let resolveUrl: (u: string) => void
  const url = new Promise<string>((r) => (resolveUrl = r))
  let buffered = ''
  child.stdout.on('data', (d: Buffer) => {
    buffered += d.toString()
    const lines = buffered.split('\n')
    buffered = lines.pop()!
    for (const line of lines) {
      stdout.push(line)
      const m = /^gateway listening on (http:\/\/\S+)$/.exec(line)
      if (m) resolveUrl(m[1])
    }
  })
  child.stderr.on('data', (d: Buffer) => (err += d.toString()))
  const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)))
  return { child, stdout, stderr: () => err, exited, url }
}
