import { defineConfig } from 'vitest/config'

const shared = { pool: 'forks', testTimeout: 20_000, hookTimeout: 20_000 } as const

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
  'test/faults/crash.test.ts',
  'test/faults/body-flood.test.ts',
]

export default defineConfig({
  test: {
    reporters: process.env.CI ? ['default', ['json', { outputFile: 'test-results/vitest.json' }]] : ['default'],
    projects: [
      {
        // PostgreSQL tests (test/pg/, and any test calling freshDatabase()) share one private cluster, started on first use.
        test: { ...shared, name: 'node', include: ['test/**/*.test.ts'], exclude: ['test/e2e/**'], globalSetup: ['test/helpers/pg-global-setup.ts'] },
      },
      {
        // The store matrix: the store-independent integration and fault tests again, every test gateway on PostgreSQL.
        test: {
          ...shared,
          name: 'node-pg',
          include: ['test/integration/**/*.test.ts', 'test/faults/**/*.test.ts'],
          exclude: SQLITE_ONLY,
          env: { GATEHOUSE_TEST_STORE: 'postgres' },
          globalSetup: ['test/helpers/pg-global-setup.ts'],
        },
      },
      {
        // Browser tests: the built renderer in Chromium. The build runs once, before these files, when stale.
        test: { ...shared, name: 'e2e', include: ['test/e2e/**/*.test.ts'], globalSetup: ['test/e2e/global-setup.ts'], testTimeout: 60_000, hookTimeout: 60_000 },
      },
    ],
  },
})
