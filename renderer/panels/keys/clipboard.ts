/** Puts text on the clipboard: through the desktop app's bridge when present, else the browser's clipboard. */
export async function copyText(text: string): Promise<void> {
  if (window.api) return window.api.writeClipboard(text)
  await navigator.clipboard.writeText(text)
}
