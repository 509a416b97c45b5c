import { contextBridge, ipcRenderer } from 'electron'
import type { DesktopApi, IpcChannel, IpcContract } from '../shared/ipc.js'
import type { IpcResult } from './ipc/result.js'

/** A channel's request as call arguments: none for `void`, else exactly one. */
type RequestArgs<C extends IpcChannel> = IpcContract[C]['req'] extends void ? [] : [IpcContract[C]['req']]

/**
 * The window's `window.api`: one named function per channel of shared/ipc.ts. ipcRenderer itself never
 * reaches the page. Bundled to CommonJS because sandboxed preloads cannot be ES modules.
 */
async function invoke<C extends IpcChannel>(channel: C, ...request: RequestArgs<C>): Promise<IpcContract[C]['res']> {
  const result = (await ipcRenderer.invoke(channel, ...request)) as IpcResult<IpcContract[C]['res']>
  if (result.ok) return result.value
  // contextBridge keeps only an Error's message, so the code travels inside it as well.
  throw Object.assign(new Error(`${result.error.code}: ${result.error.message}`), { code: result.error.code })
}

const api: DesktopApi = {
  getSession: () => invoke('session:get'),
  writeClipboard: (text) => invoke('clipboard:write', { text }),
  openExternal: (url) => invoke('shell:open-external', { url }),
  vaultStatus: () => invoke('vault:status'),
  gatewayStatus: () => invoke('gateway:status'),
}

contextBridge.exposeInMainWorld('api', api)
