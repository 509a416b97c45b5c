import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, describe, expect, it } from 'vitest'
import { filesChangingTheProcess } from '../../helpers/needs-isolation.js'

const root = mkdtempSync(join(tmpdir(), 'gatehouse-isolation-'))
afterAll(() => rmSync(root, { recursive: true, force: true }))

function lay(files: Record<string, string>): void {
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(root, path, '..'), { recursive: true })
    writeFileSync(join(root, path), text)
  }
}

describe('which test files need a process of their own', () => {
  it('those that mock modules, stub globals, fake timers, set or delete environment variables, or listen on the process', () => {
    lay({
      'test/a-mock.test.ts': "vi.mock('electron', () => ({}))\n",
      'test/b-env.test.ts': "process.env.HOME = '/tmp/home'\n",
      'test/c-env-index.test.ts': "process.env['PATH'] = '/bin'\n",
      'test/d-delete.test.ts': 'delete process.env.OPENAI_BASE_URL\n',
      'test/deep/e-timers.test.ts': 'beforeEach(() => void vi.useFakeTimers())\n',
      'test/f-stub.test.ts': "vi.stubGlobal('fetch', async () => new Response())\n",
      'test/g-listener.test.ts': "process.on('uncaughtException', () => {})\n",
      'test/h-global.test.ts': 'globalThis.fetch = async () => new Response()\n',
    })
    // reading the environment, comparing it, or spying on a function changes nothing for the next file
    lay({
      'test/i-reads.test.ts': "expect(process.env.HOME === '/x').toBe(false)\nif (process.env.CI == undefined) {}\nconst spy = vi.fn()\n",
      'test/j-plain.test.ts': "it('adds', () => expect(1 + 1).toBe(2))\n",
      'test/k-helper.ts': "vi.mock('electron', () => ({}))\n",
    })
    expect(filesChangingTheProcess(root)).toEqual([
      'test/a-mock.test.ts',
      'test/b-env.test.ts',
      'test/c-env-index.test.ts',
      'test/d-delete.test.ts',
      'test/deep/e-timers.test.ts',
      'test/f-stub.test.ts',
      'test/g-listener.test.ts',
      'test/h-global.test.ts',
    ])
  })

  it("in this repository: the files that mock electron or the app store, and those that point tools' homes elsewhere", () => {
    const found = filesChangingTheProcess(fileURLToPath(new URL('../../..', import.meta.url)))
    expect(found).toEqual(expect.arrayContaining([
      'test/unit/electron/window.test.ts',
      'test/unit/renderer/panels/chat/markdown.test.ts',
      'test/integration/admin/connect.test.ts',
      'test/fuzz/admin.test.ts',
    ]))
  })
})
