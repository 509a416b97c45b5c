// Processes as Linux reports them in /proc/<pid>/stat: a process's parent and children, and its CPU time.
import { execFileSync } from 'node:child_process'
import { readdirSync, readFileSync } from 'node:fs'

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
  const fields = pid === undefined ? undefined : statFields(pid)
  if (fields === undefined) return undefined
  const ticks = Number(fields[11]) + Number(fields[12])
  return Number.isFinite(ticks) ? (ticks * 1000) / TICKS_PER_S : undefined
}

/**
 * The fields of /proc/<pid>/stat after the command name, which may itself hold spaces (field 3, the state, first);
 * undefined once the process has ended.
 */
function statFields(pid: number | string): string[] | undefined {
  try {
    return readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ').at(-1)!.split(' ')
  } catch {
    return undefined
  }
}

/** The parent of process `pid` (field 4); undefined once it has ended. */
export function parentOf(pid: number): number | undefined {
  const fields = statFields(pid)
  return fields === undefined ? undefined : Number(fields[1])
}

/** The processes whose parent is `pid` now. */
export function childrenOf(pid: number): number[] {
  return readdirSync('/proc').filter((entry) => /^\d+$/.test(entry)).map(Number).filter((child) => parentOf(child) === pid)
}

/**
 * A process and its children together (a PostgreSQL cluster: its postmaster and backends), in ms: the children alive
 * now, and those already ended and waited for, as the parent's own figures count them.
 */
export function readProcFamilyCpuMs(parentPid: number | undefined): number | undefined {
  const parent = parentPid === undefined ? undefined : statFields(parentPid)
  if (parent === undefined) return undefined
  // utime, stime, cutime, cstime
  let ms = ((Number(parent[11]) + Number(parent[12]) + Number(parent[13]) + Number(parent[14])) * 1000) / TICKS_PER_S
  for (const child of childrenOf(parentPid!)) ms += readProcCpuMs(child) ?? 0
  return Number.isFinite(ms) ? ms : undefined
}
