import { createParser } from 'eventsource-parser'
import type { SseEvent, StreamedAnswer } from '../../../../../renderer/panels/chat/chat-types'
import { emptyAnswer } from '../../../../../renderer/panels/chat/chat-types'

/** Splits recorded SSE text into events the way the panel's reader does. */
export function sseEvents(text: string): SseEvent[] {
  const events: SseEvent[] = []
  const parser = createParser({ onEvent: (e) => events.push({ event: e.event, data: e.data }) })
  parser.feed(text)
  return events
}

/** Folds recorded SSE text through a reducer. */
export function fold(text: string, reduce: (a: StreamedAnswer, ev: SseEvent) => StreamedAnswer): StreamedAnswer {
  return sseEvents(text).reduce(reduce, emptyAnswer())
}
