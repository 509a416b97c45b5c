import { describe, expect, it } from 'vitest'
import { chatConfig, withGateway } from '../../helpers/gateway.js'
import { adminClient, apiError } from './admin-helpers.js'

describe('admin API: groups, upstream accounts, keys, account', () => {
  const { gw } = withGateway({ config: () => chatConfig([{ id: 'up1', baseUrl: 'http://127.0.0.1:9' }]) })
  const admin = adminClient(gw)
  const models = (key: string) => fetch(`${gw.url}/v1/models`, { headers: { authorization: `Bearer ${key}` } })

  it('creates, changes and deletes a group, with the config file rules and exact errors', async () => {
    const created = await admin.post('/admin/v1/groups', { id: 'team', name: 'Team', protocol: 'chat', models: ['test-gpt'], upstreams: ['up1'] })
    expect(created.status).toBe(201)
    expect(created.json).toEqual({ id: 'team', name: 'Team', protocol: 'chat', models: ['test-gpt'], upstreams: ['up1'], images: {}, continuation: false, keyCount: 0 })

    const dup = await admin.post('/admin/v1/groups', { id: 'team', protocol: 'chat', models: [], upstreams: [] })
    expect(dup.status).toBe(409)
    expect(dup.json).toEqual(apiError('conflict', 'group "team" already exists'))

    const unknown = await admin.post('/admin/v1/groups', { id: 'x', protocol: 'chat', models: ['test-gpt', 'nope'], upstreams: [] })
    expect(unknown.status).toBe(400)
    expect(unknown.json).toEqual(apiError('invalid_request', 'models[1]: unknown model "nope"', 'models[1]'))
    expect((await admin.get('/admin/v1/groups')).json.map((g: { id: string }) => g.id)).not.toContain('x')

    const missing = await admin.post('/admin/v1/groups', { id: 'y', protocol: 'chat', models: [] })
    expect(missing.json).toEqual(apiError('invalid_request', 'missing upstreams field', 'upstreams'))

    const patched = await admin.patch('/admin/v1/groups/team', { name: 'Renamed', models: ['test-gpt', 'test-image'] })
    expect(patched.json).toMatchObject({ id: 'team', name: 'Renamed', protocol: 'chat', models: ['test-gpt', 'test-image'], upstreams: ['up1'] })
    const protocol = await admin.patch('/admin/v1/groups/team', { protocol: 'messages' })
    expect(protocol.status).toBe(400)
    expect(protocol.json.error.param).toBe('body')

    const key = await admin.post('/admin/v1/keys', { group: 'team', name: 'ci' })
    const inUse = await admin.del('/admin/v1/groups/team')
    expect(inUse.status).toBe(409)
    expect(inUse.json).toEqual(apiError('conflict', 'Group "team" still has 1 key(s); revoke them first'))
    await admin.del(`/admin/v1/keys/${key.json.id}`)
    await admin.post('/admin/v1/groups/team/app-key')
    expect((await admin.del('/admin/v1/groups/team')).status).toBe(204)
    expect((await admin.patch('/admin/v1/groups/team', { name: 'gone' })).json).toEqual(apiError('not_found', 'No group "team"', null, 'not_found_error'))
  })

  it('switches a group\'s continuation on and off, apart from its image limits', async () => {
    const created = await admin.post('/admin/v1/groups', { id: 'cont', protocol: 'chat', models: ['test-gpt'], upstreams: ['up1'], images: { singleImage: true }, continuation: true })
    expect(created.status).toBe(201)
    expect(created.json).toEqual({ id: 'cont', name: null, protocol: 'chat', models: ['test-gpt'], upstreams: ['up1'], images: { singleImage: true }, continuation: true, keyCount: 0 })
    expect(gw.services.registry.groups.get('cont')!.options).toEqual({ singleImage: true, continuation: true })
    // a patch of something else keeps it; a patch of the image limits keeps it apart from them
    expect((await admin.patch('/admin/v1/groups/cont', { name: 'Continued', images: { officialDirect: true } })).json)
      .toMatchObject({ name: 'Continued', images: { officialDirect: true }, continuation: true })
    const off = await admin.patch('/admin/v1/groups/cont', { continuation: false })
    expect(off.json).toMatchObject({ images: { officialDirect: true }, continuation: false })
    expect(gw.services.registry.groups.get('cont')!.options).toEqual({ officialDirect: true, continuation: false })
    const bad = await admin.patch('/admin/v1/groups/cont', { continuation: 'yes' })
    expect(bad.status).toBe(400)
    expect(bad.json).toEqual(apiError('invalid_request', 'continuation: must be boolean', 'continuation'))
    expect((await admin.del('/admin/v1/groups/cont')).status).toBe(204)
  })

  it('seals upstream secrets, never sends them back, keeps them when a change leaves them out', async () => {
    const secret = 'sk-vendor-secret-1234567890'
    const created = await admin.post('/admin/v1/upstreams', { id: 'acct', vendor: 'openai', baseUrl: 'https://api.example.com/v1', apiKey: secret, groups: ['main'] })
    expect(created.status).toBe(201)
    expect(created.text).not.toContain(secret)
    expect(created.json).toEqual({ id: 'acct', vendor: 'openai', baseUrl: 'https://api.example.com/v1', apiKeyHint: 'sk-ven…7890', models: null, priority: 0, groups: ['main'], budget: null, spent: 0, breaker: { state: 'closed', probing: false, trial: 'probe', transitions: [] } })
    const row = (await gw.services.store.sql.get<{ api_key_enc: string }>('SELECT api_key_enc FROM upstreams WHERE id = ?', ['acct']))!
    expect(row.api_key_enc).not.toContain(secret)
    expect((await admin.get('/admin/v1/upstreams')).text).not.toContain(secret)

    const patched = await admin.patch('/admin/v1/upstreams/acct', { priority: 5, models: ['test-gpt'] })
    expect(patched.json).toMatchObject({ priority: 5, apiKeyHint: 'sk-ven…7890', models: ['test-gpt'] })
    expect((await admin.patch('/admin/v1/upstreams/acct', { models: null })).json.models).toBeNull()
    expect(gw.services.registry.upstreams.get('acct')!.apiKey).toBe(secret)
    await admin.patch('/admin/v1/upstreams/acct', { apiKey: 'sk-rotated-000000000000' })
    expect(gw.services.registry.upstreams.get('acct')!.apiKey).toBe('sk-rotated-000000000000')

    const badGroup = await admin.post('/admin/v1/upstreams', { id: 'acct2', vendor: 'openai', baseUrl: 'https://x.example', apiKey: 'k', groups: ['nope'] })
    expect(badGroup.json).toEqual(apiError('invalid_request', 'groups[0]: unknown group "nope"', 'groups[0]'))
    expect((await admin.get('/admin/v1/upstreams')).json.map((u: { id: string }) => u.id)).not.toContain('acct2')
    const badUrl = await admin.post('/admin/v1/upstreams', { id: 'acct3', vendor: 'openai', baseUrl: 'ftp://x', apiKey: 'k' })
    expect(badUrl.json).toEqual(apiError('invalid_request', 'baseUrl: must match pattern "^https?://"', 'baseUrl'))

    expect((await admin.del('/admin/v1/upstreams/acct')).status).toBe(204)
    expect(gw.services.registry.groups.get('main')!.upstreams).toEqual(['up1'])
  })

  it('creates a key shown once, which works at once; disable, expiry, quota and revoke apply at once', async () => {
    const created = await admin.post('/admin/v1/keys', { group: 'main', name: 'laptop', concurrency: 2, quota: 1.5 })
    expect(created.status).toBe(201)
    expect(created.headers.get('cache-control')).toBe('no-store')
    const { key, ...summary } = created.json
    expect(key).toMatch(/^sk-gh-[\w-]{43}$/)
    expect(summary).toEqual({
      id: expect.stringMatching(/^key_/), hint: `${key.slice(0, 6)}…${key.slice(-4)}`, group: 'main', name: 'laptop', concurrency: 2,
      quota: 1.5, used: 0, reserved: 0, expiresAt: null, disabled: false, createdAt: expect.any(Number), app: false,
    })
    expect((await models(key)).status).toBe(200)
    const listed = await admin.get('/admin/v1/keys?group=main')
    expect(listed.text).not.toContain(key)
    expect(listed.json.find((k: { id: string }) => k.id === summary.id)).toEqual(summary)

    const disabled = await admin.patch(`/admin/v1/keys/${summary.id}`, { disabled: true, name: 'old laptop' })
    expect(disabled.json).toMatchObject({ disabled: true, name: 'old laptop' })
    expect((await (await models(key)).json()).error.code).toBe('invalid_api_key')
    await admin.patch(`/admin/v1/keys/${summary.id}`, { disabled: false, expiresAt: '2020-01-01T00:00:00Z' })
    expect((await (await models(key)).json()).error.code).toBe('api_key_expired')
    const cleared = await admin.patch(`/admin/v1/keys/${summary.id}`, { expiresAt: null, quota: null, concurrency: null })
    expect(cleared.json).toMatchObject({ expiresAt: null, quota: null, concurrency: null })
    expect((await models(key)).status).toBe(200)

    expect((await admin.patch(`/admin/v1/keys/${summary.id}`, {})).json).toEqual(apiError('invalid_request', 'body: must NOT have fewer than 1 properties', 'body'))
    expect((await admin.patch(`/admin/v1/keys/${summary.id}`, { concurrency: 0 })).json.error.param).toBe('concurrency')
    expect((await admin.post('/admin/v1/keys', { group: 'nope' })).json).toEqual(apiError('invalid_request', 'group: unknown group "nope"', 'group'))

    expect((await admin.del(`/admin/v1/keys/${summary.id}`)).status).toBe(204)
    expect((await models(key)).status).toBe(401)
    expect((await admin.del(`/admin/v1/keys/${summary.id}`)).json).toEqual(apiError('not_found', `No key "${summary.id}"`, null, 'not_found_error'))
  })

  it("keeps one app key per group, sealed, until it is revoked", async () => {
    const first = await admin.post('/admin/v1/groups/main/app-key')
    expect(first.status).toBe(201)
    const again = await admin.post('/admin/v1/groups/main/app-key')
    expect(again.status).toBe(200)
    expect(again.json.key).toBe(first.json.key)
    expect((await models(first.json.key)).status).toBe(200)
    const appKey = (await admin.get('/admin/v1/keys?group=main')).json.find((k: { app: boolean }) => k.app)
    expect(appKey).toMatchObject({ name: 'Gatehouse app', app: true })
    const sealed = (await gw.services.store.sql.get<{ app_secret_enc: string }>('SELECT app_secret_enc FROM api_keys WHERE id = ?', [appKey.id]))!
    expect(sealed.app_secret_enc).not.toContain(first.json.key)
    await admin.del(`/admin/v1/keys/${appKey.id}`)
    const minted = await admin.post('/admin/v1/groups/main/app-key')
    expect(minted.status).toBe(201)
    expect(minted.json.key).not.toBe(first.json.key)
  })

  it('reads and sets the account', async () => {
    expect((await admin.get('/admin/v1/account')).json).toEqual({ budget: 100, spent: 0, remaining: 100, balance: 100, reserved: 0, available: 100, concurrency: 5 })
    // `balance` is the older name of a numeric budget
    expect((await admin.patch('/admin/v1/account', { balance: 42.5, concurrency: 3 })).json).toEqual({ budget: 42.5, spent: 0, remaining: 42.5, balance: 42.5, reserved: 0, available: 42.5, concurrency: 3 })
    expect(gw.services.registry.account.concurrency).toBe(3)
    expect((await admin.patch('/admin/v1/account', { balance: 'lots' })).json).toEqual(apiError('invalid_request', 'balance: must be number', 'balance'))
  })
})
