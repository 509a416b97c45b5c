// Client-side count of 2xx answers per origin, over every phase, for comparing with the rows Gatehouse's ledger wrote.
const counts = new Map<string, number>()

export function noteAnswers(url: string, n = 1): void {
  const origin = new URL(url).origin
  counts.set(origin, (counts.get(origin) ?? 0) + n)
}

export function answeredAt(origin: string): number {
  return counts.get(new URL(origin).origin) ?? 0
}
