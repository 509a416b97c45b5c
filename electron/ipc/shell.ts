import { shell } from 'electron'
import { defineHandler, type HandlerMap } from './types.js'
import { parseHttpUrl } from './validate.js'

/** `shell:open-external`: http/https URLs in the system browser, never file: or custom schemes. */
export function shellHandlers(): HandlerMap<'shell:open-external'> {
  return { 'shell:open-external': defineHandler<'shell:open-external'>(parseHttpUrl, ({ url }) => shell.openExternal(url)) }
}
