// The bench reads processes from /proc/<pid>/stat (bench/proc-tree.ts): a target's user + system time for its CPU per
// request, and a process's children (a PostgreSQL cluster's backends) to pin them and to count their time.
import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { describe, expect, it } from 'vitest'
import { childrenOf, parentOf, readProcCpuMs, readProcFamilyCpuMs } from '../../bench/proc-tree.js'

/** A child that spends about 300 ms of CPU, says so on stdout, then waits for its stdin to end. */
const BURNER = "let x = 0; while (process.cpuUsage().user < 300000) x += Math.sqrt(x + 1); process.stdout.write('burnt\\n'); process.stdin.resume()"

describe('readProcCpuMs', () => {
  it("follows the process's own CPU time, as process.cpuUsage counts it, to within a few clock ticks", () => {
    const before = readProcCpuMs(process.pid)!
    const usageBefore = process.cpuUsage()
    // Work of the process's own: about 300 ms of CPU.
    let x = 0
    const until = process.cpuUsage().user + 300_000
    while (process.cpuUsage().user < until) x += Math.sqrt(x + 1)
    const after = readProcCpuMs(process.pid)!
    const usage = process.cpuUsage(usageBefore)
    expect(x).toBeGreaterThan(0)
    // /proc counts in clock ticks (10 ms): the two agree to within a few of them.
    expect(Math.abs(after - before - (usage.user + usage.system) / 1000)).toBeLessThan(40)
    expect(after - before).toBeGreaterThan(250)
  })

  it('is undefined for no process, or one that is not there', () => {
    expect(readProcCpuMs(undefined)).toBeUndefined()
    expect(readProcCpuMs(2 ** 22 + 1)).toBeUndefined()
  })
})

describe('readProcFamilyCpuMs', () => {
  it("counts a parent's children: those alive, then, once ended, the parent's figures for them", async () => {
    const before = readProcFamilyCpuMs(process.pid)!
    const child = spawn(process.execPath, ['-e', BURNER], { stdio: ['pipe', 'pipe', 'inherit'] })
    await once(child.stdout!, 'data')
    // The child's own time first: the family's, read after it, can only have grown since.
    const own = readProcCpuMs(child.pid)!
    const alive = readProcFamilyCpuMs(process.pid)!
    expect(parentOf(child.pid!)).toBe(process.pid)
    expect(childrenOf(process.pid)).toContain(child.pid)
    expect(own).toBeGreaterThan(250)
    expect(alive - before).toBeGreaterThanOrEqual(own)
    child.stdin!.end()
    await once(child, 'exit')
    // Ended and waited for: its time moves into the parent's figures for its children, and is still counted.
    expect(readProcCpuMs(child.pid)).toBeUndefined()
    expect([parentOf(child.pid!), childrenOf(process.pid).includes(child.pid!)]).toEqual([undefined, false])
    expect(readProcFamilyCpuMs(process.pid)! - before).toBeGreaterThanOrEqual(own)
  })

  it('is undefined for no process, or one that is not there', () => {
    expect(readProcFamilyCpuMs(undefined)).toBeUndefined()
    expect(readProcFamilyCpuMs(2 ** 22 + 1)).toBeUndefined()
  })
})
