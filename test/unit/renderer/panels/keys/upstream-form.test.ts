import { describe, expect, it } from 'vitest'
import {
  accountModelsText, DEFAULT_BASE_URL, newUpstreamForm, upstreamCreateBody, upstreamFormOf, upstreamFormProblem, upstreamPatchBody, withVendor,
} from '../../../../../renderer/panels/keys/upstream-form'

/** An account's breaker as GET /admin/v1/upstreams shows a healthy one. */
const CLOSED = { state: 'closed' as const, probing: false, trial: 'probe' as const, transitions: [] }

describe('upstream account forms', () => {
  it('starts from the vendor\'s base URL and a free id', () => {
    expect(newUpstreamForm('openai', ['openai-1'])).toEqual({ id: 'openai-2', vendor: 'openai', baseUrl: 'https://api.openai.com/v1', apiKey: '', models: '', names: [], priority: '0', budget: '' })
    expect(DEFAULT_BASE_URL.gateway).toBe('')
  })

  it('follows a vendor change unless the id or URL was typed by hand', () => {
    const f = newUpstreamForm('openai', [])
    expect(withVendor(f, 'xai', [])).toMatchObject({ id: 'xai-1', baseUrl: 'https://api.x.ai/v1' })
    expect(withVendor({ ...f, id: 'mine', baseUrl: 'http://127.0.0.1:9000/v1' }, 'xai', [])).toMatchObject({ id: 'mine', baseUrl: 'http://127.0.0.1:9000/v1', vendor: 'xai' })
  })

  it.each([
    [{ id: '' }, 'create', 'id'],
    [{ baseUrl: 'api.openai.com' }, 'create', 'baseUrl'],
    [{ apiKey: '' }, 'create', 'apiKey'],
    [{ apiKey: '' }, 'edit', null],
    [{ vendor: 'kling', apiKey: 'only-one-part' }, 'create', 'klingKey'],
    [{ vendor: 'kling', apiKey: 'AK:SK' }, 'create', null],
    [{ priority: 'high' }, 'create', 'priority'],
    [{ names: [{ model: 'gpt-5.2', name: ' ' }] }, 'create', 'modelName'],
    [{ names: [{ model: '', name: 'my-deployment' }] }, 'create', 'modelName'],
    [{ names: [{ model: '', name: '' }] }, 'create', null],
  ] as const)('checks %o when %s → %s', (patch, mode, problem) => {
    const form = { ...newUpstreamForm('openai', []), apiKey: 'sk-x', ...patch, names: 'names' in patch ? [...patch.names] : [] }
    expect(upstreamFormProblem(form, mode)).toBe(problem)
  })

  it('creates the account in the group, with its models and priority', () => {
    const form = { ...newUpstreamForm('openai', []), apiKey: ' sk-secret ', models: 'gpt-5.2, gpt-5-mini  o3', priority: '2' }
    expect(upstreamCreateBody(form, 'g1')).toEqual({
      id: 'openai-1', vendor: 'openai', baseUrl: 'https://api.openai.com/v1', apiKey: 'sk-secret', models: ['gpt-5.2', 'gpt-5-mini', 'o3'], priority: 2, groups: ['g1'],
    })
    expect(upstreamCreateBody({ ...form, models: '', priority: '' }, null)).toEqual({ id: 'openai-1', vendor: 'openai', baseUrl: 'https://api.openai.com/v1', apiKey: 'sk-secret' })
  })

  it('edits without sending the secret when the field is left blank', () => {
    const u = { id: 'o', vendor: 'openai' as const, baseUrl: 'https://api.openai.com/v1', apiKeyHint: 'sk-ab…yz', models: ['gpt-5.2'], priority: 1, groups: ['g'], budget: null, spent: 0, breaker: CLOSED }
    const form = upstreamFormOf(u)
    expect(form.apiKey).toBe('')
    expect(upstreamPatchBody(form)).toEqual({ baseUrl: 'https://api.openai.com/v1', models: ['gpt-5.2'], priority: 1, budget: null })
    expect(upstreamPatchBody({ ...form, apiKey: 'sk-new' })).toMatchObject({ apiKey: 'sk-new' })
  })

  it('model names at the account: rows map listed or named ids; the form shows a map back as ids and rows', () => {
    const form = { ...newUpstreamForm('openai', []), apiKey: 'k', models: 'gpt-5.2, o3', names: [{ model: ' gpt-5.2 ', name: ' my-azure-deployment ' }, { model: 'gpt-5-mini', name: 'mini-deployment' }, { model: '', name: '' }] }
    expect(upstreamCreateBody(form, null)).toEqual({
      id: 'openai-1', vendor: 'openai', baseUrl: 'https://api.openai.com/v1', apiKey: 'k', priority: 0,
      models: { 'gpt-5.2': 'my-azure-deployment', o3: 'o3', 'gpt-5-mini': 'mini-deployment' },
    })
    const u = { id: 'o', vendor: 'openai' as const, baseUrl: 'https://x.example/v1', apiKeyHint: 'sk-ab…yz', models: { 'gpt-5.2': 'my-azure-deployment', o3: 'o3' }, priority: 0, groups: [], budget: null, spent: 0, breaker: CLOSED }
    const edit = upstreamFormOf(u)
    expect([edit.models, edit.names]).toEqual(['gpt-5.2, o3', [{ model: 'gpt-5.2', name: 'my-azure-deployment' }]])
    expect(upstreamPatchBody(edit)).toEqual({ baseUrl: 'https://x.example/v1', models: { 'gpt-5.2': 'my-azure-deployment', o3: 'o3' }, priority: 0, budget: null })
    // Without rows the list goes as ids again.
    expect(upstreamPatchBody({ ...edit, names: [] })).toMatchObject({ models: ['gpt-5.2', 'o3'] })
    expect(accountModelsText(u.models)).toBe('gpt-5.2 → my-azure-deployment, o3')
    expect([accountModelsText(['a', 'b']), accountModelsText(null)]).toEqual(['a, b', ''])
  })

  it('a budget: kept as shown, sent as a number, blank removes it, a negative or non-number is a problem', () => {
    const u = { id: 'o', vendor: 'openai' as const, baseUrl: 'https://api.openai.com/v1', apiKeyHint: 'sk-ab…yz', models: null, priority: 0, groups: [], budget: 25, spent: 3, breaker: CLOSED }
    const form = upstreamFormOf(u)
    expect(form.budget).toBe('25')
    expect(upstreamPatchBody(form)).toMatchObject({ budget: 25 })
    expect(upstreamPatchBody({ ...form, budget: ' ' })).toMatchObject({ budget: null })
    expect(upstreamCreateBody({ ...newUpstreamForm('openai', []), apiKey: 'k', budget: '10' }, null)).toMatchObject({ budget: 10 })
    expect(upstreamFormProblem({ ...form, budget: '-1' }, 'edit')).toBe('budget')
    expect(upstreamFormProblem({ ...form, budget: 'ten' }, 'edit')).toBe('budget')
    expect(upstreamFormProblem({ ...form, budget: '0' }, 'edit')).toBeNull()
  })
})
