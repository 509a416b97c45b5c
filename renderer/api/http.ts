/** An error answer from the gateway, in either protocol's shape, reduced to what the UI shows. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    /** the gateway's x-request-id of the answer, the key of its request-log row */
    readonly requestId: string | null = null,
  ) {
    super(message)
  }
}

/** Reads `{error:{code,message}}` (chat protocol) or `{type:'error',error:{type,message}}` (messages protocol). */
export async function toApiError(res: Response): Promise<ApiError> {
  const text = await res.text().catch(() => '')
  const requestId = res.headers.get('x-request-id')
  try {
    const body = JSON.parse(text) as { error?: { code?: string; type?: string; message?: string } }
    return new ApiError(res.status, body.error?.code ?? body.error?.type ?? String(res.status), body.error?.message ?? text, requestId)
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
