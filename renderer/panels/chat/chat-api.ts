import type { RequestLogEntry } from '../../../shared/admin'
import type { GroupProtocol } from '../../../shared/types'
import { admin } from '../../api/admin'
import { callGateway, readEvents } from '../../api/gateway'
import { ApiError } from '../../api/http'
import type { AnswerRequest } from './build-request'
import { emptyAnswer, type MessageError, type MessageState, type SseEvent, type StreamedAnswer } from './chat-types'
import { reduceChatEvent } from './stream-chat'
import { reduceMessagesEvent } from './stream-messages'

/** How an answer's stream ended. */
export interface AnswerOutcome {
  answer: StreamedAnswer
  state: Exclude<MessageState, 'streaming'>
  requestId: string | null
  /** the error answer before the stream (4xx/5xx), or the stream's own error event */
  error: MessageError | null
}

/** Client-side error codes; the panel shows its own text for them. */
export const STREAM_ENDED_EARLY = 'stream_ended_early'
export const NETWORK_ERROR = 'network_error'

const reducerFor = (protocol: GroupProtocol) => (protocol === 'messages' ? reduceMessagesEvent : reduceChatEvent)

function toMessageError(err: unknown): MessageError {
  if (err instanceof ApiError) return { status: err.status, code: err.code, message: err.message, upstream: err.upstream }
  return { status: null, code: NETWORK_ERROR, message: err instanceof Error ? err.message : String(err) }
}

/**
 * Sends the request and folds the stream into an answer, calling `onAnswer` after every event.
 * Aborting `signal` ends it as `stopped` with what arrived so far. Never throws.
 */
export async function streamAnswer(
  req: AnswerRequest & { group: string; protocol: GroupProtocol; language: string },
  signal: AbortSignal,
  onAnswer: (answer: StreamedAnswer) => void,
): Promise<AnswerOutcome> {
  const reduce = reducerFor(req.protocol)
  let answer = emptyAnswer()
  let requestId: string | null = null
  try {
    const res = await callGateway(req.group, req.path, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'accept-language': req.language, ...req.headers },
      body: JSON.stringify(req.body),
      signal,
    })
    requestId = res.headers.get('x-request-id')
    await readEvents(res, (ev: SseEvent) => {
      answer = reduce(answer, ev)
      onAnswer(answer)
    })
  } catch (err) {
    // An error answer carries its own request id (the log row names the account that failed).
    if (err instanceof ApiError && err.requestId) requestId = err.requestId
    if (signal.aborted) return { answer, state: 'stopped', requestId, error: null }
    return { answer, state: 'error', requestId, error: toMessageError(err) }
  }
  if (answer.error) return { answer, state: 'error', requestId, error: answer.error }
  // A body that ends without the protocol's end marker was cut off (spec §6 rule 1: partial output cannot resume).
  if (!answer.done) return { answer, state: 'error', requestId, error: { status: null, code: STREAM_ENDED_EARLY, message: '' } }
  return { answer, state: 'done', requestId, error: null }
}

/** Ledger rows are committed just after the answer ends, so the first reads may miss it. */
export const LEDGER_RETRY_MS = [0, 50, 100, 200, 400, 800]

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** The gateway's ledger row of one request (`GET /admin/v1/requests?id=`), or undefined when it never appears. */
export async function findLedgerRow(requestId: string, delays = LEDGER_RETRY_MS): Promise<RequestLogEntry | undefined> {
  for (const ms of delays) {
    if (ms > 0) await sleep(ms)
    const page = await admin.requests({ id: requestId })
    const row = page.data.find((r) => r.id === requestId)
    if (row) return row
  }
  return undefined
}
