import { existsSync, mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core'
import { afterAll, beforeAll } from 'vitest'
import type { GatewayConfig } from '../../electron/gateway/config/load-config.js'
import { startGateway, type GatewayOptions, type RunningGateway } from '../../electron/gateway/gateway.js'
import { startFakeOpenAI } from '../fakes/openai.js'
import { chatConfig, fileFakes, late, tempDataDir, withLocalLinks, type FakeStarters, type StartedFakes } from '../helpers/gateway.js'

const root = fileURLToPath(new URL('../..', import.meta.url))
export const CHROMIUM = '/usr/bin/chromium'
const SCREENSHOTS = join(root, 'test-results', 'screenshots')

/**
 * Whether the browser tests can run. CI installs Debian's Chromium (.ci/run), so there a missing browser is a
 * failure, not a skip; elsewhere they are skipped with the reason.
 */
export const browserMissing: string | undefined = existsSync(CHROMIUM)
  ? undefined
  : process.env.CI
    ? (() => { throw new Error(`${CHROMIUM} is missing: .ci/run installs Debian's chromium package`) })()
    : `Chromium not found at ${CHROMIUM} (apt-get install chromium); browser tests skipped`

if (browserMissing) console.warn(browserMissing)

export interface AppUnderTest {
  gateway: RunningGateway
  browser: Browser
  context: BrowserContext
  page: Page
  /** saves a screenshot as a test artifact in test-results/screenshots */
  screenshot(name: string): Promise<void>
  close(): Promise<void>
}

/**
 * The headless gateway serving the built renderer on 127.0.0.1 (config pointing at fake upstreams), and a
 * Chromium page signed in through the one-time login address, as a user opening `npm start`'s link is: the
 * gateway sets the cookie and redirects to `/#session=<token>`, and the page moves the token into sessionStorage.
 */
export interface OpenAppOptions {
  /** the group picked in the app once it is open */
  group?: string
  videoPollMs?: number
  adminSessions?: GatewayOptions['adminSessions']
}

export async function openApp(config: GatewayConfig, opts: OpenAppOptions = {}): Promise<AppUnderTest> {
  const data = tempDataDir()
  const gateway = await startGateway({
    dataDir: data.dir, config: withLocalLinks(config), port: 0, rendererDir: join(root, 'dist', 'renderer'), log: () => {}, adminSessions: opts.adminSessions,
    ...(opts.videoPollMs ? { videoPoll: { intervalMs: opts.videoPollMs, maxIntervalMs: opts.videoPollMs } } : {}),
  })
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update'],
  })
  const context = await browser.newContext({ viewport: { width: 1280, height: 860 }, acceptDownloads: true })
  const page = await context.newPage()
  page.on('pageerror', (err) => console.error(`[page error] ${err.message}`))
  await page.goto(await gateway.loginUrl())
  // Chat, or the guided start when the gateway has no upstream account yet.
  await page.waitForSelector('[data-testid="panel-chat"], [data-testid="panel-welcome"]')
  // A new data dir lists its own groups first; the test's group is picked as a user would.
  if (opts.group) await page.getByTestId('group-picker').selectOption(opts.group)
  return {
    gateway, browser, context, page,
    async screenshot(name) {
      mkdirSync(SCREENSHOTS, { recursive: true })
      await page.screenshot({ path: join(SCREENSHOTS, `${name}.png`), fullPage: true })
    },
    async close() {
      await browser.close()
      await gateway.close(1_000)
      data.remove()
    },
  }
}

export interface AppFixture<F extends FakeStarters> {
  /** the fakes to start first, by name: each a function that starts one (`startFakeOpenAI`, `() => startFakeKling({ script })`) */
  fakes?: F
  /** the gateway's config, built from the started fakes (their URLs) */
  config(fakes: StartedFakes<F>): GatewayConfig
  options?: OpenAppOptions
}

/**
 * The browser files' setup, as withGateway is the integration files': in the describe's beforeAll, starts the named
 * fakes and opens the app on the config built from them; afterAll closes the app, then the fakes. The handles it
 * answers can be kept at once (`const { app, fakes } = withApp(...)`) and used from the hooks and tests that follow.
 */
export function withApp<F extends FakeStarters = Record<never, never>>(fixture: AppFixture<F>): { app: AppUnderTest; fakes: StartedFakes<F> } {
  const fakes = fileFakes('withApp', fixture.fakes)
  let app: AppUnderTest | undefined
  beforeAll(async () => {
    app = await openApp(fixture.config(await fakes.start()), fixture.options)
  })
  afterAll(async () => {
    try {
      await app?.close()
    } finally {
      await fakes.close()
    }
  })
  return { app: late('withApp: the app', () => app), fakes: fakes.handles }
}

/**
 * The most common browser setup: one fake OpenAI as upstream `fake` of chatConfig, the app on its group `main`;
 * `extra` adds to the config (or replaces its parts).
 */
export const fakeOpenAIChatApp = (extra: Partial<GatewayConfig> = {}): AppFixture<{ openai: typeof startFakeOpenAI }> => ({
  fakes: { openai: startFakeOpenAI },
  config: ({ openai }) => chatConfig([{ id: 'fake', baseUrl: openai.url }], extra),
  options: { group: 'main' },
})
