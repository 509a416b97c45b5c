import { defineHandler, type HandlerMap, type IpcContext } from './types.js'
import { parseNone } from './validate.js'

/** `gateway:status`: whether the in-process gateway runs, and where. */
export function gatewayHandlers(ctx: IpcContext): HandlerMap<'gateway:status'> {
  return { 'gateway:status': defineHandler<'gateway:status'>(parseNone, () => ctx.gatewayStatus()) }
}
