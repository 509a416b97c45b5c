import { createParser, type EventSourceMessage } from 'eventsource-parser'
import { admin } from './admin'
import { request, requestJson, toApiError } from './http'

// The app calls the gateway like any SDK would: with a gateway key of the group, fetched once per group.
const appKeys = new Map<string, Promise<string>>()

function appKey(group: string): Promise<string> {
  let key = appKeys.get(group)
  if (!key) {
    key = admin.appKey(group).then((r) => r.key)
    key.catch(() => appKeys.delete(group))
    appKeys.set(group, key)
  }
  return key
}

/** Forgets cached app keys (after the keys of a group changed). */
export const forgetAppKeys = () => appKeys.clear()

/** A call to the public API (`/v1/...`) as the app's key of `group`; throws ApiError on error answers. */
export async function callGateway(group: string, path: string, init: RequestInit = {}): Promise<Response> {
  const headers = new Headers(init.headers)
  headers.set('authorization', `Bearer ${await appKey(group)}`)
  return request(path, { ...init, headers })
}

/**
 * A multipart upload to the public API that reports how much of the body has gone (XMLHttpRequest: fetch
 * reports no upload progress for a FormData body in Chromium). The answer comes back as a Response, read in
 * full; throws ApiError on error answers like callGateway.
 */
export async function uploadToGateway(group: string, path: string, headers: Record<string, string>, body: FormData | string, onUpload: (fraction: number) => void): Promise<Response> {
  const key = await appKey(group)
  const res = await new Promise<Response>((resolve, reject) => {
    const xhr = new XMLHttpRequest()
    xhr.open('POST', path)
    xhr.responseType = 'blob'
    xhr.setRequestHeader('authorization', `Bearer ${key}`)
    for (const [name, value] of Object.entries(headers)) xhr.setRequestHeader(name, value)
    xhr.upload.onprogress = (e) => e.lengthComputable && onUpload(e.loaded / e.total)
    xhr.onload = () => resolve(new Response(xhr.status === 204 ? null : (xhr.response as Blob), { status: xhr.status, headers: responseHeaders(xhr) }))
    // Like fetch: a network failure is a TypeError.
    xhr.onerror = () => reject(new TypeError('Failed to fetch'))
    xhr.send(body)
  })
  if (!res.ok) throw await toApiError(res)
  return res
}

function responseHeaders(xhr: XMLHttpRequest): Headers {
  const headers = new Headers()
  for (const line of xhr.getAllResponseHeaders().trim().split(/\r?\n/)) {
    const colon = line.indexOf(':')
    if (colon > 0) headers.append(line.slice(0, colon).trim(), line.slice(colon + 1).trim())
  }
  return headers
}

/** The same, as JSON. */
export async function callGatewayJson<T>(group: string, path: string, init: RequestInit = {}): Promise<T> {
  const res = await callGateway(group, path, init)
  return (await res.json()) as T
}

export interface ModelEntry {
  id: string
  type: 'chat' | 'image' | 'video' | 'speech' | 'interactions'
  family: string
  owned_by: string
}

/** GET /v1/models: the models this group can call. */
export const listModels = (group: string) => callGatewayJson<{ data: ModelEntry[] }>(group, '/v1/models').then((r) => r.data)

/** GET /spec/models/index.json: each model's request-body schema (public). */
export const modelSpecs = () => requestJson<Record<string, unknown>>('/spec/models/index.json')

/**
 * Reads a server-sent-event stream, calling `onEvent` for each event as it arrives; resolves at the end
 * of the body. Aborting the request's signal ends it early.
 */
export async function readEvents(res: Response, onEvent: (event: EventSourceMessage) => void): Promise<void> {
  const parser = createParser({ onEvent })
  const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader()
  for (;;) {
    const { done, value } = await reader.read()
    if (done) return
    parser.feed(value)
  }
}
