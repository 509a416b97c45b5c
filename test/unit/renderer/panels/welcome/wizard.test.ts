import { describe, expect, it } from 'vitest'
import type { GroupSummary, UpstreamTestResult } from '../../../../../shared/admin'
import {
  canGoOn, canTest, defaultAssignment, initialWizard, parseBudget, savePlan, wizardReducer, type WizardAction, type WizardState,
} from '../../../../../renderer/panels/welcome/wizard'

const group = (id: string, protocol: 'chat' | 'messages', models: string[] = [], upstreams: string[] = []): GroupSummary =>
  ({ id, name: null, protocol, models, upstreams, images: {}, continuation: false, keyCount: 0 })
const GROUPS = [group('default', 'chat', ['gpt-6.1-sol']), group('claude', 'messages'), group('team', 'chat')]
const OK: UpstreamTestResult = { ok: true, listed: true, models: ['gpt-6.1-sol', 'gpt-5.4-mini', 'x'], callable: ['gpt-6.1-sol', 'gpt-5.4-mini'] }
const REFUSED: UpstreamTestResult = { ok: false, status: 401, reason: 'unauthorized', message: 'm', detail: null }

const run = (...actions: WizardAction[]): WizardState => actions.reduce(wizardReducer, initialWizard)
const tested = (result: UpstreamTestResult = OK) => run(
  { type: 'vendor', vendor: 'openai' }, { type: 'next' }, { type: 'apiKey', value: 'sk-1' },
  { type: 'testStarted' }, { type: 'testDone', result, groups: GROUPS },
)

describe('the guided start reducer', () => {
  it('starts at the vendor step and cannot go on before a vendor is picked', () => {
    expect(initialWizard.step).toBe('vendor')
    expect(canGoOn(initialWizard)).toBe(false)
    expect(wizardReducer(initialWizard, { type: 'next' })).toBe(initialWizard)
  })

  it('picking a vendor fills in its base URL (from the keys panel\'s vendor list)', () => {
    expect(run({ type: 'vendor', vendor: 'anthropic' })).toMatchObject({ vendor: 'anthropic', baseUrl: 'https://api.anthropic.com' })
    expect(run({ type: 'vendor', vendor: 'openai' }, { type: 'next' })).toMatchObject({ step: 'key', baseUrl: 'https://api.openai.com/v1' })
  })

  it('tests need a base URL and a key, and one test at a time', () => {
    const atKey = run({ type: 'vendor', vendor: 'openai' }, { type: 'next' })
    expect(canTest(atKey)).toBe(false)
    const withKey = wizardReducer(atKey, { type: 'apiKey', value: 'sk-1' })
    expect(canTest(withKey)).toBe(true)
    expect(canTest(wizardReducer(withKey, { type: 'baseUrl', value: 'api.openai.com' }))).toBe(false)
    expect(canTest(wizardReducer(withKey, { type: 'testStarted' }))).toBe(false)
  })

  it('the key step goes on only after a test found callable models', () => {
    expect(canGoOn(tested())).toBe(true)
    expect(canGoOn(tested(REFUSED))).toBe(false)
    expect(canGoOn(tested({ ...OK, callable: [] }))).toBe(false)
  })

  it('a successful test gives every group of the vendor\'s protocol every callable model', () => {
    expect(tested().assign).toEqual({ default: ['gpt-6.1-sol', 'gpt-5.4-mini'], team: ['gpt-6.1-sol', 'gpt-5.4-mini'] })
    expect(defaultAssignment(GROUPS, 'anthropic', ['claude-sonnet-5-5'])).toEqual({ claude: ['claude-sonnet-5-5'] })
  })

  it('changing the key, base URL or vendor drops the test and the choices made from it', () => {
    for (const change of [{ type: 'apiKey', value: 'sk-2' }, { type: 'baseUrl', value: 'http://x/v1' }, { type: 'vendor', vendor: 'xai' }] as WizardAction[]) {
      expect(wizardReducer(tested(), change)).toMatchObject({ test: { state: 'idle' }, assign: {} })
    }
  })

  it('toggles a model of a group, keeping the tested order; a group with no model left is not saved', () => {
    const s1 = wizardReducer(tested(), { type: 'toggle', group: 'team', model: 'gpt-6.1-sol' })
    expect(s1.assign.team).toEqual(['gpt-5.4-mini'])
    const s2 = wizardReducer(s1, { type: 'toggle', group: 'team', model: 'gpt-6.1-sol' })
    expect(s2.assign.team).toEqual(['gpt-6.1-sol', 'gpt-5.4-mini'])
    const none = [
      { type: 'toggle', group: 'team', model: 'gpt-6.1-sol' }, { type: 'toggle', group: 'team', model: 'gpt-5.4-mini' },
      { type: 'toggle', group: 'default', model: 'gpt-6.1-sol' }, { type: 'toggle', group: 'default', model: 'gpt-5.4-mini' },
    ] as WizardAction[]
    const atGroups = wizardReducer(tested(), { type: 'next' })
    const emptied = none.reduce(wizardReducer, atGroups)
    expect(canGoOn(emptied)).toBe(false)
    const one = wizardReducer(emptied, { type: 'toggle', group: 'team', model: 'gpt-5.4-mini' })
    expect(canGoOn(one)).toBe(true)
    expect(savePlan(one, GROUPS, []).upstream.groups).toEqual(['team'])
  })

  it('budget: blank is no budget, a number of 0 or more is one, anything else stops the step', () => {
    expect(parseBudget('')).toBeNull()
    expect(parseBudget(' 20.5 ')).toBe(20.5)
    expect(parseBudget('0')).toBe(0)
    expect(parseBudget('-1')).toBeUndefined()
    expect(parseBudget('lots')).toBeUndefined()
    const atBudget = run({ type: 'vendor', vendor: 'openai' }, { type: 'next' }, { type: 'apiKey', value: 'sk-1' }, { type: 'testDone', result: OK, groups: GROUPS }, { type: 'next' }, { type: 'next' })
    expect(atBudget.step).toBe('budget')
    expect(canGoOn(wizardReducer(atBudget, { type: 'budget', value: '-3' }))).toBe(false)
    expect(canGoOn(wizardReducer(atBudget, { type: 'budget', value: '5' }))).toBe(true)
  })

  it('back goes one step back, never before the first, and not from the first message (the account is saved then)', () => {
    expect(wizardReducer(tested(), { type: 'back' }).step).toBe('vendor')
    expect(wizardReducer(initialWizard, { type: 'back' }).step).toBe('vendor')
    const first = { ...tested(), step: 'first' as const }
    expect(wizardReducer(first, { type: 'back' })).toBe(first)
  })
})

describe('savePlan', () => {
  it('a free account id, the chosen groups, only the models a group did not have, and the budget', () => {
    const s = { ...tested(), budget: '12' }
    expect(savePlan(s, GROUPS, ['openai-1'])).toEqual({
      newGroup: null,
      upstream: { id: 'openai-2', vendor: 'openai', baseUrl: 'https://api.openai.com/v1', apiKey: 'sk-1', groups: ['default', 'team'] },
      groupModels: [{ id: 'default', models: ['gpt-6.1-sol', 'gpt-5.4-mini'] }, { id: 'team', models: ['gpt-6.1-sol', 'gpt-5.4-mini'] }],
      budget: 12,
    })
  })

  it('no budget typed leaves the budget alone', () => {
    expect(savePlan(tested(), GROUPS, []).budget).toBeUndefined()
  })

  it('without a group of the vendor\'s protocol, one is made with the tested models', () => {
    const claude: UpstreamTestResult = { ok: true, listed: true, models: ['claude-sonnet-5-5'], callable: ['claude-sonnet-5-5'] }
    const s = run({ type: 'vendor', vendor: 'anthropic' }, { type: 'next' }, { type: 'apiKey', value: 'k' }, { type: 'testDone', result: claude, groups: [group('default', 'chat'), group('anthropic', 'chat')] })
    expect(s.assign).toEqual({})
    expect(canGoOn(wizardReducer(s, { type: 'next' }))).toBe(true)
    expect(savePlan(s, [group('default', 'chat'), group('anthropic', 'chat')], [])).toMatchObject({
      newGroup: { id: 'anthropic-2', name: 'anthropic-2', protocol: 'messages', models: ['claude-sonnet-5-5'], upstreams: [] },
      upstream: { id: 'anthropic-1', groups: ['anthropic-2'] },
      groupModels: [],
    })
  })
})
