import { app, BrowserWindow, session, shell, type Session, type WebContents } from 'electron'
import { fileURLToPath } from 'node:url'
import { RENDERER_CSP } from './gateway/admin/static-files.js'
import { ALLOWED_PERMISSIONS, frameMayLoad, isExternalHttpUrl, navigationAction, windowOpenAction, withFallbackCsp } from './window-policy.js'

// After bundling, this module is dist/electron/main.js and the preload sits next to it.
const PRELOAD = fileURLToPath(new URL('./preload.cjs', import.meta.url))

const hardened = new WeakSet<Session>()

/** Session-wide rules, set once per session: a CSP on responses without one, and no permissions beyond the clipboard. */
function hardenSession(ses: Session): void {
  if (hardened.has(ses)) return
  hardened.add(ses)
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

/** The navigation and new-window policy, on one web contents (the window's, a devtools', any other). */
function guardContents(contents: WebContents, origin: () => string | undefined): void {
  hardenSession(contents.session)
  contents.setWindowOpenHandler(({ url }) => {
    if (windowOpenAction(url, origin()) === 'open-outside') openOutside(url)
    return { action: 'deny' }
  })
  contents.on('will-navigate', (event) => {
    const action = navigationAction(event.url, origin())
    if (action === 'allow') return
    event.preventDefault()
    if (action === 'open-outside') openOutside(event.url)
  })
  // will-navigate covers the main frame (and opens links outside); subframes may load the gateway's origin only.
  contents.on('will-frame-navigate', (event) => {
    if (!event.isMainFrame && !frameMayLoad(event.url, origin())) event.preventDefault()
  })
  contents.on('will-redirect', (event) => {
    if (!frameMayLoad(event.url, origin())) event.preventDefault()
  })
  contents.on('will-attach-webview', (event) => event.preventDefault())
}

/**
 * Applies the policy to every web contents the app ever creates, not only the main window's, from before the
 * first one exists. `origin` is the gateway's (undefined until it runs: then nothing may load).
 */
export function guardAllContents(origin: () => string | undefined): void {
  app.on('web-contents-created', (_event, contents) => guardContents(contents, origin))
}

/** The app window: sandboxed, isolated, showing the gateway's own pages and nothing else (guardAllContents applies). */
export function createMainWindow(baseUrl: string): BrowserWindow {
  hardenSession(session.defaultSession)
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
  window.loadURL(`${baseUrl}/`).catch((err: Error) => console.error(`window: could not load ${baseUrl}/: ${err.message}`))
  return window
}
