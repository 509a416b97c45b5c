/** The settings form's checks. */

/** A TCP port typed in the form (a whole number 1–65535), or undefined. */
export function parsePort(text: string): number | undefined {
  if (!/^\d+$/.test(text.trim())) return undefined
  const port = Number(text)
  return port >= 1 && port <= 65535 ? port : undefined
}
