import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import sharp from 'sharp'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { makePng } from '../fakes/images/image-bytes.js'
import type { FakeOpenAIImages, MultipartBody } from '../fakes/images/openai-images.js'
import { browserMissing, type AppUnderTest } from './harness.js'
import { openImagePanel, type ImagePanel } from './image-panel.js'

/** Which pixels a round brush of radius r dragged from (x0,y) to (x1,y) covers: centres within r of the segment. */
function expectedCoverage(width: number, height: number, x0: number, x1: number, y: number, r: number): (x: number, yy: number) => boolean {
  return (x, yy) => {
    const cx = x + 0.5
    const cy = yy + 0.5
    const t = Math.max(x0, Math.min(x1, cx))
    return x < width && yy < height && Math.hypot(cx - t, cy - y) <= r
  }
}

describe.skipIf(browserMissing)('image panel', () => {
  let panel: ImagePanel
  let fake: FakeOpenAIImages
  let app: AppUnderTest
  let files: string
  beforeAll(async () => {
    panel = await openImagePanel()
    ;({ fake, app, files } = panel)
  })
  afterAll(() => panel?.close())

  it('sends the upstream a mask PNG at the reference size, alpha 0 exactly under the painted stroke and 255 elsewhere', async () => {
    const { page } = app
    await page.getByTestId('image-model').selectOption('img-gpt')
    await page.getByTestId('image-mode-edit').click()
    const reference = join(files, 'reference.png')
    writeFileSync(reference, makePng(64, 48, { color: [40, 120, 200, 255] }))
    await page.getByTestId('image-file').setInputFiles(reference)
    const canvas = page.getByTestId('mask-canvas')
    await expect.poll(() => canvas.getAttribute('data-scale')).toMatch(/\d/)
    await page.getByTestId('mask-size').fill('8')

    const box = (await canvas.boundingBox())!
    const attr = async (name: string) => Number(await canvas.getAttribute(name))
    const [scale, ox, oy] = [await attr('data-scale'), await attr('data-offset-x'), await attr('data-offset-y')]
    const at = (x: number, y: number) => [box.x + ox + x * scale, box.y + oy + y * scale] as const
    await page.mouse.move(...at(10, 20))
    await page.mouse.down()
    await page.mouse.move(...at(50, 20), { steps: 8 })
    await page.mouse.up()
    // Zooming and panning after painting must not move the mask.
    await page.getByTestId('mask-zoom-in').click()
    await app.screenshot('image-mask-painted')

    await page.getByTestId('image-prompt').fill('make the stripe green')
    await page.getByTestId('image-submit').click()
    await expect.poll(() => page.getByTestId('image-status').getAttribute('data-state'), { timeout: 20_000 }).toBe('succeeded')

    const body = fake.calls.at(-1)!.body as MultipartBody
    expect(fake.calls.at(-1)!.path).toContain('/images/edits')
    const image = body.files.find((f) => f.field === 'image' || f.field === 'image[]')!
    const mask = body.files.find((f) => f.field === 'mask')!
    expect([image.width, image.height]).toEqual([64, 48])
    const { data, info } = await sharp(mask.bytes).ensureAlpha().raw().toBuffer({ resolveWithObject: true })
    expect([info.width, info.height]).toEqual([64, 48])
    const painted = expectedCoverage(64, 48, 10, 50, 20, 4)
    let paintedCount = 0
    for (let y = 0; y < 48; y++) {
      for (let x = 0; x < 64; x++) {
        const alpha = data[(y * info.width + x) * info.channels + 3]
        if (painted(x, y)) paintedCount++
        expect(alpha, `alpha at (${x},${y})`).toBe(painted(x, y) ? 0 : 255)
      }
    }
    expect(paintedCount).toBeGreaterThan(300)
  })

  it('generates, shows the result from the gateway copy, and offers a download', async () => {
    const { page } = app
    await page.getByTestId('image-mode-generate').click()
    await page.getByTestId('image-prompt').fill('a red fox')
    await page.getByTestId('image-submit').click()
    await expect.poll(() => page.getByTestId('image-status').getAttribute('data-state'), { timeout: 20_000 }).toBe('succeeded')
    const result = page.getByTestId('image-run').first().getByTestId('image-result').first()
    await expect.poll(() => result.getAttribute('src'), { timeout: 15_000 }).toContain('/admin/v1/media/')
    // The src is set before the bytes arrive: wait for the decode, not the attribute.
    await expect.poll(() => result.evaluate((img) => (img as HTMLImageElement).naturalWidth), { timeout: 10_000 }).toBeGreaterThan(0)
    const download = page.waitForEvent('download')
    await page.getByTestId('image-run').first().getByTestId('image-download').first().click()
    expect((await download).suggestedFilename()).toMatch(/\.png$/)
    expect(fake.calls.at(-1)!.body).toMatchObject({ model: 'img-gpt', prompt: 'a red fox' })
    await app.screenshot('image-gallery')
  })
})
