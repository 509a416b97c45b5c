import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { Locator, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { makePng } from '../fakes/images/image-bytes.js'
import { browserMissing } from './harness.js'
import { openImagePanel, type ImagePanel } from './image-panel.js'

const SCREENSHOTS = fileURLToPath(new URL('../../test-results/screenshots', import.meta.url))

/** The part of the element's box inside the window, as a share of its own area (0: out of sight). */
async function visibleShare(page: Page, target: Locator): Promise<number> {
  await target.waitFor()
  return target.evaluate((el) => {
    const r = el.getBoundingClientRect()
    const w = Math.max(0, Math.min(r.right, window.innerWidth) - Math.max(r.left, 0))
    const h = Math.max(0, Math.min(r.bottom, window.innerHeight) - Math.max(r.top, 0))
    return r.width * r.height === 0 ? 0 : (w * h) / (r.width * r.height)
  })
}

/** What the window shows now (not the whole page): where the eye is. */
async function viewportShot(page: Page, name: string): Promise<void> {
  mkdirSync(SCREENSHOTS, { recursive: true })
  await page.screenshot({ path: join(SCREENSHOTS, `${name}.png`) })
}

describe.skipIf(browserMissing)('image results where the eye is (1280×800, long history)', () => {
  let panel: ImagePanel
  beforeAll(async () => {
    panel = await openImagePanel()
  })
  afterAll(() => panel?.close())

  it("shows the running edit's status and then its result inside the window, with a labelled before/after slider", async () => {
    const { page } = panel.app
    await page.setViewportSize({ width: 1280, height: 800 })
    await page.getByTestId('image-model').selectOption('img-gpt')
    // A long history first: six generations.
    for (let i = 0; i < 6; i++) {
      await page.getByTestId('image-prompt').fill(`history ${i}`)
      await page.getByTestId('image-submit').click()
      await expect.poll(() => page.getByTestId('image-current').getByTestId('image-run-prompt').textContent(), { timeout: 5_000 }).toBe(`history ${i}`)
      const state = page.getByTestId('image-current').getByTestId('image-run-status')
      await expect.poll(() => state.getAttribute('data-state'), { timeout: 20_000 }).not.toBe('running')
      expect(await state.getAttribute('data-state'), await page.getByTestId('image-current').innerText()).toBe('succeeded')
    }
    expect(await page.getByTestId('image-history').getByTestId('image-run').count()).toBe(5)
    const historyBox = (await page.getByTestId('image-history').boundingBox())!
    expect(historyBox.height).toBeGreaterThan(800)

    await page.getByTestId('image-mode-edit').click()
    const reference = join(panel.files, 'to-edit.png')
    writeFileSync(reference, makePng(64, 48, { color: [200, 60, 40, 255] }))
    await page.getByTestId('image-file').setInputFiles(reference)
    await page.getByTestId('mask-canvas').waitFor()
    await page.getByTestId('image-prompt').fill('make it blue')
    // The user was reading the history at the bottom of the page.
    await page.getByTestId('image-history').getByTestId('image-run').last().scrollIntoViewIfNeeded()
    panel.fake.setScenario({ kind: 'slow', delayMs: 2_500 })
    await page.getByTestId('image-submit').click()

    const current = page.getByTestId('image-current')
    const status = current.getByTestId('image-run-status')
    await expect.poll(() => status.getAttribute('data-state'), { timeout: 5_000 }).toBe('running')
    await expect.poll(() => current.getByTestId('image-run-prompt').textContent()).toBe('make it blue')
    await expect.poll(() => visibleShare(page, status), { timeout: 2_000 }).toBe(1)
    await viewportShot(page, 'image-edit-running-in-view')

    await expect.poll(() => status.getAttribute('data-state'), { timeout: 20_000 }).toBe('succeeded')
    const result = current.getByTestId('image-result').first()
    await expect.poll(() => result.evaluate((img) => (img as HTMLImageElement).naturalWidth), { timeout: 10_000 }).toBeGreaterThan(0)
    await expect.poll(() => visibleShare(page, result), { timeout: 2_000 }).toBeGreaterThan(0.5)
    // The before/after slider: named by its label, its ends captioned.
    const slider = current.getByLabel('Drag to compare with the image as sent')
    expect(await slider.getAttribute('type')).toBe('range')
    expect(await slider.getAttribute('aria-valuetext')).toBe('0% before, 100% after')
    expect(await current.locator('.image-compare-captions').innerText()).toMatch(/^Before\s+After$/)
    await slider.fill('50')
    expect(await slider.getAttribute('aria-valuetext')).toBe('50% before, 50% after')
    expect(await visibleShare(page, slider)).toBe(1)
    await viewportShot(page, 'image-edit-result-in-view')
    // The history still lists the earlier runs below, the newest not among them.
    expect(await page.getByTestId('image-history').getByTestId('image-run').count()).toBe(6)
    panel.fake.setScenario({ kind: 'ok' })
  })
})
