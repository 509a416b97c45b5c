// The admin API's model settings (fallbacks) and account model mapping, as the app's Keys & groups panel uses them.
import { describe, expect, it } from 'vitest'
import { formatMessage } from '../../../shared/messages.js'
import { startFakeOpenAI } from '../../fakes/openai.js'
import { TEST_KEY, withGateway } from '../../helpers/gateway.js'
import { adminClient, apiError } from './admin-helpers.js'

const token = (input: number, output: number) => ({ unit: 'token' as const, input, output })

describe('admin API: model fallbacks and account model names', () => {
  const { gw, fakes } = withGateway({
    fakes: { small: startFakeOpenAI, big: startFakeOpenAI },
    config: ({ small, big }) => ({
      account: { balance: 100 },
      models: [
        // Output limits, as every real model has: a request without max_tokens holds its model's as its worst case.
        { id: 'test-gpt', family: 'gpt', vendor: 'openai', pricing: token(2, 8), limits: { maxOutputTokens: 4096 } },
        { id: 'test-big', family: 'gpt', vendor: 'openai', pricing: token(6, 24), limits: { maxOutputTokens: 4096 } },
      ],
      upstreams: [
        { id: 'small', vendor: 'openai', baseUrl: small.url, apiKey: 'k', models: ['test-gpt'] },
        { id: 'big', vendor: 'openai', baseUrl: big.url, apiKey: 'k', models: ['test-big'] },
      ],
      groups: [{ id: 'main', protocol: 'chat', models: ['test-gpt', 'test-big'], upstreams: ['small', 'big'] }],
      keys: [{ key: TEST_KEY, group: 'main' }],
    }),
    resetFakes: true,
  })
  const admin = adminClient(gw)
  const chat = () => gw.post('/v1/chat/completions', { model: 'test-gpt', messages: [{ role: 'user', content: 'hi' }] })
  const problem = (field: string, text: string) => apiError('invalid_request', formatMessage('config_problem', 'en', { field, problem: text }), field)

  it('sets a model\'s fallbacks, which requests use at once', async () => {
    fakes.small.setScenario({ kind: 'status', status: 503 })
    expect((await chat()).status).toBe(503)
    const fallbacks = [{ model: 'test-big', on: ['unavailable'] }]
    const patched = await admin.patch('/admin/v1/model-settings/test-gpt', { fallbacks })
    expect([patched.status, patched.json]).toEqual([200, { model: 'test-gpt', fallbacks }])
    const listed = (await admin.get('/admin/v1/model-settings')).json as Array<{ model: string; fallbacks: unknown[] }>
    expect(listed.find((m) => m.model === 'test-gpt')).toEqual({ model: 'test-gpt', fallbacks })
    expect(listed.find((m) => m.model === 'test-big')).toEqual({ model: 'test-big', fallbacks: [] })
    // The rest of the model's entry is kept.
    expect(gw.services.registry.catalog.get('test-gpt')!.pricing).toEqual(token(2, 8))
    const res = await chat()
    expect(res.status).toBe(200)
    expect(((await res.json()) as { model: string }).model).toBe('test-big')
    const cleared = await admin.patch('/admin/v1/model-settings/test-gpt', { fallbacks: [] })
    expect([cleared.status, cleared.json]).toEqual([200, { model: 'test-gpt', fallbacks: [] }])
    expect((await chat()).status).toBe(503)
  })

  it('refuses a fallback that is unknown or the model itself, and an unknown model', async () => {
    const unknown = await admin.patch('/admin/v1/model-settings/test-gpt', { fallbacks: [{ model: 'nope', on: ['unavailable'] }] })
    expect([unknown.status, unknown.json]).toEqual([400, problem('fallbacks[0].model', 'unknown model "nope"')])
    const self = await admin.patch('/admin/v1/model-settings/test-gpt', { fallbacks: [{ model: 'test-gpt', on: ['context_length'] }] })
    expect([self.status, self.json]).toEqual([400, problem('fallbacks[0].model', '"test-gpt" cannot fall back to itself')])
    const missing = await admin.patch('/admin/v1/model-settings/no-such-model', { fallbacks: [] })
    expect([missing.status, missing.json.error.code, missing.json.error.message]).toEqual([404, 'not_found', formatMessage('admin_not_found', 'en', { what: 'model', id: 'no-such-model' })])
    expect(gw.services.registry.catalog.get('test-gpt')!.fallbacks ?? []).toEqual([])
  })

  it('an account\'s models map ids to its own names, shown and used as given', async () => {
    const created = await admin.post('/admin/v1/upstreams', { id: 'azure', vendor: 'openai', baseUrl: fakes.big.url, apiKey: 'k', models: { 'test-gpt': 'my-deployment' } })
    expect([created.status, created.json.models]).toEqual([201, { 'test-gpt': 'my-deployment' }])
    expect([...gw.services.registry.upstreams.get('azure')!.modelNames!]).toEqual([['test-gpt', 'my-deployment']])
    const patched = await admin.patch('/admin/v1/upstreams/azure', { models: { 'test-gpt': 'test-gpt', 'test-big': 'big-deployment' } })
    expect([patched.status, patched.json.models]).toEqual([200, { 'test-gpt': 'test-gpt', 'test-big': 'big-deployment' }])
    // A name equal to the id is no mapping.
    expect([...gw.services.registry.upstreams.get('azure')!.modelNames!]).toEqual([['test-big', 'big-deployment']])
    const bad = await admin.patch('/admin/v1/upstreams/azure', { models: { 'no-such-model': 'x' } })
    expect([bad.status, bad.json]).toEqual([400, problem('models.no-such-model', 'unknown model "no-such-model"')])
    expect((await admin.del('/admin/v1/upstreams/azure')).status).toBe(204)
  })
})
