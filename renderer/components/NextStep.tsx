import { useT } from '../i18n'
import { useAppStore } from '../stores/app-store'
import type { Panel } from '../stores/session-slice'
import { NEXT_STEP_STRINGS } from './next-step'

type Text = keyof (typeof NEXT_STEP_STRINGS)['en']

/** An empty state: what is missing, and a button that opens the panel where it is done. */
export function NextStep({ text, action, panel = 'welcome', testId }: { text: Text; action: Text; panel?: Panel; testId: string }) {
  const t = useT(NEXT_STEP_STRINGS)
  const setPanel = useAppStore((s) => s.setPanel)
  return (
    <div className="card next-step row" data-testid={testId}>
      <span>{t(text)}</span>
      <button type="button" className="primary" onClick={() => setPanel(panel)} data-testid={`${testId}-go`}>{t(action)}</button>
    </div>
  )
}

/** Whether any group relays to an upstream account (the app has something to call). */
export const useHasAccounts = () => useAppStore((s) => s.groups.some((g) => g.upstreams.length > 0))

/** The current group's empty state: it relays to no upstream account yet, so nothing can be called. */
export function GroupNeedsAccount({ testId }: { testId: string }) {
  const empty = useAppStore((s) => s.groups.find((g) => g.id === s.groupId)?.upstreams.length === 0)
  return empty ? <NextStep text="noAccountGroup" action="addAccount" testId={testId} /> : null
}
