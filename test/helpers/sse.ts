import { createParser, type EventSourceMessage } from 'eventsource-parser'

/** Reads a whole SSE response into its events. */
export async function readSse(res: Response): Promise<EventSourceMessage[]> {
  const events: EventSourceMessage[] = []
  const parser = createParser({ onEvent: (e) => events.push(e) })
  parser.feed(await res.text())
  return events
}

/** Every item of a stream an SDK reads (its chunks, its events), in order. */
export async function collect<T>(stream: AsyncIterable<T>): Promise<T[]> {
  const items: T[] = []
  for await (const item of stream) items.push(item)
  return items
}
