// The bench's CPU time per request reads a target's user + system time from /proc/<pid>/stat (bench/proc-cpu.ts).
import { describe, expect, it } from 'vitest'
import { readProcCpuMs } from '../../bench/proc-cpu.js'

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
