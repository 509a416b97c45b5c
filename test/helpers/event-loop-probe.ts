/**
 * How long the event loop was held while `work` ran: a 5 ms interval records, for each gap between its ticks,
 * the wall time and the process's CPU time in it. A gap's blocking is the smaller of the two: on a busy
 * shared machine the process is also descheduled (a 134 ms gap with 2 ms of CPU was seen), which is not
 * this process's doing; a held event loop is both long and busy.
 */
export async function longestBlock<T>(work: () => Promise<T>): Promise<{ result: T; blockedMs: number; longestGapMs: number }> {
  let last = performance.now()
  let lastCpu = process.cpuUsage()
  let blockedMs = 0
  let longestGapMs = 0
  const sample = () => {
    const now = performance.now()
    const cpu = process.cpuUsage(lastCpu)
    const gap = now - last
    longestGapMs = Math.max(longestGapMs, gap)
    blockedMs = Math.max(blockedMs, Math.min(gap, (cpu.user + cpu.system) / 1000))
    last = now
    lastCpu = process.cpuUsage()
  }
  const probe = setInterval(sample, 5)
  try {
    const result = await work()
    sample()
    return { result, blockedMs, longestGapMs }
  } finally {
    clearInterval(probe)
  }
}
