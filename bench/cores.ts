// Where each process runs. With `taskset` and at least two cores, the benchmark pins itself (and so everything it
// spawns unpinned: the fake upstream, wrk or autocannon) to core 0 and each measured target alone to core 1, so that a
// target's throughput is its own and not what is left over by the load generator. Without them nothing is pinned.
import { execFileSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { availableParallelism } from 'node:os'

const TASKSET = '/usr/bin/taskset'
const LOAD_CORE = '0'
const TARGET_CORE = '1'

export interface Placement {
  pinned: boolean
  /** one line for the report: how the processes were placed, or why they were not */
  describe: string
}

/** Pins this process (all its threads) to the load core; call before spawning anything. */
export function placeProcesses(): Placement {
  if (!existsSync(TASKSET)) return { pinned: false, describe: `not pinned: ${TASKSET} not found, so the targets share every core with the load generator` }
  if (availableParallelism() < 2) return { pinned: false, describe: 'not pinned: fewer than two cores' }
  execFileSync(TASKSET, ['-a', '-p', '-c', LOAD_CORE, String(process.pid)], { stdio: 'ignore' })
  return { pinned: true, describe: `each target alone on core ${TARGET_CORE} (taskset); load generator, fake upstream and this runner on core ${LOAD_CORE}` }
}

/** The command that runs `argv` on the target core (or unpinned). taskset execs it, so the pid stays the target's own. */
export function onTargetCore(placement: Placement, argv: string[]): string[] {
  return onCore(placement, TARGET_CORE, argv)
}

/** The two cores of the team phase: one replica alone on the target core, the second replica on the other. */
export const REPLICA_CORES = [TARGET_CORE, LOAD_CORE] as const

/** The command that runs `argv` on `core` (or unpinned). */
export function onCore(placement: Placement, core: string, argv: string[]): string[] {
  return placement.pinned ? [TASKSET, '-c', core, ...argv] : argv
}

/**
 * Lets this process (all its threads) and what it spawns from now on run on every core again: in the team phase the
 * replicas take both cores, and the load generator and PostgreSQL run wherever the scheduler puts them.
 */
export function unpinRunner(placement: Placement): void {
  if (placement.pinned) execFileSync(TASKSET, ['-a', '-p', '-c', `0-${availableParallelism() - 1}`, String(process.pid)], { stdio: 'ignore' })
}
