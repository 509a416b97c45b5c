import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Page } from 'playwright-core'
import sharp from 'sharp'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { scaleCoverage } from '../../renderer/canvas/composite.js'
import { colorFor, makePng } from '../fakes/images/image-bytes.js'
import type { FakeOpenAIImages, MultipartBody } from '../fakes/images/openai-images.js'
import { browserMissing, type AppUnderTest } from './harness.js'
import { openImagePanel, type ImagePanel } from './image-panel.js'

const W = 240
const H = 180
/** The object of the test photo: an ellipse off centre. */
const inObject = (x: number, y: number) => ((x + 0.5 - 140) / 60) ** 2 + ((y + 0.5 - 95) / 45) ** 2 <= 1

/** A photo-like PNG: a two-tone checkered, noisy background and the object in orange. */
function objectPhoto(): Promise<Buffer> {
  const px = Buffer.alloc(W * H * 3)
  let s = 7
  const noise = () => ((s = (s * 1103515245 + 12345) & 0x7fffffff) % 17) - 8
  for (let y = 0; y < H; y++) {
    for (let x = 0; x < W; x++) {
      const c = inObject(x, y) ? [230, 120, 30] : ((x >> 4) + (y >> 4)) % 2 ? [60, 130, 80] : [80, 150, 190]
      for (let k = 0; k < 3; k++) px[(y * W + x) * 3 + k] = Math.max(0, Math.min(255, c[k] + noise()))
    }
  }
  return sharp(px, { raw: { width: W, height: H, channels: 3 } }).png().toBuffer()
}

/** Screen coordinates of an image pixel in the mask editor (from the canvas's view attributes). */
async function imageToPage(page: Page): Promise<(x: number, y: number) => [number, number]> {
  const canvas = page.getByTestId('mask-canvas')
  // The newest run's card sits above the editor: the canvas may have to be scrolled into the window first.
  await canvas.scrollIntoViewIfNeeded()
  const box = (await canvas.boundingBox())!
  const attr = async (name: string) => Number(await canvas.getAttribute(name))
  const [scale, ox, oy] = [await attr('data-scale'), await attr('data-offset-x'), await attr('data-offset-y')]
  return (x, y) => [box.x + ox + x * scale, box.y + oy + y * scale]
}

/** The bytes of an image the page shows (its src may be a gateway media link or a blob), as raw RGBA. */
async function shownPixels(page: Page, testId: string): Promise<{ data: Buffer; width: number; height: number; channels: number }> {
  const src = (await page.getByTestId('image-run').first().getByTestId(testId).first().getAttribute('src'))!
  const bytes = await page.evaluate(async (url) => Array.from(new Uint8Array(await (await fetch(url)).arrayBuffer())), src)
  const { data, info } = await sharp(Buffer.from(bytes)).ensureAlpha().raw().toBuffer({ resolveWithObject: true })
  return { data, width: info.width, height: info.height, channels: info.channels }
}

const succeeded = (page: Page) => expect.poll(() => page.getByTestId('image-status').getAttribute('data-state'), { timeout: 30_000 }).toBe('succeeded')

describe.skipIf(browserMissing)('mask editor: select object, and the composite of a masked edit', () => {
  let panel: ImagePanel
  let fake: FakeOpenAIImages
  let app: AppUnderTest
  let files: string
  beforeAll(async () => {
    panel = await openImagePanel()
    ;({ fake, app, files } = panel)
    await app.page.getByTestId('image-model').selectOption('img-gpt')
    await app.page.getByTestId('image-mode-edit').click()
  })
  afterAll(() => panel?.close())

  it('a click inside an object makes the mask take its shape (≥ 90% of the object, ≤ 5% of the background)', async () => {
    const { page } = app
    const reference = join(files, 'object.png')
    writeFileSync(reference, await objectPhoto())
    await page.getByTestId('image-file').setInputFiles(reference)
    const canvas = page.getByTestId('mask-canvas')
    await expect.poll(() => canvas.getAttribute('data-scale')).toMatch(/\d/)
    await page.keyboard.press('o')
    expect(await page.getByTestId('mask-object').getAttribute('aria-pressed')).toBe('true')
    const at = await imageToPage(page)
    await page.mouse.click(...at(140, 95))
    await expect.poll(() => canvas.getAttribute('data-ops'), { timeout: 30_000 }).toBe('1')
    expect(await page.getByTestId('mask-select-error').count()).toBe(0)
    // The selection is one step of the mask's history.
    await page.keyboard.press('Control+z')
    await expect.poll(() => canvas.getAttribute('data-ops')).toBe('0')
    await page.keyboard.press('Control+Shift+z')
    await expect.poll(() => canvas.getAttribute('data-ops')).toBe('1')
    await app.screenshot('image-select-object')

    await page.getByTestId('image-prompt').fill('make the ball blue')
    await page.getByTestId('image-submit').click()
    await succeeded(page)
    const mask = (fake.calls.at(-1)!.body as MultipartBody).files.find((f) => f.field === 'mask')!
    const { data, info } = await sharp(mask.bytes).ensureAlpha().raw().toBuffer({ resolveWithObject: true })
    expect([info.width, info.height]).toEqual([W, H])
    let object = 0, objectPainted = 0, background = 0, backgroundPainted = 0
    for (let y = 0; y < H; y++) {
      for (let x = 0; x < W; x++) {
        const painted = data[(y * W + x) * info.channels + 3] === 0
        if (inObject(x, y)) { object++; if (painted) objectPainted++ } else { background++; if (painted) backgroundPainted++ }
      }
    }
    expect(objectPainted / object).toBeGreaterThanOrEqual(0.9)
    expect(backgroundPainted / background).toBeLessThanOrEqual(0.05)
  })

  it('keeps the reference outside the mask in the saved image, and the switch shows the raw output', async () => {
    const { page } = app
    // Starts from no reference (the test before leaves one).
    while (await page.getByTestId('image-ref-remove').count()) await page.getByTestId('image-ref-remove').first().click()
    const reference = join(files, 'solid.png')
    const refColor = [40, 120, 200, 255] as const
    writeFileSync(reference, makePng(64, 48, { color: [...refColor] }))
    await page.getByTestId('image-file').setInputFiles(reference)
    const canvas = page.getByTestId('mask-canvas')
    await expect.poll(() => canvas.getAttribute('data-image-width')).toBe('64')
    await page.keyboard.press('b')
    await page.getByTestId('mask-size').fill('8')
    const at = await imageToPage(page)
    await page.mouse.move(...at(10, 20))
    await page.mouse.down()
    await page.mouse.move(...at(50, 20), { steps: 8 })
    await page.mouse.up()
    await expect.poll(() => canvas.getAttribute('data-ops')).toBe('1')

    await page.getByTestId('image-prompt').fill('make the stripe green')
    await page.getByTestId('image-submit').click()
    await succeeded(page)
    const run = page.getByTestId('image-run').first()
    const result = run.getByTestId('image-result').first()
    // The composite's gateway copy is what the page shows and offers for download.
    await expect.poll(() => result.getAttribute('data-composite'), { timeout: 20_000 }).toBe('true')
    await expect.poll(() => run.getByTestId('image-composite-stats').getAttribute('data-kept'), { timeout: 20_000 }).toMatch(/\d/)
    await expect.poll(() => result.getAttribute('src'), { timeout: 20_000 }).toContain('/admin/v1/media/')
    expect(await run.getByTestId('image-download').first().getAttribute('href')).toBe(await result.getAttribute('src'))
    await app.screenshot('image-composite')

    // The mask sent, scaled to the result's size, says which pixels are outside.
    const sent = (fake.calls.at(-1)!.body as MultipartBody).files.find((f) => f.field === 'mask')!
    const m = await sharp(sent.bytes).ensureAlpha().raw().toBuffer({ resolveWithObject: true })
    const coverage = new Uint8Array(64 * 48).map((_, p) => (m.data[p * m.info.channels + 3] === 0 ? 1 : 0))
    const saved = await shownPixels(page, 'image-result')
    expect([saved.width, saved.height]).toEqual([1024, 1024])
    const scaled = scaleCoverage(coverage, 64, 48, saved.width, saved.height)
    const modelColor = colorFor(0)
    let outside = 0
    let inside = 0
    for (let p = 0; p < scaled.length; p++) {
      const px = [...saved.data.subarray(p * saved.channels, p * saved.channels + 4)]
      if (!scaled[p]) {
        outside++
        if (px.some((v, k) => v !== refColor[k])) expect(px, `pixel ${p % saved.width},${Math.floor(p / saved.width)} outside the mask`).toEqual([...refColor])
      } else if (px.every((v, k) => v === modelColor[k])) {
        inside++
      }
    }
    expect(outside).toBeGreaterThan(900_000)
    expect(inside).toBeGreaterThan(1000)
    // The model (a solid colour) changed every pixel outside the mask; the composite kept them all.
    const stats = run.getByTestId('image-composite-stats')
    expect(Number(await stats.getAttribute('data-outside'))).toBe(outside)
    expect(Number(await stats.getAttribute('data-changed'))).toBe(outside)
    expect(Number(await stats.getAttribute('data-kept'))).toBe(outside)

    await run.getByTestId('image-show-raw').check()
    await expect.poll(() => result.getAttribute('data-composite')).toBe('false')
    const raw = await shownPixels(page, 'image-result')
    for (let p = 0; p < raw.width * raw.height; p += 997) expect([...raw.data.subarray(p * raw.channels, p * raw.channels + 4)]).toEqual([...modelColor])
    expect(await run.getByTestId('image-download').first().getAttribute('href')).toBe(await result.getAttribute('src'))
    await run.getByTestId('image-compare').fill('50')
    await app.screenshot('image-compare')
  })
})
