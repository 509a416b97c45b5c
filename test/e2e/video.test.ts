import { readFileSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { GatewayConfig } from '../../electron/gateway/config/load-config.js'
import { startFakeKling } from '../fakes/video/kling.js'
import { FAKE_MP4, type FakeVideoServer } from '../fakes/video/task-script.js'
import { browserMissing, openApp, type AppUnderTest } from './harness.js'

const KLING = 'kling-v2-5-turbo'

const config = (baseUrl: string): GatewayConfig => ({
  account: { balance: 100, concurrency: 5 },
  upstreams: [{ id: 'kling', vendor: 'kling', baseUrl, apiKey: 'kling-ak:kling-sk' }],
  groups: [{ id: 'video', protocol: 'chat', models: [KLING], upstreams: ['kling'] }],
})

describe.skipIf(browserMissing)('video panel', () => {
  let kling: FakeVideoServer
  let app: AppUnderTest
  beforeAll(async () => {
    kling = await startFakeKling({ script: ['queued', 'running:40', 'running:80', 'succeeded'] })
    app = await openApp(config(kling.url), { group: 'video', videoPollMs: 200 })
    await app.page.getByTestId('nav-video').click()
    await app.page.getByTestId('panel-video').waitFor()
  })
  afterAll(async () => {
    await app?.close()
    await kling?.close()
  })

  it('a text-to-video task moves from queued to playable, and survives a reload', async () => {
    const { page } = app
    await page.getByTestId('video-model').selectOption(KLING)
    await page.getByTestId('video-prompt').fill('a paper boat on a stream')
    await page.getByTestId('video-submit').click()
    const row = page.getByTestId('video-task').first()
    const seen = new Set<string>()
    await expect
      .poll(async () => {
        seen.add((await row.getAttribute('data-status')) ?? '')
        return seen.has('succeeded')
      }, { timeout: 30_000, interval: 100 })
      .toBe(true)
    expect([...seen].some((s) => s === 'queued' || s === 'running' || s === 'submitting')).toBe(true)
    const video = row.getByTestId('video-play')
    await expect.poll(() => video.getAttribute('src'), { timeout: 15_000 }).toMatch(/^blob:/)
    await app.screenshot('video-playable')
    const creates = kling.calls.filter((c) => c.method === 'POST')
    expect(creates).toHaveLength(1)
    expect(creates[0].body).toMatchObject({ model_name: KLING, prompt: 'a paper boat on a stream' })

    // The fake vendor's clip is a stub MP4, which no browser decodes: what the player and Save hold is checked byte for byte.
    const download = page.waitForEvent('download')
    await row.getByTestId('video-save').click()
    const saved = await download
    expect(saved.suggestedFilename()).toMatch(/\.mp4$/)
    expect(readFileSync(await saved.path())).toEqual(FAKE_MP4)

    // The list comes back from the gateway's store after the page (or the app) restarts.
    await page.goto(await app.gateway.loginUrl())
    await page.getByTestId('nav-video').click()
    await expect.poll(() => page.getByTestId('video-task').first().getAttribute('data-status'), { timeout: 10_000 }).toBe('succeeded')
  })
})
