import { clipboard } from 'electron'
import { defineHandler, type HandlerMap } from './types.js'
import { parseText } from './validate.js'

/** `clipboard:write`: plain text only. */
export function clipboardHandlers(): HandlerMap<'clipboard:write'> {
  return { 'clipboard:write': defineHandler<'clipboard:write'>(parseText, ({ text }) => clipboard.writeText(text)) }
}
