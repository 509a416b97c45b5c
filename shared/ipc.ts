/**
 * The one IPC contract between the Electron main process and the preload. Channels are `domain:verb`;
 * the preload's `window.api` and the main handlers are both typed from this map.
 */
export interface IpcContract {
  /** the gateway's address and the admin token the window exchanges for a session */
  'session:get': { req: void; res: { baseUrl: string; adminToken: string } }
  /** puts text on the clipboard (the copy-base-URL action and "use from code" snippets) */
  'clipboard:write': { req: { text: string }; res: void }
  /** opens a saved media file's folder, or a URL in the system browser (http/https only) */
  'shell:open-external': { req: { url: string }; res: void }
  /** where upstream secrets are sealed: the OS keychain through safeStorage, or the 0600 key file fallback */
  'vault:status': { req: void; res: { backend: 'safeStorage' | 'file'; detail: string } }
  /** gateway status for the window title / tray */
  'gateway:status': { req: void; res: { running: boolean; baseUrl: string; port: number } }
}

export type IpcChannel = keyof IpcContract
export const IPC_CHANNELS: readonly IpcChannel[] = ['session:get', 'clipboard:write', 'shell:open-external', 'vault:status', 'gateway:status']

/** What the preload exposes as `window.api`: one named function per channel. */
export interface DesktopApi {
  getSession(): Promise<IpcContract['session:get']['res']>
  writeClipboard(text: string): Promise<void>
  openExternal(url: string): Promise<void>
  vaultStatus(): Promise<IpcContract['vault:status']['res']>
  gatewayStatus(): Promise<IpcContract['gateway:status']['res']>
}
