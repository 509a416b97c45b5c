import { spawnSync } from 'node:child_process'
import { statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { forgetRunning, recordRunning, runningGateway } from '../../../electron/gateway/data-dir/running-record.js'
import { tempDataDir } from '../../helpers/gateway.js'

const dirs: Array<{ dir: string; remove(): void }> = []
afterEach(() => {
  for (const d of dirs.splice(0)) d.remove()
})
const dataDir = () => {
  const d = tempDataDir()
  dirs.push(d)
  return d.dir
}

describe("a running gateway's note for --login", () => {
  const record = { url: 'http://127.0.0.1:8787', pid: process.pid, team: false, loginCodeMinutes: 10 }

  it('is read back while its process lives, private to the owner, and forgotten at a clean stop', () => {
    const dir = dataDir()
    recordRunning(dir, record)
    expect(statSync(join(dir, 'running.json')).mode & 0o777).toBe(0o600)
    expect(runningGateway(dir)).toEqual(record)
    forgetRunning(dir)
    expect(runningGateway(dir)).toBeUndefined()
  })

  it("names nothing once its process is gone, and another process's note is not forgotten by this one", () => {
    const dir = dataDir()
    // A process that has exited: its pid names no process now.
    const gone = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' })
    recordRunning(dir, { ...record, pid: Number(gone.stdout) })
    expect(runningGateway(dir)).toBeUndefined()
    recordRunning(dir, { ...record, pid: process.ppid })
    forgetRunning(dir)
    expect(runningGateway(dir)).toEqual({ ...record, pid: process.ppid })
  })

  it.each(['', 'null', '[]', '{"url":"http://x"}', '{"url":1,"pid":1,"team":false,"loginCodeMinutes":10}', 'not json'])('a damaged note (%s) names nothing', (text) => {
    const dir = dataDir()
    writeFileSync(join(dir, 'running.json'), text)
    expect(runningGateway(dir)).toBeUndefined()
  })
})
