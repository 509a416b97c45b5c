import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { GatewayConfig } from '../../electron/gateway/config/load-config.js'
import { startFakeOpenAIImages, type FakeOpenAIImages } from '../fakes/images/openai-images.js'
import { openApp, type AppUnderTest } from './harness.js'

/** One GPT-style image model on a fake OpenAI images server, in the group `images`. */
const config = (baseUrl: string): GatewayConfig => ({
  account: { balance: 100, concurrency: 5 },
  models: [{ id: 'img-gpt', family: 'gpt-image', vendor: 'openai', pricing: { unit: 'image', price: 0.04 }, maxN: 4, outputFormats: ['png', 'jpeg', 'webp'] }],
  upstreams: [{ id: 'oa', vendor: 'openai', baseUrl, apiKey: 'sk-upstream-images' }],
  groups: [{ id: 'images', protocol: 'chat', models: ['img-gpt'], upstreams: ['oa'] }],
})

export interface ImagePanel {
  fake: FakeOpenAIImages
  app: AppUnderTest
  /** a temp folder for the files the test uploads */
  files: string
  close(): Promise<void>
}

/** The app open on the image panel against a fake OpenAI images server that checks masks. */
export async function openImagePanel(): Promise<ImagePanel> {
  const fake = await startFakeOpenAIImages({ apiKey: 'sk-upstream-images', validateMask: true })
  const app = await openApp(config(fake.url), { group: 'images' })
  await app.page.getByTestId('nav-image').click()
  await app.page.getByTestId('panel-image').waitFor()
  const files = mkdtempSync(join(tmpdir(), 'gatehouse-e2e-'))
  return {
    fake, app, files,
    async close() {
      await app.close()
      await fake.close()
      rmSync(files, { recursive: true, force: true })
    },
  }
}
