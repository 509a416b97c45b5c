import type { HandlerMap, IpcContext } from './types.js'
import { defineHandler } from './types.js'
import { parseNone } from './validate.js'

/** `session:get`: the gateway address and this run's admin token, which the window exchanges for a cookie. */
export function sessionHandlers(ctx: IpcContext): HandlerMap<'session:get'> {
  return { 'session:get': defineHandler<'session:get'>(parseNone, () => ctx.session()) }
}
