import { defineConfig } from 'vitest/config'

const shared = { pool: 'forks', testTimeout: 20_000, hookTimeout: 20_000 } as const

export default defineConfig({
  test: {
    reporters: process.env.CI ? ['default', ['json', { outputFile: 'test-results/vitest.json' }]] : ['default'],
    projects: [
      {
        // PostgreSQL tests (test/pg/, and any test calling freshDatabase()) share one private cluster, started on first use.
        test: { ...shared, name: 'node', include: ['test/**/*.test.ts'], exclude: ['test/e2e/**'], globalSetup: ['test/helpers/pg-global-setup.ts'] },
      },
      {
        // Browser tests: the built renderer in Chromium. The build runs once, before these files, when stale.
        test: { ...shared, name: 'e2e', include: ['test/e2e/**/*.test.ts'], globalSetup: ['test/e2e/global-setup.ts'], testTimeout: 60_000, hookTimeout: 60_000 },
      },
    ],
  },
})
