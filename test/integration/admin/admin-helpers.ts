import type { TestGateway } from '../../helpers/gateway.js'

/** Admin API calls as the desktop window makes them: the admin token as Bearer. */
export function adminClient(gw: TestGateway) {
  const call = async (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => {
    const res = await fetch(`${gw.url}${path}`, {
      method,
      headers: { authorization: `Bearer ${gw.adminToken}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
    })
    const text = await res.text()
    return { status: res.status, headers: res.headers, text, json: text ? (JSON.parse(text) as any) : undefined }
  }
  return {
    get: (path: string) => call('GET', path),
    post: (path: string, body?: unknown) => call('POST', path, body),
    patch: (path: string, body: unknown) => call('PATCH', path, body),
    put: (path: string, body: unknown) => call('PUT', path, body),
    del: (path: string) => call('DELETE', path),
  }
}

/** The chat protocol's error body. */
export const apiError = (code: string, message: string, param: string | null = null, type = 'invalid_request_error') => ({
  error: { code, message, param, type },
})
