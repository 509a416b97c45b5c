import { ipcMain, type IpcMainInvokeEvent } from 'electron'
import { IPC_CHANNELS, type IpcChannel } from '../../shared/ipc.js'
import { clipboardHandlers } from './clipboard.js'
import { gatewayHandlers } from './gateway.js'
import { IpcError, toIpcErrorJson, type IpcResult } from './result.js'
import { isTrustedSender } from './sender.js'
import { sessionHandlers } from './session.js'
import { shellHandlers } from './shell.js'
import type { HandlerMap, IpcContext } from './types.js'
import { vaultHandlers } from './vault.js'

/** Every channel's handler; the type makes a channel added to shared/ipc.ts without a handler a compile error. */
export function createHandlers(ctx: IpcContext): HandlerMap {
  return { ...sessionHandlers(ctx), ...clipboardHandlers(), ...shellHandlers(), ...vaultHandlers(ctx), ...gatewayHandlers(ctx) }
}

// Only the origin is logged: a page's query string may carry a one-time login code.
function senderOrigin(event: IpcMainInvokeEvent): string {
  try {
    return new URL(event.senderFrame?.url ?? '').origin
  } catch {
    return 'a destroyed or unnamed frame'
  }
}

/** Runs one call: sender check, then the handler; whatever happens, the answer is an IpcResult. */
export async function dispatch(
  channel: IpcChannel,
  handler: (payload: unknown) => Promise<unknown>,
  event: IpcMainInvokeEvent,
  payload: unknown,
  ctx: IpcContext,
): Promise<IpcResult<unknown>> {
  try {
    if (!isTrustedSender(event, ctx.webContents(), ctx.origin)) {
      console.warn(`ipc: refused ${channel} from ${senderOrigin(event)}`)
      throw new IpcError('IPC_FORBIDDEN', 'this page may not use the desktop API')
    }
    return { ok: true, value: await handler(payload) }
  } catch (err) {
    return { ok: false, error: toIpcErrorJson(err) }
  }
}

/** Registers every channel of shared/ipc.ts with ipcMain; returns the function that removes them. */
export function registerIpc(ctx: IpcContext): () => void {
  const handlers = createHandlers(ctx)
  for (const channel of IPC_CHANNELS) {
    const handler: (payload: unknown) => Promise<unknown> = handlers[channel]
    ipcMain.handle(channel, (event, payload: unknown) => dispatch(channel, handler, event, payload, ctx))
  }
  return () => {
    for (const channel of IPC_CHANNELS) ipcMain.removeHandler(channel)
  }
}
