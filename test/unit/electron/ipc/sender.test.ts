import type { WebContents } from 'electron'
import { describe, expect, it } from 'vitest'
import { isTrustedSender, type SenderEvent } from '../../../../electron/ipc/sender.js'

const ORIGIN = 'http://127.0.0.1:8787'

function fakeContents(url: string) {
  const mainFrame = { url }
  return { mainFrame } as unknown as WebContents
}
const eventFrom = (sender: WebContents, frame: unknown) => ({ sender, senderFrame: frame }) as unknown as SenderEvent

describe('isTrustedSender', () => {
  const ours = fakeContents(`${ORIGIN}/`)
  it("accepts our window's top frame on the gateway origin", () => {
    expect(isTrustedSender(eventFrom(ours, ours.mainFrame), ours, ORIGIN)).toBe(true)
  })
  it('refuses when no window is open', () => {
    expect(isTrustedSender(eventFrom(ours, ours.mainFrame), undefined, ORIGIN)).toBe(false)
  })
  it('refuses another webContents, even on the same origin', () => {
    const other = fakeContents(`${ORIGIN}/`)
    expect(isTrustedSender(eventFrom(other, other.mainFrame), ours, ORIGIN)).toBe(false)
  })
  it('refuses a subframe and a destroyed frame', () => {
    expect(isTrustedSender(eventFrom(ours, { url: `${ORIGIN}/` }), ours, ORIGIN)).toBe(false)
    expect(isTrustedSender(eventFrom(ours, null), ours, ORIGIN)).toBe(false)
  })
  it.each(['https://evil.example/', 'http://127.0.0.1:9999/', 'file:///index.html', 'about:blank'])('refuses our window once it shows %s', (url) => {
    const navigated = fakeContents(url)
    expect(isTrustedSender(eventFrom(navigated, navigated.mainFrame), navigated, ORIGIN)).toBe(false)
  })
})
