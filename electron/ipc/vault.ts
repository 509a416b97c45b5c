import { defineHandler, type HandlerMap, type IpcContext } from './types.js'
import { parseNone } from './validate.js'

/** `vault:status`: which backend seals upstream secrets (never a secret itself). */
export function vaultHandlers(ctx: IpcContext): HandlerMap<'vault:status'> {
  return { 'vault:status': defineHandler<'vault:status'>(parseNone, () => ctx.vaultStatus()) }
}
