// A process's CPU time as Linux reports it in /proc/<pid>/stat.
import { execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'

/** Clock ticks per second, the unit of /proc/<pid>/stat's times (100 on every common Linux). */
const TICKS_PER_S = (() => {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100
  } catch {
    return 100
  }
})()

/** User plus system time of process `pid` (every thread) so far, in ms; undefined when it cannot be read. */
export function readProcCpuMs(pid: number | undefined): number | undefined {
  if (pid === undefined) return undefined
  try {
    // The fields after the command name, which may itself hold spaces, start at the state (field 3).
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ').at(-1)!.split(' ')
    const ticks = Number(fields[11]) + Number(fields[12])
    return Number.isFinite(ticks) ? (ticks * 1000) / TICKS_PER_S : undefined
  } catch {
    return undefined
  }
}
