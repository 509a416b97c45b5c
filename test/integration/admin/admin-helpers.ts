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

/** The answer of every admin route to a caller that is not signed in. */
export const UNAUTHORIZED = apiError(
  'admin_unauthorized',
  'Not signed in to the admin API: open a sign-in address (`npm run gateway -- --login` prints one), or use the desktop app.',
  null,
  'authentication_error',
)

/** What a browser holds after the one-time login address: the cookie, the fragment's session token, the media token. */
export interface BrowserSession {
  cookie: string
  token: string
  mediaToken: string
  /** the headers of an admin call from the page: the cookie and the session header */
  headers: { cookie: string; 'x-gatehouse-session': string }
}

/** Signs in as a browser does: follows the login address by hand, takes the token from the fragment, asks for the media token. */
export async function browserSignIn(gw: { url: string; loginUrl(): Promise<string> }): Promise<BrowserSession> {
  const res = await fetch(await gw.loginUrl(), { redirect: 'manual' })
  if (res.status !== 303) throw new Error(`login answered ${res.status}`)
  const cookie = res.headers.get('set-cookie')!.split(';')[0]
  const token = /^\/#session=([\w-]+)$/.exec(res.headers.get('location') ?? '')![1]
  const headers = { cookie, 'x-gatehouse-session': token }
  const session = (await (await fetch(`${gw.url}/admin/v1/session`, { headers })).json()) as { mediaToken: string }
  return { cookie, token, mediaToken: session.mediaToken, headers }
}
