import { app, dialog, safeStorage, type BrowserWindow } from 'electron'
import { mkdirSync } from 'node:fs'
import { setFlagsFromString } from 'node:v8'
import { startGateway, type RunningGateway } from './gateway/gateway.js'
import { HEAP_GROWING_FLAG } from './gateway/node-flags.js'
import { outliveLogPipes } from './gateway/log-pipes.js'
import { defaultDataDir } from './gateway/data-dir/paths.js'
import { PRIVATE_DIR_MODE } from './gateway/data-dir/private-files.js'
import { readSettings, writeSettings } from './gateway/data-dir/settings.js'
import { registerIpc } from './ipc/register.js'
import { askForOtherPort } from './port-dialog.js'
import { findFreePort, isAddressInUse, startupPort } from './port.js'
import { createShellMenus, type ShellMenus } from './tray.js'
import { createVault, type Vault } from './vault.js'
import { createMainWindow, guardAllContents } from './window.js'

const HOST = '127.0.0.1'
const SHUTDOWN_GRACE_MS = 10_000

// The gateway's heap grows as the headless one's does (node-flags.ts); the process's other Node flags are fixed at launch.
setFlagsFromString(HEAP_GROWING_FLAG)
// Started from a terminal that is then closed, the app goes on without its log (log-pipes.ts).
outliveLogPipes()

// The headless gateway's default folder, so both share one store; GATEHOUSE_DATA_DIR moves both (tests use a temp dir).
// Set before anything reads it: the single-instance lock below is per user-data folder.
app.setName('Gatehouse')
app.setPath('userData', defaultDataDir())

let gateway: RunningGateway | undefined
let window: BrowserWindow | undefined
let menus: ShellMenus | undefined
let stopping = false

function showWindow(): void {
  if (!gateway) return
  if (window) {
    if (window.isMinimized()) window.restore()
    window.show()
    window.focus()
    return
  }
  window = createMainWindow(gateway.url)
  window.on('closed', () => {
    window = undefined
  })
}

/** Starts on the settings port (or GATEHOUSE_PORT); when it is busy, offers a free one. Undefined: the user chose to quit. */
async function startWithPortChoice(dataDir: string, vault: Vault): Promise<RunningGateway | undefined> {
  let port = startupPort(process.env.GATEHOUSE_PORT, readSettings(dataDir).port)
  let remember = false
  for (;;) {
    try {
      const running = await startGateway({ dataDir, port, host: HOST, secrets: vault.box, mode: 'desktop', prepareCounting: true })
      // Saved only once the port really worked, so settings never name a port that failed.
      if (remember) writeSettings(dataDir, { ...readSettings(dataDir), port: running.port })
      return running
    } catch (err) {
      if (!isAddressInUse(err)) throw err
      const free = await findFreePort(HOST)
      const choice = await askForOtherPort(port, free)
      if (!choice.use) return undefined
      remember = choice.remember
      port = free
    }
  }
}

async function launch(): Promise<void> {
  const dataDir = app.getPath('userData')
  mkdirSync(dataDir, { recursive: true, mode: PRIVATE_DIR_MODE })
  // safeStorage can only be asked once the app is ready (on Linux the keyring is chosen at startup).
  const vault = createVault(safeStorage, dataDir)
  menus = createShellMenus({ openWindow: showWindow, quit: () => app.quit() })
  const running = await startWithPortChoice(dataDir, vault)
  if (!running) {
    app.quit()
    return
  }
  gateway = running
  registerIpc({
    origin: new URL(running.url).origin,
    webContents: () => window?.webContents,
    session: () => ({ baseUrl: running.url, adminToken: running.adminToken }),
    gatewayStatus: () => ({ running: !stopping, baseUrl: running.url, port: running.port }),
    vaultStatus: () => vault.status,
  })
  menus.setStatus(`Gateway: running on ${running.url}`, running.url)
  showWindow()
}

function fail(err: unknown): void {
  dialog.showErrorBox('Gatehouse could not start', err instanceof Error ? err.message : String(err))
  app.exit(1)
}

if (!app.requestSingleInstanceLock()) {
  app.quit()
} else {
  // Every web contents, the window's and any other, gets the navigation and permission policy.
  guardAllContents(() => (gateway ? new URL(gateway.url).origin : undefined))
  app.on('second-instance', showWindow)
  app.on('activate', showWindow)
  // Closing the window leaves the gateway serving SDK clients; the tray and the menu bring the window back.
  app.on('window-all-closed', () => undefined)
  app.on('before-quit', (event) => {
    if (!gateway) return
    // Quit waits for in-flight requests to drain (close() cuts whatever outlives the grace period).
    event.preventDefault()
    if (stopping) return
    stopping = true
    menus?.setStatus('Gateway: stopping…')
    gateway
      .close(SHUTDOWN_GRACE_MS)
      .catch((err: Error) => console.error(`gateway shutdown failed: ${err.message}`))
      .finally(() => app.exit(0))
  })
  app.whenReady().then(launch).catch(fail)
}
