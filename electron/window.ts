import { BrowserWindow, session, shell } from 'electron'
import { fileURLToPath } from 'node:url'
import { RENDERER_CSP } from './gateway/admin/static-files.js'
import { ALLOWED_PERMISSIONS, isExternalHttpUrl, isSameOrigin, withFallbackCsp } from './window-policy.js'

// After bundling, this module is dist/electron/main.js and the preload sits next to it.
const PRELOAD = fileURLToPath(new URL('./preload.cjs', import.meta.url))

let sessionHardened = false

/** Session-wide rules, set once: a CSP on responses without one, and no permissions beyond the clipboard. */
function hardenSession(): void {
  if (sessionHardened) return
  sessionHardened = true
  const ses = session.defaultSession
  ses.webRequest.onHeadersReceived((details, callback) => {
    callback({ responseHeaders: withFallbackCsp(details.responseHeaders, RENDERER_CSP) })
  })
  ses.setPermissionRequestHandler((_contents, permission, callback) => callback(ALLOWED_PERMISSIONS.has(permission)))
  ses.setPermissionCheckHandler((_contents, permission) => ALLOWED_PERMISSIONS.has(permission))
}

/** Links that leave the app open in the system browser; anything else is dropped. */
function openOutside(url: string): void {
  if (isExternalHttpUrl(url)) void shell.openExternal(url)
}

/** The app window: sandboxed, isolated, showing the gateway's own pages and nothing else. */
export function createMainWindow(baseUrl: string): BrowserWindow {
  hardenSession()
  const origin = new URL(baseUrl).origin
  const window = new BrowserWindow({
    width: 1280,
    height: 840,
    minWidth: 800,
    minHeight: 560,
    title: 'Gatehouse',
    show: false,
    webPreferences: {
      preload: PRELOAD,
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      webSecurity: true,
      webviewTag: false,
    },
  })
  window.once('ready-to-show', () => window.show())
  const contents = window.webContents
  contents.setWindowOpenHandler(({ url }) => {
    openOutside(url)
    return { action: 'deny' }
  })
  contents.on('will-navigate', (event, url) => {
    if (isSameOrigin(url, origin)) return
    event.preventDefault()
    openOutside(url)
  })
  contents.on('will-redirect', (event, url) => {
    if (!isSameOrigin(url, origin)) event.preventDefault()
  })
  contents.on('will-attach-webview', (event) => event.preventDefault())
  window.loadURL(`${baseUrl}/`).catch((err: Error) => console.error(`window: could not load ${baseUrl}/: ${err.message}`))
  return window
}
