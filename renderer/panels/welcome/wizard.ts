/**
 * The guided start's steps as a pure reducer: pick a vendor (base URL prefilled), paste its key and test the
 * connection, choose which groups get which of the account's models, an optional budget, then a first message.
 * What to save is `savePlan`, a list of admin calls' bodies; the component runs them.
 */
import type { GroupSummary, UpstreamTestResult } from '../../../shared/admin'
import { VENDORS, type GroupProtocol, type Vendor } from '../../../shared/types'
import { DEFAULT_BASE_URL, newUpstreamForm } from '../keys/upstream-form'

export const STEPS = ['vendor', 'key', 'groups', 'budget', 'first'] as const
export type Step = (typeof STEPS)[number]

/** The vendors offered, in the catalog's order. */
export const WIZARD_VENDORS: readonly Vendor[] = VENDORS

export type TestState = { state: 'idle' } | { state: 'testing' } | { state: 'done'; result: UpstreamTestResult }

export interface WizardState {
  step: Step
  vendor: Vendor | null
  baseUrl: string
  apiKey: string
  test: TestState
  /** group id → the account's models it gets */
  assign: Record<string, string[]>
  /** USD; blank: no budget */
  budget: string
}

export type WizardAction =
  | { type: 'vendor'; vendor: Vendor }
  | { type: 'baseUrl'; value: string }
  | { type: 'apiKey'; value: string }
  | { type: 'testStarted' }
  | { type: 'testDone'; result: UpstreamTestResult; groups: GroupSummary[] }
  | { type: 'toggle'; group: string; model: string }
  | { type: 'budget'; value: string }
  | { type: 'next' }
  | { type: 'back' }

export const initialWizard: WizardState = { step: 'vendor', vendor: null, baseUrl: '', apiKey: '', test: { state: 'idle' }, assign: {}, budget: '' }

/** The protocol of the groups a vendor's models go to: Claude speaks the messages protocol, every other vendor chat. */
export const protocolFor = (vendor: Vendor): GroupProtocol => (vendor === 'anthropic' ? 'messages' : 'chat')

/** The models the test found callable, or none before a successful test. */
export const testedModels = (test: TestState): string[] => (test.state === 'done' && test.result.ok ? test.result.callable : [])

/** Every group of the vendor's protocol gets every callable model, until the user says otherwise. */
export function defaultAssignment(groups: GroupSummary[], vendor: Vendor, models: string[]): Record<string, string[]> {
  const protocol = protocolFor(vendor)
  return Object.fromEntries(groups.filter((g) => g.protocol === protocol).map((g) => [g.id, [...models]]))
}

/** The budget field: undefined when it is not a valid amount (blank is valid: no budget). */
export function parseBudget(text: string): number | null | undefined {
  if (text.trim() === '') return null
  const n = Number(text)
  return Number.isFinite(n) && n >= 0 ? n : undefined
}

/** Whether the step's answers let the user go on. */
export function canGoOn(s: WizardState): boolean {
  switch (s.step) {
    case 'vendor': return s.vendor !== null
    case 'key': return testedModels(s.test).length > 0
    case 'groups': return Object.values(s.assign).some((models) => models.length > 0) || Object.keys(s.assign).length === 0
    case 'budget': return parseBudget(s.budget) !== undefined
    case 'first': return false
  }
}

/** Whether the account can be tested: a base URL and a key. */
export const canTest = (s: WizardState): boolean => s.test.state !== 'testing' && /^https?:\/\/\S+$/.test(s.baseUrl.trim()) && s.apiKey.trim() !== ''

const move = (s: WizardState, by: 1 | -1): WizardState => ({ ...s, step: STEPS[Math.min(STEPS.length - 1, Math.max(0, STEPS.indexOf(s.step) + by))] })

export function wizardReducer(s: WizardState, a: WizardAction): WizardState {
  switch (a.type) {
    case 'vendor':
      // another vendor: its base URL, and whatever was tested no longer holds
      return { ...s, vendor: a.vendor, baseUrl: DEFAULT_BASE_URL[a.vendor], test: { state: 'idle' }, assign: {} }
    case 'baseUrl':
      return { ...s, baseUrl: a.value, test: { state: 'idle' }, assign: {} }
    case 'apiKey':
      return { ...s, apiKey: a.value, test: { state: 'idle' }, assign: {} }
    case 'testStarted':
      return { ...s, test: { state: 'testing' } }
    case 'testDone':
      return { ...s, test: { state: 'done', result: a.result }, assign: a.result.ok && s.vendor ? defaultAssignment(a.groups, s.vendor, a.result.callable) : {} }
    case 'toggle': {
      const current = s.assign[a.group] ?? []
      const models = current.includes(a.model) ? current.filter((m) => m !== a.model) : [...current, a.model]
      // keep the tested list's order
      const order = testedModels(s.test)
      return { ...s, assign: { ...s.assign, [a.group]: order.filter((m) => models.includes(m)) } }
    }
    case 'budget':
      return { ...s, budget: a.value }
    case 'next':
      return canGoOn(s) ? move(s, 1) : s
    case 'back':
      return s.step === 'first' ? s : move(s, -1)
  }
}

/** What saving the guided start does, as admin request bodies, in order. */
export interface SavePlan {
  /** a group made for the account when none of its protocol exists */
  newGroup: { id: string; name: string; protocol: GroupProtocol; models: string[]; upstreams: string[] } | null
  upstream: { id: string; vendor: Vendor; baseUrl: string; apiKey: string; groups: string[] }
  /** groups whose model lists grow (the models they had, then the new ones) */
  groupModels: Array<{ id: string; models: string[] }>
  /** undefined: leave the budget as it is */
  budget: number | undefined
}

export function savePlan(s: WizardState, groups: GroupSummary[], upstreamIds: string[]): SavePlan {
  const vendor = s.vendor!
  const upstreamId = newUpstreamForm(vendor, upstreamIds).id
  const chosen = Object.entries(s.assign).filter(([, models]) => models.length > 0)
  const fitting = groups.some((g) => g.protocol === protocolFor(vendor))
  let newGroup: SavePlan['newGroup'] = null
  if (!fitting) {
    let id: string = vendor
    for (let n = 2; groups.some((g) => g.id === id); n++) id = `${vendor}-${n}`
    newGroup = { id, name: id, protocol: protocolFor(vendor), models: testedModels(s.test), upstreams: [] }
  }
  const groupModels = chosen.flatMap(([id, models]) => {
    const had = groups.find((g) => g.id === id)?.models ?? []
    const added = models.filter((m) => !had.includes(m))
    return added.length > 0 ? [{ id, models: [...had, ...added] }] : []
  })
  const budget = parseBudget(s.budget)
  return {
    newGroup,
    upstream: { id: upstreamId, vendor, baseUrl: s.baseUrl.trim(), apiKey: s.apiKey.trim(), groups: newGroup ? [newGroup.id] : chosen.map(([id]) => id) },
    groupModels,
    budget: budget === null || budget === undefined ? undefined : budget,
  }
}
