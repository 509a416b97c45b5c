import { describe, expect, it } from 'vitest'
import { chatConfig, TEST_KEY, withGateway } from '../../helpers/gateway.js'
import { UNAUTHORIZED } from './admin-helpers.js'

describe('admin API sign-in', () => {
  const { gw } = withGateway({ config: () => chatConfig([]) })

  it('refuses calls without a session, and gateway keys are not admin credentials', async () => {
    const attempts: Array<Record<string, string>> = [{}, { authorization: `Bearer ${TEST_KEY}` }, { authorization: 'Bearer wrong' }, { cookie: 'gatehouse_admin=forged' }]
    for (const headers of attempts) {
      const res = await fetch(`${gw.url}/admin/v1/groups`, { headers })
      expect(res.status).toBe(401)
      expect(await res.json()).toEqual(UNAUTHORIZED)
    }
  })

  it('a one-time login address sets an HttpOnly SameSite=Strict cookie once and hands the session token in the fragment, then refuses', async () => {
    const url = await gw.loginUrl()
    const first = await fetch(url, { redirect: 'manual' })
    expect(first.status).toBe(303)
    const token = /^\/#session=([\w-]{40,})$/.exec(first.headers.get('location')!)![1]
    const cookie = first.headers.get('set-cookie')!
    expect(cookie).toMatch(/^gatehouse_admin=[\w-]{40,}; Path=\/; HttpOnly; SameSite=Strict$/)
    expect(cookie).not.toContain(token)
    const session = await fetch(`${gw.url}/admin/v1/session`, { headers: { cookie: cookie.split(';')[0], 'x-gatehouse-session': token } })
    expect(session.status).toBe(200)
    expect(await session.json()).toEqual({
      mode: 'headless', version: expect.stringMatching(/^\d+\.\d+\.\d+/), baseUrl: gw.url, dataDir: expect.any(String), mediaToken: expect.stringMatching(/^[\w-]{40,}$/),
    })

    const again = await fetch(url, { redirect: 'manual' })
    expect(again.status).toBe(401)
    expect(again.headers.get('set-cookie')).toBeNull()
    expect(await again.text()).toContain('already used or is not valid')
    expect((await fetch(`${gw.url}/admin/login?code=made-up`, { redirect: 'manual' })).status).toBe(401)
  })

  it('the desktop window trades the admin token for the cookie and the session token', async () => {
    const res = await fetch(`${gw.url}/admin/v1/session`, { method: 'POST', headers: { authorization: `Bearer ${gw.adminToken}` } })
    expect(res.status).toBe(200)
    const body = (await res.json()) as { sessionToken: string; mediaToken: string }
    expect(body).toEqual({
      mode: 'headless', version: expect.any(String), baseUrl: gw.url, dataDir: expect.any(String),
      sessionToken: expect.stringMatching(/^[\w-]{40,}$/), mediaToken: expect.stringMatching(/^[\w-]{40,}$/),
    })
    const cookie = res.headers.get('set-cookie')!.split(';')[0]
    expect((await fetch(`${gw.url}/admin/v1/groups`, { headers: { cookie, 'x-gatehouse-session': body.sessionToken } })).status).toBe(200)
    const refused = await fetch(`${gw.url}/admin/v1/session`, { method: 'POST', headers: { cookie, 'x-gatehouse-session': body.sessionToken } })
    expect(refused.status).toBe(401)
    // The admin token alone stays enough for the desktop window's own calls (no session: no media token).
    const bearer = await fetch(`${gw.url}/admin/v1/session`, { headers: { authorization: `Bearer ${gw.adminToken}` } })
    expect(bearer.status).toBe(200)
    expect(((await bearer.json()) as { mediaToken: unknown }).mediaToken).toBeNull()
  })

  it('refuses other browser origins and rebinding hosts before anything else', async () => {
    const headers = { authorization: `Bearer ${gw.adminToken}` }
    const origin = await fetch(`${gw.url}/admin/v1/groups`, { headers: { ...headers, origin: 'http://evil.example' } })
    expect(origin.status).toBe(403)
    expect((await origin.json()).error.code).toBe('origin_not_allowed')
    expect(origin.headers.get('access-control-allow-origin')).toBeNull()
    const { request } = await import('undici')
    const host = await request(`${gw.url}/admin/v1/groups`, { headers: { ...headers, host: 'evil.example' } })
    expect(host.statusCode).toBe(403)
    expect(((await host.body.json()) as { error: { code: string } }).error.code).toBe('host_not_allowed')
    const same = await fetch(`${gw.url}/admin/v1/groups`, { headers: { ...headers, origin: gw.url } })
    expect(same.status).toBe(200)
  })

  it('is described in /openapi.json with its statuses and path parameters', async () => {
    const doc = (await (await fetch(`${gw.url}/openapi.json`)).json()) as { paths: Record<string, Record<string, any>> }
    const create = doc.paths['/admin/v1/keys'].post
    expect(Object.keys(create.responses)).toEqual(['201', '400', '401', '403', '404', '408', '409', '413', '500', '503'])
    expect(create.requestBody.content['application/json'].schema.required).toEqual(['group'])
    expect(doc.paths['/admin/v1/keys/{key}'].delete.parameters).toEqual([{ name: 'key', in: 'path', required: true, schema: { type: 'string' } }])
    expect(Object.keys(doc.paths['/admin/v1/keys/{key}'].delete.responses)[0]).toBe('204')
    expect(doc.paths['/v1/models/{model}'].get.parameters[0]).toMatchObject({ name: 'model', in: 'path', required: true })
    expect(Object.keys(doc.paths['/admin/v1/session'])).toEqual(['get', 'post', 'delete'])
    expect(Object.keys(doc.paths['/admin/v1/session'].delete.responses)).toEqual(['204', '400', '401', '403', '404', '409', '500'])
    expect(doc.paths['/admin/v1/session'].post.responses['200'].content['application/json'].schema.required).toContain('sessionToken')
    expect(doc.paths['/admin/v1/media/{media}'].get.parameters).toContainEqual(expect.objectContaining({ name: 'media_token', in: 'query', required: false }))
  })
})
