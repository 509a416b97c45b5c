import { useCallback, useEffect, useState } from 'react'
import type { AccountSummary } from '../../../shared/admin'
import { admin } from '../../api/admin'
import { ErrorNote } from '../../components/ErrorNote'
import { formatUsd, useT } from '../../i18n'
import { useAction } from '../keys/use-action'
import { balanceAfter, parseAmount } from './log-query'
import { STRINGS } from './strings'

/** Balance, what is held for work under way, the concurrency cap; add funds or set the balance. */
export function AccountCard() {
  const t = useT(STRINGS)
  const [account, setAccount] = useState<AccountSummary | null>(null)
  const [amount, setAmount] = useState('')
  const [cap, setCap] = useState('')
  const load = useAction()
  const change = useAction()
  const reload = useCallback(() => load.run(async () => setAccount(await admin.account())), [load.run])
  useEffect(() => {
    void reload()
  }, [reload])
  const value = parseAmount(amount)
  const updateBalance = (mode: 'add' | 'set') => void change.run(async () => {
    // Read again first: "add" must add to the balance as it is now, not as it was shown.
    const current = await admin.account()
    setAccount(await admin.updateAccount({ balance: balanceAfter(current.balance, mode, value!) }))
    setAmount('')
  })
  const capValue = Number(cap)
  const capOk = cap !== '' && Number.isInteger(capValue) && capValue >= 1
  return (
    <section className="card usage-account">
      <div className="row">
        <h3>{t('account')}</h3>
        <button type="button" className="link" onClick={() => void reload()} disabled={load.busy}>{t('refresh')}</button>
      </div>
      <ErrorNote error={load.error} />
      {account && (
        <div className="row usage-figures">
          {account.budget === null ? (
            <Figure label={t('budget')} value={t('noLimit')} testId="usage-budget" title={t('noLimitHelp')} />
          ) : (
            <>
              <Figure label={t('budget')} value={formatUsd(account.budget)} testId="usage-budget" />
              <Figure label={t('balance')} value={formatUsd(account.balance)} testId="usage-balance" />
              <Figure label={t('reserved')} value={formatUsd(account.reserved)} testId="usage-reserved" title={t('reservedHelp')} />
              <Figure label={t('available')} value={formatUsd(account.balance - account.reserved)} testId="usage-available" />
            </>
          )}
          <Figure label={t('spent')} value={formatUsd(account.spent)} testId="usage-spent" />
          <Figure label={t('concurrency')} value={String(account.concurrency)} testId="usage-concurrency" />
        </div>
      )}
      {account?.budget === null && <p className="muted small" data-testid="usage-no-limit">{t('noLimitHelp')}</p>}
      <div className="row">
        <label>
          <span>{t('amount')}</span>
          <input type="number" step="any" value={amount} onChange={(e) => setAmount(e.target.value)} className="usage-number" data-testid="usage-amount" />
        </label>
        <button type="button" className="primary" disabled={value === undefined || change.busy} onClick={() => updateBalance('add')} data-testid="usage-add-funds">{t('addFunds')}</button>
        <button type="button" disabled={value === undefined || change.busy} onClick={() => updateBalance('set')} data-testid="usage-set-balance">{t('setBalance')}</button>
        {account !== null && account.budget !== null && (
          <button type="button" disabled={change.busy} onClick={() => void change.run(async () => setAccount(await admin.updateAccount({ budget: null })))} data-testid="usage-remove-limit">{t('removeLimit')}</button>
        )}
        <label>
          <span>{t('concurrency')}</span>
          <input type="number" min={1} step={1} value={cap} placeholder={account ? String(account.concurrency) : ''} onChange={(e) => setCap(e.target.value)} className="usage-number" data-testid="usage-cap" />
        </label>
        <button type="button" disabled={!capOk || change.busy} data-testid="usage-set-cap" onClick={() => void change.run(async () => {
          setAccount(await admin.updateAccount({ concurrency: capValue }))
          setCap('')
        })}>{t('setConcurrency')}</button>
      </div>
      <ErrorNote error={change.error} onDismiss={change.clear} />
    </section>
  )
}

function Figure({ label, value, testId, title }: { label: string; value: string; testId: string; title?: string }) {
  return (
    <div className="usage-figure" title={title}>
      <span className="muted small">{label}</span>
      <strong data-testid={testId}>{value}</strong>
    </div>
  )
}
