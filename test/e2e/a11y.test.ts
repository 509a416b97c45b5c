// Accessibility (issue 25 item 7): axe-core over every panel in both themes with no serious or critical
// violation; the chat box has a name; the drop zone's focus shows; and the mask is painted from the keyboard alone.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { AxeBuilder } from '@axe-core/playwright'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { GatewayConfig } from '../../electron/gateway/config/load-config.js'
import { makePng } from '../fakes/images/image-bytes.js'
import { startFakeOpenAIImages } from '../fakes/images/openai-images.js'
import { startFakeOpenAI } from '../fakes/openai.js'
import { startFakeKling } from '../fakes/video/kling.js'
import { browserMissing, withApp } from './harness.js'
import type { Page } from 'playwright-core'

const PANELS = ['chat', 'image', 'video', 'keys', 'usage', 'settings'] as const

/** The serious and critical violations axe finds on the page, as "rule: target" lines. */
async function seriousViolations(page: Page): Promise<string[]> {
  const results = await new AxeBuilder({ page }).analyze()
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .flatMap((v) => v.nodes.map((n) => `${v.id} (${v.impact}): ${n.target.join(' ')} — ${n.failureSummary?.split('\n')[1]?.trim() ?? ''}`))
}

describe.skipIf(browserMissing)('accessibility', () => {
  const { app } = withApp({
    fakes: {
      chat: startFakeOpenAI,
      images: () => startFakeOpenAIImages({ apiKey: 'sk-upstream-images' }),
      kling: () => startFakeKling({ script: ['queued', 'succeeded'] }),
    },
    config: ({ chat, images, kling }) => ({
      account: { balance: 100, concurrency: 5 },
      models: [
        { id: 'test-gpt', family: 'gpt', vendor: 'openai', pricing: { unit: 'token', input: 2, output: 8 } },
        { id: 'img-gpt', family: 'gpt-image', vendor: 'openai', pricing: { unit: 'image', price: 0.04 }, maxN: 4, outputFormats: ['png', 'jpeg', 'webp'] },
      ],
      upstreams: [
        { id: 'oa', vendor: 'openai', baseUrl: chat.url, apiKey: 'sk-upstream-chat-0123' },
        { id: 'oa-images', vendor: 'openai', baseUrl: images.url, apiKey: 'sk-upstream-images' },
        { id: 'kling', vendor: 'kling', baseUrl: kling.url, apiKey: 'kling-ak:kling-sk' },
      ],
      groups: [
        { id: 'main', protocol: 'chat', models: ['test-gpt'], upstreams: ['oa'] },
        { id: 'images', protocol: 'chat', models: ['img-gpt'], upstreams: ['oa-images'] },
        { id: 'video', protocol: 'chat', models: ['kling-v2-5-turbo'], upstreams: ['kling'] },
      ],
    }) as GatewayConfig,
    options: { group: 'main' },
  })
  let files: string
  beforeAll(() => {
    files = mkdtempSync(join(tmpdir(), 'gatehouse-a11y-'))
  })
  afterAll(() => {
    if (files) rmSync(files, { recursive: true, force: true })
  })

  for (const theme of ['light', 'dark'] as const) {
    it(`every panel in the ${theme} theme: no serious or critical axe violation`, async () => {
      const { page } = app
      await page.emulateMedia({ colorScheme: theme })
      const found: string[] = []
      for (const panel of PANELS) {
        await page.getByTestId(`nav-${panel}`).click()
        await page.getByTestId(`panel-${panel}`).waitFor()
        if (panel === 'image') {
          await page.getByTestId('group-picker').selectOption('images')
          await page.getByTestId('image-model').selectOption('img-gpt')
          await page.getByTestId('image-mode-edit').click()
        }
        if (panel === 'video') await page.getByTestId('group-picker').selectOption('video')
        // settle: lists and figures load after the panel shows
        await page.waitForTimeout(300)
        found.push(...(await seriousViolations(page)).map((v) => `${panel}: ${v}`))
        await app.screenshot(`a11y-${panel}-${theme}`)
      }
      await page.getByTestId('group-picker').selectOption('main')
      expect(found).toEqual([])
    })
  }

  it('the chat box has an accessible name, and the drop zone shows its focus plainly', async () => {
    const { page } = app
    await page.emulateMedia({ colorScheme: 'light' })
    await page.getByTestId('nav-chat').click()
    const input = page.getByRole('textbox', { name: 'Message', exact: true })
    expect(await input.getAttribute('data-testid')).toBe('chat-input')
    // focused from the keyboard (Tab from the chat box): a 3 px outline in the accent colour around it
    await input.focus()
    const zone = page.getByTestId('chat-attach-zone')
    let reached = false
    for (let i = 0; i < 6 && !reached; i++) {
      await page.keyboard.press('Tab')
      reached = await zone.evaluate((el) => el === document.activeElement)
    }
    expect(reached).toBe(true)
    const outline = await zone.evaluate((el) => {
      const s = getComputedStyle(el)
      return { width: s.outlineWidth, style: s.outlineStyle, focused: el.matches(':focus-visible') }
    })
    expect(outline).toEqual({ width: '3px', style: 'solid', focused: true })
    await app.screenshot('a11y-drop-zone-focus')
  })

  it('green status text has at least 4.5:1 against every background it sits on, in both themes', async () => {
    const { page } = app
    for (const theme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: theme })
      const ratios = await page.evaluate(() => {
        const rgb = (v: string) => {
          const probe = document.createElement('span')
          probe.style.color = v
          document.body.append(probe)
          const m = getComputedStyle(probe).color.match(/\d+/g)!.map(Number)
          probe.remove()
          return m
        }
        const lum = (c: number[]) => {
          const [r, g, b] = c.map((x) => x / 255).map((x) => (x <= 0.03928 ? x / 12.92 : ((x + 0.055) / 1.055) ** 2.4))
          return 0.2126 * r + 0.7152 * g + 0.0722 * b
        }
        const ratio = (a: number[], b: number[]) => {
          const [x, y] = [lum(a), lum(b)].sort((p, q) => q - p)
          return (x + 0.05) / (y + 0.05)
        }
        const root = getComputedStyle(document.documentElement)
        const v = (name: string) => rgb(root.getPropertyValue(name).trim())
        return ['--bg', '--panel', '--code-bg'].map((bg) => ratio(v('--ok'), v(bg)))
      })
      for (const r of ratios) expect(r, theme).toBeGreaterThanOrEqual(4.5)
    }
    await page.emulateMedia({ colorScheme: 'light' })
  })

  it('the mask is painted from the keyboard alone: arrows move a visible cursor, Space paints a dab, Enter draws a stroke; on a red image the overlay is not red', async () => {
    const { page } = app
    await page.getByTestId('nav-image').click()
    await page.getByTestId('group-picker').selectOption('images')
    await page.getByTestId('image-model').selectOption('img-gpt')
    await page.getByTestId('image-mode-edit').click()
    const reference = join(files, 'red.png')
    writeFileSync(reference, makePng(64, 48, { color: [220, 30, 40, 255] }))
    await page.getByTestId('image-file').setInputFiles(reference)
    const canvas = page.getByTestId('mask-canvas')
    await expect.poll(() => canvas.getAttribute('data-scale')).toMatch(/\d/)
    await page.getByTestId('mask-size').fill('8')
    const ops = async () => Number(await canvas.getAttribute('data-ops'))
    const before = await ops()

    // Reach the canvas with Tab only (bounded: the panel has fewer stops than this).
    await page.getByTestId('mask-size').focus()
    let reached = false
    for (let i = 0; i < 80 && !reached; i++) {
      await page.keyboard.press('Tab')
      reached = await canvas.evaluate((el) => el === document.activeElement)
    }
    expect(reached).toBe(true)
    expect(await canvas.getAttribute('aria-label')).toBe('Mask: the area to edit')
    expect([await canvas.getAttribute('data-cursor-x'), await canvas.getAttribute('data-cursor-y'), await canvas.getAttribute('data-pen')]).toEqual(['32', '24', 'up'])

    // a step is a quarter of the 8 px brush: four steps left is 8 px
    for (let i = 0; i < 4; i++) await page.keyboard.press('ArrowLeft')
    expect(await canvas.getAttribute('data-cursor-x')).toBe('24')
    await page.keyboard.press('Space')
    await expect.poll(ops).toBe(before + 1)

    await page.keyboard.press('Enter')
    expect(await canvas.getAttribute('data-pen')).toBe('down')
    for (let i = 0; i < 8; i++) await page.keyboard.press('ArrowRight')
    await page.keyboard.press('Enter')
    expect([await canvas.getAttribute('data-cursor-x'), await canvas.getAttribute('data-pen')]).toEqual(['40', 'up'])
    await expect.poll(ops).toBe(before + 2)
    // the page did not scroll or pan with those keys: still focused, the cursor drawn on the cursor layer
    expect(await canvas.evaluate((el) => el === document.activeElement)).toBe(true)
    await app.screenshot('a11y-mask-keyboard')

    // The painted pixels on screen: the stroke's middle (32, 24) and the dab (24, 24), hatched, never red on red.
    const pixels = await page.getByTestId('mask-overlay-layer').evaluate((el, at) => {
      const c = el as HTMLCanvasElement
      const ctx = c.getContext('2d')!
      const dpr = c.width / c.getBoundingClientRect().width
      return at.map(([x, y]) => Array.from(ctx.getImageData(Math.round(x * dpr), Math.round(y * dpr), 1, 1).data))
    }, await Promise.all([[32, 24], [24, 24], [5, 5]].map(async ([x, y]) => {
      const [scale, ox, oy] = await Promise.all(['data-scale', 'data-offset-x', 'data-offset-y'].map(async (a) => Number(await canvas.getAttribute(a))))
      return [ox + (x + 0.5) * scale, oy + (y + 0.5) * scale] as const
    })))
    const [middle, dab, untouched] = pixels
    expect(middle[3]).toBeGreaterThan(0)
    expect(dab[3]).toBeGreaterThan(0)
    expect(untouched[3]).toBe(0)
    // cyan and black stripes on a red image: never the image's own red
    for (const [r, g, b] of [middle, dab]) expect(r > 150 && g < 90 && b < 90).toBe(false)
  })
})
