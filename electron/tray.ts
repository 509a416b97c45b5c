import { app, clipboard, Menu, nativeImage, Tray, type MenuItemConstructorOptions } from 'electron'
import { fileURLToPath } from 'node:url'

// build-electron.ts copies build/icon.png next to the bundle.
const ICON = fileURLToPath(new URL('./icon.png', import.meta.url))
// Tray icons are drawn at these sizes (logical px); the 512 px app icon is scaled down once.
const TRAY_SIZE: Partial<Record<NodeJS.Platform, number>> = { darwin: 16, win32: 16 }

/** What the menus do; main.ts owns the window and the quit sequence. */
export interface MenuActions {
  openWindow(): void
  quit(): void
}

/** The tray icon and the application menu, showing one status line. */
export interface ShellMenus {
  /** e.g. "Gateway: running on http://127.0.0.1:8787"; `baseUrl` enables "Copy base URL" */
  setStatus(status: string, baseUrl?: string): void
}

function gatehouseItems(status: string, baseUrl: string | undefined, actions: MenuActions): MenuItemConstructorOptions[] {
  return [
    { label: status, enabled: false },
    { label: 'Copy base URL', enabled: baseUrl !== undefined, click: () => baseUrl && clipboard.writeText(baseUrl) },
    { label: 'Open Gatehouse', click: () => actions.openWindow() },
    { type: 'separator' },
    { label: 'Quit', accelerator: 'CmdOrCtrl+Q', click: () => actions.quit() },
  ]
}

function applicationMenu(items: MenuItemConstructorOptions[]): Menu {
  // The edit menu's roles are what make copy and paste work in text fields on macOS.
  const template: MenuItemConstructorOptions[] = [
    ...(process.platform === 'darwin' ? [{ role: 'appMenu' } as const] : []),
    { label: 'Gatehouse', submenu: items },
    { role: 'editMenu' },
    { role: 'viewMenu' },
    { role: 'windowMenu' },
  ]
  return Menu.buildFromTemplate(template)
}

/** Creates the tray icon and sets the application menu. Call after `app.whenReady()`. */
export function createShellMenus(actions: MenuActions): ShellMenus {
  const size = TRAY_SIZE[process.platform] ?? 24
  const icon = nativeImage.createFromPath(ICON)
  const tray = new Tray(icon.isEmpty() ? icon : icon.resize({ width: size, height: size }))
  tray.setToolTip(app.getName())
  // Windows and Linux: a click on the icon opens the window; macOS shows the menu, as its users expect.
  if (process.platform !== 'darwin') tray.on('click', () => actions.openWindow())
  const menus: ShellMenus = {
    setStatus(status, baseUrl) {
      const items = gatehouseItems(status, baseUrl, actions)
      tray.setContextMenu(Menu.buildFromTemplate(items))
      tray.setToolTip(`Gatehouse · ${status}`)
      Menu.setApplicationMenu(applicationMenu(items))
    },
  }
  menus.setStatus('Gateway: starting…')
  return menus
}
