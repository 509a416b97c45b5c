import { UPSTREAM_REASONS, type UpstreamNote } from '../../shared/upstream-reasons'

/** An error answer from the gateway, in either protocol's shape, reduced to what the UI shows. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    /** the gateway's x-request-id of the answer, the key of its request-log row */
    readonly requestId: string | null = null,
    /** why the vendor failed (the chat-type body's `error.upstream`), when it did */
    readonly upstream: UpstreamNote | null = null,
  ) {
    super(message)
  }
}

/** `error.upstream` of a chat-type error body, when it is one the app knows. */
export function upstreamNoteOf(value: unknown): UpstreamNote | null {
  if (typeof value !== 'object' || value === null) return null
  const { reason, status, message } = value as Record<string, unknown>
  if (!(UPSTREAM_REASONS as readonly unknown[]).includes(reason)) return null
  return { reason: reason as UpstreamNote['reason'], status: typeof status === 'number' ? status : null, message: typeof message === 'string' ? message : null }
}

/** Reads `{error:{code,message,upstream?}}` (chat protocol) or `{type:'error',error:{type,message}}` (messages protocol). */
export async function toApiError(res: Response): Promise<ApiError> {
  const text = await res.text().catch(() => '')
  const requestId = res.headers.get('x-request-id')
  try {
    const body = JSON.parse(text) as { error?: { code?: string; type?: string; message?: string; upstream?: unknown } }
    return new ApiError(res.status, body.error?.code ?? body.error?.type ?? String(res.status), body.error?.message ?? text, requestId, upstreamNoteOf(body.error?.upstream))
  } catch {
    return new ApiError(res.status, String(res.status), text || res.statusText, requestId)
  }
}

/** fetch that throws ApiError for non-2xx answers. */
export async function request(input: string, init: RequestInit = {}): Promise<Response> {
  const res = await fetch(input, { credentials: 'same-origin', ...init })
  if (!res.ok) throw await toApiError(res)
  return res
}

/** The JSON body of an answer (undefined for 204). */
export const jsonOf = async <T>(res: Response): Promise<T> => (res.status === 204 ? undefined : await res.json()) as T

export async function requestJson<T>(input: string, init: RequestInit = {}): Promise<T> {
  return jsonOf<T>(await request(input, init))
}

/** JSON request options. */
export const jsonBody = (method: string, body: unknown): RequestInit => ({
  method,
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify(body),
})
