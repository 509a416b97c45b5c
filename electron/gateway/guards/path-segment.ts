/** A path segment, decoded; as sent when it is not valid percent-encoding (it then names nothing, so a 404 follows). */
export function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment)
  } catch {
    return segment
  }
}
