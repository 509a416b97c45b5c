import type { IpcMainInvokeEvent, WebContents } from 'electron'

/** The parts of an invoke event the sender check reads. */
export type SenderEvent = Pick<IpcMainInvokeEvent, 'sender' | 'senderFrame'>

/**
 * Only our window's top frame, showing the gateway's own pages, may call the desktop API: a page that
 * navigated elsewhere or an embedded frame must not get the admin token (Electron security checklist #17).
 */
export function isTrustedSender(event: SenderEvent, ours: WebContents | undefined, origin: string): boolean {
  const frame = event.senderFrame
  if (!ours || event.sender !== ours || !frame || frame !== ours.mainFrame) return false
  try {
    return new URL(frame.url).origin === origin
  } catch {
    return false
  }
}
