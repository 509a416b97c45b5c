import type { WebContents } from 'electron'
import type { IpcChannel, IpcContract } from '../../shared/ipc.js'
import type { VaultStatus } from '../vault.js'

/** A channel's request, as shared/ipc.ts defines it. */
export type IpcRequest<C extends IpcChannel> = IpcContract[C]['req']
/** A channel's answer, as shared/ipc.ts defines it. */
export type IpcResponse<C extends IpcChannel> = IpcContract[C]['res']

/** A channel's handler: takes the untrusted payload, validates it, answers. */
export type ChannelHandler<C extends IpcChannel> = (payload: unknown) => Promise<IpcResponse<C>>

/** Handlers for some channels; register.ts requires the union of the domains to cover every channel. */
export type HandlerMap<C extends IpcChannel = IpcChannel> = { [K in C]: ChannelHandler<K> }

/** What the handlers need from the running app. */
export interface IpcContext {
  /** the gateway's origin (`http://127.0.0.1:8787`); callers on any other origin are refused */
  origin: string
  /** our window's webContents, if the window is open */
  webContents(): WebContents | undefined
  session(): IpcResponse<'session:get'>
  gatewayStatus(): IpcResponse<'gateway:status'>
  vaultStatus(): VaultStatus
}

/** Pairs a payload guard with the work, so no handler ever sees an unchecked payload. */
export function defineHandler<C extends IpcChannel>(
  parse: (payload: unknown) => IpcRequest<C>,
  handle: (req: IpcRequest<C>) => IpcResponse<C> | Promise<IpcResponse<C>>,
): ChannelHandler<C> {
  return async (payload) => handle(parse(payload))
}
