// A process's memory as Linux reports it in /proc/<pid>/status.
import { readFileSync, writeFileSync } from 'node:fs'

/** In kB (KiB): the resident set now and its peak (high-water mark). */
export interface ProcMemory { vmRssKb: number; vmHwmKb: number }

export function readProcMemory(pid: number | undefined): ProcMemory | undefined {
  if (pid === undefined) return undefined
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8')
    const kb = (field: string) => Number(new RegExp(`^${field}:\\s*(\\d+)\\s*kB`, 'm').exec(status)?.[1] ?? NaN)
    const m = { vmRssKb: kb('VmRSS'), vmHwmKb: kb('VmHWM') }
    return Number.isFinite(m.vmRssKb) && Number.isFinite(m.vmHwmKb) ? m : undefined
  } catch {
    return undefined
  }
}

/**
 * Resets the peak to the current resident set (Linux ≥ 4.0, a process of our own), so that the peak read after a
 * phase is the phase's own and not one left from before it. False if the kernel refused.
 */
export function resetPeak(pid: number): boolean {
  try {
    writeFileSync(`/proc/${pid}/clear_refs`, '5')
    return true
  } catch {
    return false
  }
}
