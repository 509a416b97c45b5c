import { useEffect, useReducer, useRef, useState } from 'react'
import { admin } from '../../api/admin'
import { listModels } from '../../api/gateway'
import { ErrorNote } from '../../components/ErrorNote'
import { groupName, useT } from '../../i18n'
import { useAppStore } from '../../stores/app-store'
import { useAction } from '../keys/use-action'
import { STRINGS } from './strings'
import { TestResult } from './TestResult'
import { canGoOn, canTest, initialWizard, parseBudget, savePlan, STEPS, testedModels, WIZARD_VENDORS, wizardReducer, type SavePlan, type WizardState } from './wizard'
import './welcome.css'

type T = ReturnType<typeof useT<keyof (typeof STRINGS)['en']>>
type Dispatch = React.Dispatch<Parameters<typeof wizardReducer>[1]>

/** The guided start: an upstream account from vendor to first answer (wizard.ts holds the steps). */
export function WelcomePanel() {
  const t = useT(STRINGS)
  const [state, dispatch] = useReducer(wizardReducer, initialWizard)
  const [savedGroups, setSavedGroups] = useState<string[]>([])
  const setPanel = useAppStore((s) => s.setPanel)
  return (
    <section className="panel welcome" data-testid="panel-welcome">
      <h2>{t('title')}</h2>
      <p className="muted">{t('intro')}</p>
      <ol className="welcome-steps row" data-testid="welcome-steps">
        {STEPS.map((step) => (
          <li key={step} className={step === state.step ? 'current' : undefined} aria-current={step === state.step ? 'step' : undefined}>{t(`step_${step}`)}</li>
        ))}
      </ol>
      <div className="card welcome-step" data-testid={`welcome-step-${state.step}`}>
        {state.step === 'vendor' && <VendorStep state={state} dispatch={dispatch} t={t} />}
        {state.step === 'key' && <KeyStep state={state} dispatch={dispatch} t={t} />}
        {state.step === 'groups' && <GroupsStep state={state} dispatch={dispatch} t={t} />}
        {state.step === 'budget' && <BudgetStep state={state} dispatch={dispatch} t={t} onSaved={setSavedGroups} />}
        {state.step === 'first' && <FirstStep groups={savedGroups} t={t} />}
      </div>
      <div className="row">
        {state.step !== 'vendor' && state.step !== 'first' && (
          <button type="button" onClick={() => dispatch({ type: 'back' })} data-testid="welcome-back">{t('back')}</button>
        )}
        {state.step !== 'budget' && state.step !== 'first' && (
          <button type="button" className="primary" disabled={!canGoOn(state)} onClick={() => dispatch({ type: 'next' })} data-testid="welcome-next">{t('next')}</button>
        )}
        <span className="welcome-spacer" />
        <button type="button" className="link" onClick={() => setPanel('keys')} data-testid="welcome-skip">{t('skip')}</button>
      </div>
    </section>
  )
}

function VendorStep({ state, dispatch, t }: { state: WizardState; dispatch: Dispatch; t: T }) {
  return (
    <fieldset className="welcome-vendors">
      <legend>{t('chooseVendor')}</legend>
      {WIZARD_VENDORS.map((vendor) => (
        <label key={vendor} className="row">
          <input type="radio" name="vendor" checked={state.vendor === vendor} onChange={() => dispatch({ type: 'vendor', vendor })} data-testid={`welcome-vendor-${vendor}`} />
          <span>{t(`vendor_${vendor}`)}</span>
        </label>
      ))}
    </fieldset>
  )
}

function KeyStep({ state, dispatch, t }: { state: WizardState; dispatch: Dispatch; t: T }) {
  const groups = useAppStore((s) => s.groups)
  const test = useAction()
  const run = () => void test.run(async () => {
    dispatch({ type: 'testStarted' })
    try {
      const result = await admin.testUpstream({ vendor: state.vendor!, baseUrl: state.baseUrl.trim(), apiKey: state.apiKey.trim() })
      dispatch({ type: 'testDone', result, groups })
    } catch (err) {
      dispatch({ type: 'apiKey', value: state.apiKey }) // back to untested
      throw err
    }
  })
  return (
    <div className="welcome-form">
      <label>
        <span>{t('baseUrl')}</span>
        <input type="url" value={state.baseUrl} onChange={(e) => dispatch({ type: 'baseUrl', value: e.target.value })} data-testid="welcome-base-url" />
        <span className="muted small">{t('baseUrlHelp')}</span>
      </label>
      <label>
        <span>{t('apiKey')}</span>
        <input
          type="password" autoComplete="off" value={state.apiKey} placeholder={state.vendor === 'kling' ? t('apiKeyKling') : ''}
          onChange={(e) => dispatch({ type: 'apiKey', value: e.target.value })} data-testid="welcome-api-key"
        />
      </label>
      <div className="row">
        <button type="button" className="primary" disabled={!canTest(state)} onClick={run} data-testid="welcome-test">
          {state.test.state === 'testing' ? t('testing') : t('test')}
        </button>
      </div>
      <ErrorNote error={test.error} onDismiss={test.clear} />
      {state.test.state === 'done' && <TestResult result={state.test.result} />}
    </div>
  )
}

function GroupsStep({ state, dispatch, t }: { state: WizardState; dispatch: Dispatch; t: T }) {
  const groups = useAppStore((s) => s.groups)
  const language = useAppStore((s) => s.language)
  const models = testedModels(state.test)
  const assigned = Object.keys(state.assign)
  return (
    <div className="welcome-form">
      <p>{t('chooseGroups')}</p>
      {assigned.length === 0 && <p className="muted" data-testid="welcome-new-group">{t('noFittingGroup')}</p>}
      {assigned.map((groupId) => {
        const group = groups.find((g) => g.id === groupId)
        return (
          <fieldset key={groupId} className="welcome-group" data-testid={`welcome-group-${groupId}`}>
            <legend><strong>{group ? groupName(group, language) || groupId : groupId}</strong> <code className="small">{groupId}</code></legend>
            <div className="welcome-model-grid">
              {models.map((model) => (
                <label key={model} className="row">
                  <input
                    type="checkbox" checked={state.assign[groupId].includes(model)}
                    onChange={() => dispatch({ type: 'toggle', group: groupId, model })} data-testid={`welcome-assign-${groupId}-${model}`}
                  />
                  <code>{model}</code>
                </label>
              ))}
            </div>
          </fieldset>
        )
      })}
    </div>
  )
}

/** Saves the account, the groups' models and the budget (savePlan), then moves on to the first message. */
async function save(plan: SavePlan): Promise<string[]> {
  if (plan.newGroup) await admin.createGroup(plan.newGroup)
  await admin.createUpstream(plan.upstream)
  for (const g of plan.groupModels) await admin.updateGroup(g.id, { models: g.models })
  if (plan.budget !== undefined) await admin.updateAccount({ budget: plan.budget })
  await useAppStore.getState().refreshGroups()
  return plan.upstream.groups
}

function BudgetStep({ state, dispatch, t, onSaved }: { state: WizardState; dispatch: Dispatch; t: T; onSaved(groups: string[]): void }) {
  const groups = useAppStore((s) => s.groups)
  const saving = useAction()
  const valid = parseBudget(state.budget) !== undefined
  // The field shows the budget already set (a blank one would read as "none" while $25 is set); typing replaces it.
  const typed = useRef(state.budget !== '')
  useEffect(() => {
    let live = true
    admin.account().then((a) => {
      if (live && !typed.current && a.budget !== null) dispatch({ type: 'budget', value: String(a.budget) })
    }, () => {})
    return () => {
      live = false
    }
  }, [dispatch])
  const run = () => void saving.run(async () => {
    const upstreams = await admin.upstreams()
    onSaved(await save(savePlan(state, groups, upstreams.map((u) => u.id))))
    dispatch({ type: 'next' })
  })
  return (
    <div className="welcome-form">
      <h3>{t('budgetTitle')}</h3>
      <p className="muted">{t('budgetHelp')}</p>
      <label className="row">
        <input type="number" min={0} step="any" value={state.budget} onChange={(e) => {
          typed.current = true
          dispatch({ type: 'budget', value: e.target.value })
        }} className="welcome-number" data-testid="welcome-budget" />
        <span>{t('budgetUsd')}</span>
      </label>
      {!valid && <p className="error-note">{t('budgetInvalid')}</p>}
      <div className="row">
        <button type="button" className="primary" disabled={!valid || saving.busy} onClick={run} data-testid="welcome-save">
          {saving.busy ? t('saving') : t('save')}
        </button>
      </div>
      <ErrorNote error={saving.error} onDismiss={saving.clear} />
    </div>
  )
}

function FirstStep({ groups, t }: { groups: string[]; t: T }) {
  const [group, setGroup] = useState(groups[0] ?? '')
  const [models, setModels] = useState<string[] | null>(null)
  const [model, setModel] = useState('')
  const [text, setText] = useState(() => t('firstText'))
  const load = useAction()
  useEffect(() => {
    if (!group) return
    setModels(null)
    void load.run(async () => {
      const chat = (await listModels(group)).filter((m) => m.type === 'chat').map((m) => m.id)
      setModels(chat)
      setModel(chat[0] ?? '')
    })
  }, [group, load.run])
  const send = () => {
    const s = useAppStore.getState()
    s.setGroup(group)
    s.setPanel('chat')
    // the empty conversation Chat keeps ready is used; one already started is left as it is
    if (s.conversations.find((c) => c.id === s.activeConversationId)?.messages.length !== 0) s.newConversation()
    s.setConversationModel(model)
    s.setComposerText(text)
    void s.loadChatModels(group).then(() => useAppStore.getState().sendMessage())
  }
  return (
    <div className="welcome-form">
      <h3>{t('firstTitle')}</h3>
      <p className="muted">{t('firstHelp')}</p>
      <div className="row">
        <label>
          <span>{t('group')}</span>
          <select value={group} onChange={(e) => setGroup(e.target.value)} data-testid="welcome-first-group">
            {groups.map((id) => <option key={id} value={id}>{id}</option>)}
          </select>
        </label>
        <label>
          <span>{t('model')}</span>
          <select value={model} onChange={(e) => setModel(e.target.value)} disabled={models === null} data-testid="welcome-first-model">
            {models === null && <option value="">{t('loadingModels')}</option>}
            {models?.map((id) => <option key={id} value={id}>{id}</option>)}
          </select>
        </label>
      </div>
      {models !== null && models.length === 0 && <p className="muted">{t('noChatModels')}</p>}
      <ErrorNote error={load.error} />
      <label>
        <span>{t('message')}</span>
        <textarea rows={3} value={text} onChange={(e) => setText(e.target.value)} data-testid="welcome-first-text" />
      </label>
      <div className="row">
        <button type="button" className="primary" disabled={!model || text.trim() === ''} onClick={send} data-testid="welcome-send">{t('send')}</button>
      </div>
    </div>
  )
}
