import { availableParallelism } from 'node:os'
import { fileURLToPath } from 'node:url'
import { defineConfig, type TestProjectInlineConfiguration } from 'vitest/config'
import { LongestFirst } from './test/helpers/longest-first.js'
import { filesChangingTheProcess } from './test/helpers/needs-isolation.js'

/**
 * Test files run side by side, one more than twice as many at a time as there are cores (5 on CI's 2-core machine):
 * a file spends most of its time waiting on sockets, timers and the processes it starts (with 5 at a time the suite
 * still keeps about 1.3 of 2 cores busy: 354 core-seconds in 280 s), and the longest ones (failover-cases, 86 s on each
 * store; stream-deadlines, 30 s) only wait out the gateway's default deadlines. Those start first, so the browser
 * files after them get one worker per core (test/helpers/longest-first.ts). On 2 cores: 3 at a time took 5:56, 4
 * took 4:58, 5 take 4:40.
 */
const WORKERS = availableParallelism() * 2 + 1
const shared = { pool: 'forks', testTimeout: 20_000, hookTimeout: 20_000 } as const

/**
 * Most of a test file's CPU was its start: a fresh process, then the whole gateway graph (or the renderer's, or
 * playwright's) imported and evaluated again, some 1.5 core-seconds a file, before its first test. Files that leave
 * their process as they found it therefore share their workers (`isolate: false`): a worker runs one file after
 * another of its project, with the modules already evaluated (the integration folder: 130 core-seconds isolated, 47
 * shared). A shared worker is only kept while the next queued file is of the same project, so the sequencer queues
 * each project's files together (test/helpers/longest-first.ts).
 * The files that change their process for good (module mocks, stubbed globals, fake timers, environment variables,
 * process listeners: test/helpers/needs-isolation.ts, read from each file's text when the config loads) keep a
 * process of their own: each project below has an isolated twin for them (`-isolated`).
 */
const ROOT = fileURLToPath(new URL('.', import.meta.url))
const CHANGING = filesChangingTheProcess(ROOT)
type Project = NonNullable<TestProjectInlineConfiguration['test']> & { name: string; include: string[] }
/**
 * Whether a file is matched by one of a project's include globs: a folder, then `**`, then a file name pattern (any
 * file under the folder), or a path whose `*` stands for part of one name.
 */
const under = (globs: string[], path: string) =>
  globs.some((glob) => glob.includes('**')
    ? path.startsWith(glob.slice(0, glob.indexOf('**')))
    : new RegExp(`^${glob.split('*').map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&')).join('[^/]*')}$`).test(path))
/** A project's files in shared workers, and its isolated twin for those of them that change their process. */
const sharing = (project: Project): TestProjectInlineConfiguration[] => [
  { test: { ...project, isolate: false, exclude: [...(project.exclude ?? []), ...CHANGING] } },
  { test: { ...project, name: `${project.name}-isolated`, isolate: true, include: CHANGING.filter((path) => under(project.include, path)) } },
]

/**
 * Files whose windows of time hold only on a quiet machine: groups of their own, after every other file.
 * - LEASE_WINDOWS, one per core at a time: the team-mode files that kill replicas and wait on lease times, and the
 *   lease unit test (its leases lapse in 200-400 ms). Beside the whole suite, a replica's slow start or stop pushed
 *   their lease windows past what they assert (seen a few times a day of runs); beside one another they mostly wait.
 * - ALONE, last, by itself: the body flood's bounds hold for the machine as a whole (the gateway process's growth,
 *   and another client answered within a second while 1.6 GB arrive).
 * The other team files (replicas that start and answer, no lease waited on) run with the rest, as do the fuzz files
 * (each property makes a set number of runs however busy the machine is) and test/pg's store files that start no
 * replica and wait on no lease (SQL, schema, change notices, media, cluster).
 */
const LEASE_WINDOWS = [
  'test/pg/team-mode.test.ts', 'test/pg/team-replicas.test.ts', 'test/pg/team-video.test.ts', 'test/pg/team-in-flight.test.ts',
  'test/pg/team-revocation.test.ts', 'test/pg/team-sessions.test.ts', 'test/pg/team-media-sweep.test.ts',
  'test/pg/hard-caps-replicas.test.ts', 'test/pg/pg-leases.test.ts',
]
const ALONE = ['test/faults/body-flood.test.ts']

/**
 * Integration and fault files whose behaviour depends on SQLite itself: node-pg leaves them out (node runs them).
 * Every other file of those folders runs on both stores.
 */
const SQLITE_ONLY = [
  // opens gatehouse.sqlite to write a store as an older schema left it (PostgreSQL's schema has no older version)
  'test/integration/budget-sqlite.test.ts',
  // reads the gatehouse.sqlite files' bytes for secrets at rest (auth.test.ts reads every table, on either store)
  'test/integration/auth-sqlite.test.ts',
  // opens gatehouse.sqlite to write a legacy store (keys hashed before keyed hashing; PostgreSQL never had one)
  'test/faults/secrets-sqlite.test.ts',
  // asserts the SQLite store's files and its media files in the data dir (PostgreSQL keeps both in the database)
  'test/faults/files-and-links-sqlite.test.ts',
  // spawned gateways on the data dir's SQLite file, read back with better-sqlite3 (team mode's processes: test/pg/)
  'test/integration/cli.test.ts',
  // spawned headless gateways (on SQLite) whose loaded modules are read at exit: the store plays no part in it
  'test/integration/tracing-off.test.ts',
  'test/faults/crash.test.ts',
  'test/faults/body-flood.test.ts',
]

export default defineConfig({
  test: {
    // Set for the run, not per project, so that `--maxWorkers` on the command line still overrides it.
    maxWorkers: WORKERS,
    // The longest files first, over all projects at once (test/helpers/longest-first.ts).
    sequence: { sequencer: LongestFirst },
    reporters: process.env.CI ? ['default', ['json', { outputFile: 'test-results/vitest.json' }]] : ['default'],
    projects: [
      // PostgreSQL tests (test/pg/, and any test calling freshDatabase()) share one private cluster, started on first use.
      ...sharing({ ...shared, name: 'node', include: ['test/**/*.test.ts'], exclude: ['test/e2e/**', ...LEASE_WINDOWS, ...ALONE], globalSetup: ['test/helpers/pg-global-setup.ts'] }),
      // The node project's files with windows of time (LEASE_WINDOWS, then ALONE), once the others are done; set up as
      // the node project is (a database on first use).
      ...sharing({ ...shared, name: 'node-leases', include: LEASE_WINDOWS, maxWorkers: availableParallelism(), sequence: { groupOrder: 1 }, globalSetup: ['test/helpers/pg-global-setup.ts'] }),
      ...sharing({ ...shared, name: 'node-alone', include: ALONE, maxWorkers: 1, sequence: { groupOrder: 2 }, globalSetup: ['test/helpers/pg-global-setup.ts'] }),
      // The store matrix: the store-independent integration and fault tests again, every test gateway on PostgreSQL.
      ...sharing({
        ...shared,
        name: 'node-pg',
        include: ['test/integration/**/*.test.ts', 'test/faults/**/*.test.ts'],
        exclude: SQLITE_ONLY,
        env: { GATEHOUSE_TEST_STORE: 'postgres' },
        globalSetup: ['test/helpers/pg-global-setup.ts'],
      }),
      // Browser tests: the built renderer in Chromium. The build runs once, before these files, when stale. A page
      // waited for with expect.poll gets 10 s, not 1: a streamed answer on a busy two-core run took longer than one.
      ...sharing({
        ...shared,
        name: 'e2e',
        include: ['test/e2e/**/*.test.ts'],
        globalSetup: ['test/e2e/global-setup.ts'],
        testTimeout: 60_000,
        hookTimeout: 60_000,
        expect: { poll: { timeout: 10_000 } },
      }),
    ],
  },
})
