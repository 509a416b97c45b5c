// Team mode: admin sessions live in the shared database. A browser signed in on one replica is signed in on the
// other; signing out on one ends the session on both; the database holds no session secret in the clear.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { chatConfig, type TestGateway } from '../helpers/gateway.js'
import { freshDatabase } from '../helpers/pg-database.js'
import { newSecretKey, startReplica } from '../helpers/team.js'
import { browserSignIn, UNAUTHORIZED } from '../integration/admin/admin-helpers.js'

let a: TestGateway
let b: TestGateway
beforeAll(async () => {
  const databaseUrl = await freshDatabase()
  const secretKey = newSecretKey()
  ;[a, b] = await Promise.all([startReplica(databaseUrl, secretKey, chatConfig([])), startReplica(databaseUrl, secretKey, chatConfig([]))])
})
afterAll(async () => {
  await Promise.all([a?.stop(), b?.stop()])
})

const refused = async (res: Response) => {
  expect(res.status).toBe(401)
  expect(await res.json()).toEqual(UNAUTHORIZED)
}

describe('team mode: admin sessions', () => {
  it('signed in on one replica, the session works on the other (header token and media token); signed out on one, it ends on both', async () => {
    // The sign-in address replica b issued, opened on replica a (browserSignIn reads the media token from a).
    const session = await browserSignIn({ url: a.url, loginUrl: () => b.loginUrl() })
    expect(session.mediaToken).toMatch(/^[\w-]{43}$/)

    const onB = await fetch(`${b.url}/admin/v1/session`, { headers: session.headers })
    expect(onB.status).toBe(200)
    expect(((await onB.json()) as { mediaToken: string }).mediaToken).toBe(session.mediaToken)
    expect((await fetch(`${b.url}/admin/v1/groups`, { headers: session.headers })).status).toBe(200)
    // The media token proves the session on the other replica too (an unknown media id: 404, not 401).
    expect((await fetch(`${b.url}/admin/v1/media/none?media_token=${session.mediaToken}`, { headers: { cookie: session.cookie } })).status).toBe(404)
    // The cookie alone, or with a wrong token, opens nothing on either replica.
    for (const replica of [a, b]) {
      await refused(await fetch(`${replica.url}/admin/v1/groups`, { headers: { cookie: session.cookie } }))
      await refused(await fetch(`${replica.url}/admin/v1/groups`, { headers: { cookie: session.cookie, 'x-gatehouse-session': session.mediaToken } }))
    }

    // The database keeps hashes and the sealed media token: no cookie id or token in the clear.
    const rows = await a.services.store.sql.all<Record<string, unknown>>('SELECT * FROM admin_sessions')
    expect(rows).toHaveLength(1)
    const stored = JSON.stringify(rows)
    for (const secret of [session.cookie.split('=')[1], session.token, session.mediaToken]) expect(stored).not.toContain(secret)

    // Signed out on b: the session ends on a too.
    const out = await fetch(`${b.url}/admin/v1/session`, { method: 'DELETE', headers: session.headers })
    expect(out.status).toBe(204)
    for (const replica of [a, b]) {
      await refused(await fetch(`${replica.url}/admin/v1/session`, { headers: session.headers }))
      await refused(await fetch(`${replica.url}/admin/v1/media/none?media_token=${session.mediaToken}`, { headers: { cookie: session.cookie } }))
    }
    expect(await a.services.store.sql.all('SELECT * FROM admin_sessions')).toEqual([])
  })

  it('a session ends after its idle time on every replica', async () => {
    const databaseUrl = await freshDatabase()
    const secretKey = newSecretKey()
    const limits = { adminSessions: { idleMs: 400 } }
    const [c, d] = await Promise.all([startReplica(databaseUrl, secretKey, chatConfig([]), limits), startReplica(databaseUrl, secretKey, chatConfig([]), limits)])
    try {
      const session = await browserSignIn({ url: c.url, loginUrl: () => c.loginUrl() })
      // A use on d keeps it alive for c.
      await new Promise((resolve) => setTimeout(resolve, 250))
      expect((await fetch(`${d.url}/admin/v1/session`, { headers: session.headers })).status).toBe(200)
      await new Promise((resolve) => setTimeout(resolve, 250))
      expect((await fetch(`${c.url}/admin/v1/session`, { headers: session.headers })).status).toBe(200)
      await new Promise((resolve) => setTimeout(resolve, 500))
      await refused(await fetch(`${d.url}/admin/v1/session`, { headers: session.headers }))
      await refused(await fetch(`${c.url}/admin/v1/session`, { headers: session.headers }))
    } finally {
      await Promise.all([c.stop(), d.stop()])
    }
  })
})
