// A vendor link that fails, then recovers: the result card shows one state of its copy at a time (saving, failed
// with the reason and the link's expiry, retrying, kept), the vendor link while it works, Download only once kept;
// the same for a video whose copy fails (no more "saving" forever).
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { startFakeArkSeedream } from '../fakes/images/ark-seedream.js'
import { startFakeKling } from '../fakes/video/kling.js'
import { FAKE_MP4 } from '../fakes/video/task-script.js'
import { browserMissing, withApp } from './harness.js'
import { IMG_SEEDREAM } from '../helpers/image-models.js'

const KLING = 'kling-v2-5-turbo'

describe.skipIf(browserMissing)('kept copies in the app', () => {
  const { app, fakes: { ark, kling } } = withApp({
    fakes: { ark: () => startFakeArkSeedream({ apiKey: 'ark' }), kling: () => startFakeKling({ script: ['queued', 'succeeded'] }) },
    config: ({ ark, kling }) => ({
      account: { balance: 100, concurrency: 5 },
      models: [IMG_SEEDREAM] as never,
      upstreams: [{ id: 'ark', vendor: 'ark', baseUrl: ark.url, apiKey: 'ark' }, { id: 'kling', vendor: 'kling', baseUrl: kling.url, apiKey: 'kling-ak:kling-sk' }],
      groups: [{ id: 'media', protocol: 'chat', models: ['img-seedream', KLING], upstreams: ['ark', 'kling'] }],
    }),
    options: { group: 'media', videoPollMs: 200 },
  })

  it('an image whose copy fails: the reason, the working link and Retry, no Download; Retry keeps it', async () => {
    const { page } = app
    await page.getByTestId('nav-image').click()
    await page.getByTestId('image-model').selectOption('img-seedream')
    await page.getByTestId('image-prompt').fill('a lighthouse at dusk')
    // The vendor's storage fails the gateway's first two downloads (the first try and the automatic one 2 s later).
    ark.failDownloads(2)
    await page.getByTestId('image-submit').click()
    const card = page.getByTestId('image-current').getByTestId('image-result-card').first()
    const status = card.getByTestId('copy-status')
    await expect.poll(() => status.getAttribute('data-state'), { timeout: 20_000 }).toBe('failed')
    // The second failure (the automatic try 2 s after the first): the next is 10 s away, time to look at the card.
    await expect.poll(() => ark.downloads.length, { timeout: 10_000 }).toBe(2)
    await page.waitForTimeout(2_000) // the card asks every 1.5 s
    expect(await status.getAttribute('data-state')).toBe('failed')
    expect(await status.getByTestId('copy-words').textContent()).toMatch(/Trying again at .+\. The vendor link works until .+\.$/)
    const words = (await status.getByTestId('copy-words').textContent())!
    expect(words).toMatch(/^Not saved: the vendor's server answered HTTP 503\. /)
    expect(await card.getByTestId('copy-status').count()).toBe(1)
    expect(await card.getByTestId('image-download').count()).toBe(0)
    expect(await card.getByTestId('image-result').count()).toBe(0)
    const link = card.getByTestId('copy-open-link')
    // The link the vendor answered, which the gateway tried to download.
    expect(await link.getAttribute('href')).toBe(`${new URL(ark.url).origin}${ark.downloads[0].path}`)
    await app.screenshot('kept-copy-image-failed')

    await card.getByTestId('copy-retry').click()
    await expect.poll(() => status.getAttribute('data-state'), { timeout: 10_000 }).toBe('kept')
    expect(await status.getByTestId('copy-words').textContent()).toBe('Saved in the gateway.')
    const image = card.getByTestId('image-result')
    await expect.poll(() => image.getAttribute('src'), { timeout: 10_000 }).toContain('/admin/v1/media/')
    await expect.poll(() => image.evaluate((img) => (img as HTMLImageElement).naturalWidth)).toBeGreaterThan(0)
    expect(await card.getByTestId('image-download').count()).toBe(1)
    expect(await card.getByTestId('copy-retry').count()).toBe(0)
    await app.screenshot('kept-copy-image-kept')
  })

  it('a video whose copy fails says so (never saving forever), offers Retry, and plays once kept', async () => {
    const { page } = app
    kling.switches.failFiles = 1_000
    await page.getByTestId('nav-video').click()
    await page.getByTestId('video-model').selectOption(KLING)
    await page.getByTestId('video-prompt').fill('a paper boat')
    await page.getByTestId('video-submit').click()
    const row = page.getByTestId('video-task').first()
    await expect.poll(() => row.getAttribute('data-status'), { timeout: 30_000 }).toBe('succeeded')
    const status = row.getByTestId('copy-status')
    // Its tries spent (six, 200 ms apart here): failed, why, no next try, the vendor link while it works.
    await expect.poll(() => status.getByTestId('copy-words').textContent(), { timeout: 20_000 }).toMatch(/^Not saved: the vendor's server answered HTTP 503\. The vendor link works until .+\.$/)
    expect(await status.getAttribute('data-state')).toBe('failed')
    expect(await row.getByTestId('video-save').count()).toBe(0)
    expect(await row.getByTestId('copy-open-link').getAttribute('href')).toMatch(/\/files\/.+\.mp4$/)
    await app.screenshot('kept-copy-video-failed')

    kling.switches.failFiles = 0
    await row.getByTestId('copy-retry').click()
    const video = row.getByTestId('video-play')
    await expect.poll(() => video.getAttribute('src'), { timeout: 20_000 }).toMatch(/^blob:/)
    expect(await row.getByTestId('copy-status').count()).toBe(0)
    const download = page.waitForEvent('download')
    await row.getByTestId('video-save').click()
    expect(readFileSync(await (await download).path())).toEqual(FAKE_MP4)
    await app.screenshot('kept-copy-video-kept')
  })
})
