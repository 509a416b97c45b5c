import { createParser, type EventSourceMessage } from 'eventsource-parser'

/** Reads a whole SSE response into its events. */
export async function readSse(res: Response): Promise<EventSourceMessage[]> {
  const events: EventSourceMessage[] = []
  const parser = createParser({ onEvent: (e) => events.push(e) })
  parser.feed(await res.text())
  return events
}
