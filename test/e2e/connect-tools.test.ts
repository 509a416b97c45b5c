import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { chatConfig, tempDataDir } from '../helpers/gateway.js'
import { browserMissing, withApp } from './harness.js'

const FIXTURES = join(import.meta.dirname, '../fixtures/connect')

// The tools' homes of this test (read by the in-process gateway at each call), never the machine's own.
const homes = tempDataDir()
process.env.CLAUDE_CONFIG_DIR = join(homes.dir, 'claude')
process.env.CODEX_HOME = join(homes.dir, 'codex')
process.env.HOME = join(homes.dir, 'home')
const claudeFile = join(homes.dir, 'claude', 'settings.json')
const codexFile = join(homes.dir, 'codex', 'config.toml')

describe.skipIf(browserMissing)('Connect tools panel (Settings)', () => {
  const { app } = withApp({ config: () => chatConfig([{ id: 'fake', baseUrl: 'http://127.0.0.1:9' }]), options: { group: 'main' } })
  afterAll(() => homes.remove())

  it('previews the diff, writes only the owned keys, shows the connection, and undoes it byte for byte', async () => {
    const original = readFileSync(join(FIXTURES, 'claude-settings.json'))
    mkdirSync(join(homes.dir, 'claude'))
    writeFileSync(claudeFile, original)
    const { page } = app
    await page.getByTestId('nav-settings').click()
    await page.getByTestId('panel-connect').waitFor()
    const claude = page.getByTestId('connect-tool-claude-code')
    expect(await claude.textContent()).toContain(claudeFile)
    expect(await page.getByTestId('connect-unsupported-gemini-cli').textContent()).toBe("Not supported: Gemini CLI calls Gemini's own generateContent API, which Gatehouse does not serve.")

    await page.getByTestId('connect-group-claude-code').selectOption('anthropic-only')
    await page.getByTestId('connect-preview-claude-code').click()
    const diff = (await page.getByTestId('connect-diff-claude-code').locator('pre').textContent()) ?? ''
    expect(diff).toContain(`+    "ANTHROPIC_BASE_URL": "${app.gateway.url}",`)
    expect(diff).toContain('+    "ANTHROPIC_AUTH_TOKEN": "••••••••",')
    expect(readFileSync(claudeFile)).toEqual(original)
    await app.screenshot('connect-preview')

    await page.getByTestId('connect-apply-claude-code').click()
    await page.getByTestId('connect-status-claude-code').waitFor()
    expect(await page.getByTestId('connect-done-claude-code').textContent()).toBe("Connected. A new key was made for it; its secret is only in the tool's file.")
    const written = JSON.parse(readFileSync(claudeFile, 'utf8'))
    expect(written.env.ANTHROPIC_BASE_URL).toBe(app.gateway.url)
    expect(written.statusLine).toEqual({ type: 'command', command: 'bunx -y ccstatusline@latest', padding: 0 })
    // The key's secret is in the file, never on the page.
    expect(await page.content()).not.toContain(written.env.ANTHROPIC_AUTH_TOKEN)
    const status = (await page.getByTestId('connect-status-claude-code').textContent()) ?? ''
    expect(status).toContain('with a key of group anthropic-only')
    expect(status).toMatch(/settings\.json\.gatehouse-backup-\d{8}T\d{9}Z/)
    await app.screenshot('connect-connected')

    await page.getByTestId('connect-undo-claude-code').click()
    expect(await page.getByTestId('connect-diff-claude-code').locator('pre').textContent()).toContain('-    "ANTHROPIC_AUTH_TOKEN": "••••••••",')
    await page.getByTestId('connect-apply-claude-code').click()
    await page.getByTestId('connect-preview-claude-code').waitFor()
    expect(await page.getByTestId('connect-done-claude-code').textContent()).toBe('Undone: the files are back as they were, and the key is revoked.')
    expect(readFileSync(claudeFile)).toEqual(original)
  })

  it('connects Codex with a model of the group and disconnects it; a file that does not parse is refused in the chosen language', async () => {
    const { page } = app
    await page.getByTestId('nav-settings').click()
    await page.getByTestId('connect-group-codex').selectOption('main')
    await page.getByTestId('connect-model-codex').selectOption('test-gpt')
    await page.getByTestId('connect-preview-codex').click()
    await page.getByTestId('connect-apply-codex').click()
    await page.getByTestId('connect-status-codex').waitFor()
    expect(readFileSync(join(homes.dir, 'codex', 'gatehouse.config.toml'), 'utf8')).toBe('model_provider = "gatehouse"\nmodel = "test-gpt"\n')
    await page.getByTestId('connect-disconnect-codex').click()
    await page.getByTestId('connect-apply-codex').click()
    await page.getByTestId('connect-preview-codex').waitFor()
    expect(existsSync(codexFile)).toBe(false)

    writeFileSync(codexFile, readFileSync(join(FIXTURES, 'codex-config-broken.toml')))
    await page.getByTestId('settings-language').selectOption('zh')
    expect(await page.getByTestId('panel-connect').locator('h3').textContent()).toBe('连接工具')
    await page.getByTestId('connect-preview-codex').click()
    const alert = page.getByTestId('connect-tool-codex').getByRole('alert')
    await alert.waitFor()
    expect(await alert.textContent()).toContain(`${codexFile} 不是有效的 TOML（第 4 行），文件未作改动：请修正或移走该文件后重试。`)
    await app.screenshot('connect-unreadable-zh')
    await page.getByTestId('settings-language').selectOption('en')
  })
})
