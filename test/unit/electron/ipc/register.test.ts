import type { IpcMainInvokeEvent, WebContents } from 'electron'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import type { IpcContext } from '../../../../electron/ipc/types.js'
import { IPC_CHANNELS } from '../../../../shared/ipc.js'

// Electron's binary is not needed: the modules the handlers call are replaced by recorders.
const electron = vi.hoisted(() => ({
  handlers: new Map<string, (event: unknown, payload: unknown) => Promise<unknown>>(),
  writeText: vi.fn(),
  openExternal: vi.fn(async () => undefined),
}))
vi.mock('electron', () => ({
  ipcMain: {
    handle: (channel: string, fn: (event: unknown, payload: unknown) => Promise<unknown>) => electron.handlers.set(channel, fn),
    removeHandler: (channel: string) => electron.handlers.delete(channel),
  },
  clipboard: { writeText: electron.writeText },
  shell: { openExternal: electron.openExternal },
}))

const { registerIpc } = await import('../../../../electron/ipc/register.js')

const ORIGIN = 'http://127.0.0.1:8787'
const mainFrame = { url: `${ORIGIN}/` }
const contents = { mainFrame } as unknown as WebContents
const trusted = { sender: contents, senderFrame: mainFrame } as unknown as IpcMainInvokeEvent

const ctx: IpcContext = {
  origin: ORIGIN,
  webContents: () => contents,
  session: () => ({ baseUrl: ORIGIN, adminToken: 'admin-token' }),
  gatewayStatus: () => ({ running: true, baseUrl: ORIGIN, port: 8787 }),
  vaultStatus: () => ({ backend: 'file', detail: 'no keyring' }),
}
const call = (channel: string, event: unknown, payload?: unknown) => electron.handlers.get(channel)!(event, payload)

describe('registerIpc', () => {
  let unregister: () => void
  beforeEach(() => {
    electron.handlers.clear()
    electron.writeText.mockClear()
    electron.openExternal.mockClear()
    unregister = registerIpc(ctx)
  })

  it('registers every channel of the contract, and removes them again', () => {
    expect([...electron.handlers.keys()].sort()).toEqual([...IPC_CHANNELS].sort())
    unregister()
    expect(electron.handlers.size).toBe(0)
  })

  it('answers trusted calls with { ok, value }', async () => {
    expect(await call('session:get', trusted)).toEqual({ ok: true, value: { baseUrl: ORIGIN, adminToken: 'admin-token' } })
    expect(await call('gateway:status', trusted)).toEqual({ ok: true, value: { running: true, baseUrl: ORIGIN, port: 8787 } })
    expect(await call('vault:status', trusted)).toEqual({ ok: true, value: { backend: 'file', detail: 'no keyring' } })
    expect(await call('clipboard:write', trusted, { text: 'base url' })).toEqual({ ok: true, value: undefined })
    expect(electron.writeText).toHaveBeenCalledWith('base url')
    await call('shell:open-external', trusted, { url: 'https://example.com/docs' })
    expect(electron.openExternal).toHaveBeenCalledWith('https://example.com/docs')
  })

  it('refuses other senders before looking at the payload, and never hands out the token', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined)
    const foreignFrame = { url: 'https://evil.example/' }
    const foreign = { sender: { mainFrame: foreignFrame }, senderFrame: foreignFrame }
    const answer = await call('session:get', foreign)
    expect(answer).toEqual({ ok: false, error: { code: 'IPC_FORBIDDEN', message: expect.any(String) } })
    expect(JSON.stringify(answer)).not.toContain('admin-token')
    expect(warn).toHaveBeenCalledOnce()
    warn.mockRestore()
  })

  it('turns bad payloads and failures into { code, message } without a stack', async () => {
    expect(await call('shell:open-external', trusted, { url: 'file:///etc/passwd' })).toEqual({
      ok: false,
      error: { code: 'IPC_INVALID_PAYLOAD', message: 'only http and https URLs open externally' },
    })
    expect(electron.openExternal).not.toHaveBeenCalled()
    electron.openExternal.mockRejectedValueOnce(new Error('no handler for this URL'))
    const failed = await call('shell:open-external', trusted, { url: 'https://example.com' })
    expect(failed).toEqual({ ok: false, error: { code: 'IPC_FAILED', message: 'no handler for this URL' } })
    expect(Object.keys((failed as { error: object }).error)).toEqual(['code', 'message'])
  })
})
