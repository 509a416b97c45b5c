import { availableParallelism } from 'node:os'
import { relative } from 'node:path'
import { BaseSequencer, type TestSpecification } from 'vitest/node'

/**
 * The files that take longest, in seconds of their tests on the 2-core machine (rounded up): they wait out the
 * gateway's default deadlines (a 30 s first byte, a 60 s outage and its cool-downs), drive a browser through many
 * steps, open thousands of connections, or make a set number of fuzz runs. Used where vitest has no duration of its
 * own for a file (a clean checkout, as on CI); only their order matters, so a rough figure is enough.
 */
export const LONG_FILES: Record<string, number> = {
  'test/faults/failover-cases.test.ts': 90,
  'test/faults/stream-deadlines.test.ts': 31,
  'test/fuzz/chat.test.ts': 27,
  'test/faults/upstream-faults.test.ts': 21,
  'test/e2e/everyday.test.ts': 19,
  'test/fuzz/admin.test.ts': 18,
  'test/fuzz/messages.test.ts': 17,
  'test/fuzz/media.test.ts': 16,
  'test/faults/connection-lockout.test.ts': 14,
  'test/e2e/first-run.test.ts': 12,
  'test/faults/key-revocation.test.ts': 12,
  'test/integration/cli.test.ts': 12,
  'test/faults/hostile-clients.test.ts': 10,
  'test/fuzz/http.test.ts': 9,
}

/**
 * Files whose time is mostly waiting, on the gateway's default deadlines and timers (a 30 s first byte, a 60 s outage
 * and its cool-downs, 408s after a trickle): they hold a worker but little of a core.
 */
export const WAITING = new Set([
  'test/faults/failover-cases.test.ts',
  'test/faults/stream-deadlines.test.ts',
  'test/faults/upstream-faults.test.ts',
  'test/faults/key-revocation.test.ts',
  'test/faults/hostile-clients.test.ts',
])

/**
 * The order projects' files are queued in: the browser files first (each drives Chromium through many steps), then
 * the store matrix, then the node files, whose many short unit files fill the end. A project's isolated twin
 * (`<name>-isolated`, vitest.config.ts) goes just before it; a project not named here goes last.
 */
export const PROJECT_ORDER = ['e2e', 'node-pg', 'node']

/**
 * Files start longest first within their project, and the projects one after another (PROJECT_ORDER). A project's
 * files are queued together because vitest keeps a shared worker (`isolate: false`, vitest.config.ts) only while the
 * next queued file is of the same project: mixed with another project's files, nearly every file would start a fresh
 * process and import everything again. A file's expected time is its duration in vitest's cache of the last run
 * (locally; a file not yet run in this project takes what it took in another, as node-pg's files take about their
 * node twin's), else LONG_FILES, else none (the many short files, larger first). The order of the projects is fixed
 * rather than taken from that cache, which a clean checkout lacks and another run in the same folder rewrites.
 *
 * The longest waiting files (WAITING, of every project) start first, as many as there are workers beyond one per
 * core (2 of 4 on CI's 2-core machine): their waits overlap everything else, and the browser files that follow them
 * get one worker per core (more Chromiums than cores missed their steps' deadlines now and then). The other waiting
 * files are spread over the first half of the rest instead of starting together: more of them at once would leave
 * the cores to fewer busy workers. Groups keep their order (sequence.groupOrder).
 */
/** A file's place by its project (PROJECT_ORDER, an isolated twin just before its project). */
function rank(spec: TestSpecification): number {
  const name = spec.project.name
  const base = name.replace(/-isolated$/, '')
  const at = PROJECT_ORDER.indexOf(base)
  return (at === -1 ? PROJECT_ORDER.length : at) * 2 + (name === base ? 1 : 0)
}

const CORES = availableParallelism()

export class LongestFirst extends BaseSequencer {
  async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const { cache, config, projects } = this.ctx
    const expected = new Map<TestSpecification, number>()
    const size = new Map<TestSpecification, number>()
    const waiting = new Set<TestSpecification>()
    for (const spec of files) {
      const path = relative(config.root, spec.moduleId)
      const names = [spec.project.name, ...projects.map((p) => p.name).filter((name) => name !== spec.project.name)]
      const cached = names.map((name) => cache.getFileTestResults(`${name}:${path}`)?.duration).find((d) => d !== undefined)
      expected.set(spec, cached ?? (LONG_FILES[path] ?? 0) * 1000)
      size.set(spec, cache.getFileStats(`${spec.project.name}:${path}`)?.size ?? 0)
      if (WAITING.has(path)) waiting.add(spec)
    }
    const longest = [...files].sort((a, b) => expected.get(b)! - expected.get(a)! || size.get(b)! - size.get(a)!)
    const order = (spec: TestSpecification) => spec.project.config.sequence.groupOrder ?? 0
    const groups = [...new Set(files.map(order))].sort((a, b) => a - b)
    return groups.flatMap((group) => {
      const inGroup = longest.filter((spec) => order(spec) === group)
      const waits = inGroup.filter((spec) => waiting.has(spec))
      const busy = inGroup.filter((spec) => !waiting.has(spec)).sort((a, b) => rank(a) - rank(b))
      const workers = inGroup[0]?.project.config.maxWorkers ?? config.maxWorkers ?? CORES
      const sorted: TestSpecification[] = waits.splice(0, Math.max(1, workers - CORES))
      const every = Math.max(1, Math.floor(busy.length / 2 / Math.max(1, waits.length)))
      for (const [i, spec] of busy.entries()) {
        if (i > 0 && i % every === 0 && waits.length > 0) sorted.push(waits.shift()!)
        sorted.push(spec)
      }
      return [...sorted, ...waits]
    })
  }
}
