import { EventEmitter } from 'node:events'
import { describe, expect, it, vi } from 'vitest'

// Electron's binary is not needed: the app, sessions and shell are replaced by recorders.
const electron = vi.hoisted(() => ({
  appListeners: new Map<string, (...args: unknown[]) => void>(),
  openExternal: vi.fn(async () => undefined),
}))
vi.mock('electron', () => ({
  app: { on: (name: string, fn: (...args: unknown[]) => void) => electron.appListeners.set(name, fn) },
  shell: { openExternal: electron.openExternal },
  session: {},
  BrowserWindow: class {},
}))

const { guardAllContents } = await import('../../../electron/window.js')

const ORIGIN = 'http://127.0.0.1:8787'

/** A web contents that records its handlers, with a session that records its permission handlers. */
function fakeContents() {
  const contents = Object.assign(new EventEmitter(), {
    openHandler: undefined as undefined | ((d: { url: string }) => { action: string }),
    setWindowOpenHandler(fn: (d: { url: string }) => { action: string }) {
      this.openHandler = fn
    },
    session: {
      request: undefined as undefined | ((c: unknown, p: string, cb: (ok: boolean) => void) => void),
      webRequest: { onHeadersReceived: vi.fn() },
      setPermissionRequestHandler(fn: (c: unknown, p: string, cb: (ok: boolean) => void) => void) {
        this.request = fn
      },
      setPermissionCheckHandler: vi.fn(),
    },
  })
  return contents
}

/** Emits a navigation event; true when the handler prevented it. */
function emit(contents: EventEmitter, name: string, details: Record<string, unknown>): boolean {
  const preventDefault = vi.fn()
  contents.emit(name, { ...details, preventDefault })
  return preventDefault.mock.calls.length > 0
}

describe('guardAllContents', () => {
  let origin: string | undefined = ORIGIN
  guardAllContents(() => origin)
  const created = electron.appListeners.get('web-contents-created')!

  it('guards every web contents the app creates', () => {
    expect(created).toBeTypeOf('function')
    const contents = fakeContents()
    created({}, contents)
    expect(contents.openHandler).toBeTypeOf('function')
    for (const name of ['will-navigate', 'will-frame-navigate', 'will-redirect', 'will-attach-webview']) expect(contents.listenerCount(name)).toBe(1)
  })

  it('keeps the main frame on the gateway, sends http(s) links to the system browser, and refuses the rest', () => {
    const contents = fakeContents()
    created({}, contents)
    electron.openExternal.mockClear()
    expect(emit(contents, 'will-navigate', { url: `${ORIGIN}/#x` })).toBe(false)
    expect(emit(contents, 'will-navigate', { url: 'https://docs.example/' })).toBe(true)
    expect(electron.openExternal).toHaveBeenCalledWith('https://docs.example/')
    expect(emit(contents, 'will-navigate', { url: 'file:///etc/passwd' })).toBe(true)
    expect(electron.openExternal).toHaveBeenCalledTimes(1)
  })

  it('refuses frames and redirects to anything but the gateway origin, and every webview', () => {
    const contents = fakeContents()
    created({}, contents)
    expect(emit(contents, 'will-frame-navigate', { url: 'http://127.0.0.1:9999/', isMainFrame: false })).toBe(true)
    expect(emit(contents, 'will-frame-navigate', { url: 'https://evil.example/', isMainFrame: false })).toBe(true)
    expect(emit(contents, 'will-frame-navigate', { url: `${ORIGIN}/admin/v1/media/x`, isMainFrame: false })).toBe(false)
    expect(emit(contents, 'will-redirect', { url: 'http://localhost:8787/' })).toBe(true)
    expect(emit(contents, 'will-redirect', { url: `${ORIGIN}/` })).toBe(false)
    expect(emit(contents, 'will-attach-webview', {})).toBe(true)
  })

  it('never opens a window inside the app', () => {
    const contents = fakeContents()
    created({}, contents)
    electron.openExternal.mockClear()
    expect(contents.openHandler!({ url: 'https://docs.example/' })).toEqual({ action: 'deny' })
    expect(contents.openHandler!({ url: `${ORIGIN}/` })).toEqual({ action: 'deny' })
    expect(contents.openHandler!({ url: 'javascript:alert(1)' })).toEqual({ action: 'deny' })
    expect(electron.openExternal.mock.calls).toEqual([['https://docs.example/']])
  })

  it('denies permission requests other than sanitized clipboard writes', () => {
    const contents = fakeContents()
    created({}, contents)
    const answers: boolean[] = []
    for (const permission of ['media', 'geolocation', 'notifications', 'clipboard-sanitized-write']) contents.session.request!({}, permission, (ok) => answers.push(ok))
    expect(answers).toEqual([false, false, false, true])
  })

  it('lets nothing load before the gateway runs', () => {
    origin = undefined
    const contents = fakeContents()
    created({}, contents)
    expect(emit(contents, 'will-navigate', { url: `${ORIGIN}/` })).toBe(true)
    expect(emit(contents, 'will-frame-navigate', { url: `${ORIGIN}/`, isMainFrame: false })).toBe(true)
    origin = ORIGIN
  })
})
