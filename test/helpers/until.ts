/**
 * Polls `probe` every 50 ms until it answers something other than undefined (or false), and answers that; after
 * `ms` it fails naming `what`. Every wait of the team-mode tests is bounded this way.
 */
export async function until<T>(what: string, ms: number, probe: () => Promise<T | undefined | false> | T | undefined | false): Promise<T> {
  const deadline = Date.now() + ms
  for (;;) {
    const value = await probe()
    if (value !== undefined && value !== false) return value
    if (Date.now() > deadline) throw new Error(`not within ${ms} ms: ${what}`)
    await new Promise((r) => setTimeout(r, 50))
  }
}
