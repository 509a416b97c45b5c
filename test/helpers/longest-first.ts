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
 * Files start longest first, over every project of a group (a group's projects share its workers), so the long files
 * of every project start at once instead of waiting for the projects sorted before theirs: with three workers the
 * run ends about when the work does, not one long file later. A file's expected time is its duration in vitest's
 * cache of the last run (locally; a file not yet run in this project takes what it took in another, as node-pg's
 * files take about their node twin's), else LONG_FILES, else none (the many short files, larger first). Groups
 * keep their order (sequence.groupOrder).
 */
export class LongestFirst extends BaseSequencer {
  async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const { cache, config, projects } = this.ctx
    const expected = new Map<TestSpecification, number>()
    const size = new Map<TestSpecification, number>()
    for (const spec of files) {
      const path = relative(config.root, spec.moduleId)
      const names = [spec.project.name, ...projects.map((p) => p.name).filter((name) => name !== spec.project.name)]
      const cached = names.map((name) => cache.getFileTestResults(`${name}:${path}`)?.duration).find((d) => d !== undefined)
      expected.set(spec, cached ?? (LONG_FILES[path] ?? 0) * 1000)
      size.set(spec, cache.getFileStats(`${spec.project.name}:${path}`)?.size ?? 0)
    }
    const order = (spec: TestSpecification) => spec.project.config.sequence.groupOrder ?? 0
    return [...files].sort((a, b) => order(a) - order(b) || expected.get(b)! - expected.get(a)! || size.get(b)! - size.get(a)!)
  }
}
