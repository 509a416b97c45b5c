import { useEffect, useState } from 'react'
import { LANGUAGES, type Language, type Settings } from '../../../shared/admin'
import type { IpcContract } from '../../../shared/ipc'
import { admin, signOut } from '../../api/admin'
import { parseConfirmAbove } from '../../api/quote'
import { ErrorNote } from '../../components/ErrorNote'
import { useT } from '../../i18n'
import { useAppStore } from '../../stores/app-store'
import { ConnectToolsPanel } from '../connect/ConnectToolsPanel'
import { KeepBodiesCard } from './KeepBodiesCard'
import { useAction } from '../keys/use-action'
import { parsePort } from './settings-form'
import { STRINGS } from './strings'
import './settings.css'

const LANGUAGE_NAMES: Record<Language, string> = { en: 'English', zh: '中文' }

type Vault = IpcContract['vault:status']['res']

/** Port (from the next start) and language (at once), and where this installation keeps its data. */
export function SettingsPanel() {
  const t = useT(STRINGS)
  const session = useAppStore((s) => s.session)
  const language = useAppStore((s) => s.language)
  const setLanguage = useAppStore((s) => s.setLanguage)
  const [saved, setSaved] = useState<Settings | null>(null)
  const [port, setPort] = useState('')
  const [note, setNote] = useState<string | null>(null)
  const [vault, setVault] = useState<Vault | null>(null)
  const load = useAction()
  const save = useAction()
  const vaultLoad = useAction()
  const leave = useAction()

  useEffect(() => {
    void load.run(async () => {
      const s = await admin.settings()
      setSaved(s)
      setPort(String(s.port))
    })
    const api = window.api
    if (api) void vaultLoad.run(async () => setVault(await api.vaultStatus()))
  }, [load.run, vaultLoad.run])

  const portValue = parsePort(port)
  const store = (next: Settings, message: string) => save.run(async () => {
    setSaved(await admin.saveSettings(next))
    setNote(message)
  })
  const changeLanguage = (next: Language) => {
    // Shown in the new language at once; saved with the port as last saved, not as being typed.
    setLanguage(next)
    if (saved) void store({ port: saved.port, language: next }, '')
  }

  return (
    <section className="panel settings" data-testid="panel-settings">
      <h2>{t('title')}</h2>
      <ErrorNote error={load.error} />
      <form className="card settings-form" onSubmit={(e) => { e.preventDefault(); if (portValue !== undefined) void store({ port: portValue, language }, t('savedRestart', { port: portValue })) }}>
        <label>
          <span>{t('language')}</span>
          <select value={language} onChange={(e) => changeLanguage(e.target.value as Language)} data-testid="settings-language">
            {LANGUAGES.map((l) => <option key={l} value={l}>{LANGUAGE_NAMES[l]}</option>)}
          </select>
        </label>
        <ConfirmAboveField />
        <label>
          <span>{t('port')}</span>
          <input type="number" min={1} max={65535} step={1} value={port} disabled={!saved} onChange={(e) => { setPort(e.target.value); setNote(null) }} data-testid="settings-port" />
          <span className="muted small">{portValue === undefined && port !== '' ? t('portInvalid') : t('portHelp')}</span>
        </label>
        <div className="row">
          <button type="submit" className="primary" disabled={!saved || portValue === undefined || save.busy} data-testid="settings-save">{t('save')}</button>
          {note && <span className="muted small" data-testid="settings-saved">{note}</span>}
        </div>
        <ErrorNote error={save.error} onDismiss={save.clear} />
      </form>
      {session && (
        <section className="card">
          <h3>{t('about')}</h3>
          <dl className="settings-about">
            <dt>{t('baseUrl')}</dt>
            <dd><code data-testid="settings-base-url">{session.baseUrl}</code></dd>
            <dt>{t('dataDir')}</dt>
            <dd><code data-testid="settings-data-dir">{session.dataDir}</code></dd>
            <dt>{t('version')}</dt>
            <dd>{session.version}</dd>
            <dt>{t('mode')}</dt>
            <dd>{t(`mode_${session.mode}`)}</dd>
            {vault && (
              <>
                <dt>{t('vault')}</dt>
                <dd data-testid="settings-vault">{t(`vault_${vault.backend}`)} <span className="muted small">{vault.detail}</span></dd>
              </>
            )}
          </dl>
          <ErrorNote error={vaultLoad.error} />
          <div className="row">
            <button type="button" onClick={() => void leave.run(signOut)} disabled={leave.busy} data-testid="settings-sign-out">{t('signOut')}</button>
          </div>
          <ErrorNote error={leave.error} />
        </section>
      )}
      <KeepBodiesCard />
      <ConnectToolsPanel />
    </section>
  )
}

/** The amount above which sending asks first; applied as it is typed (when valid) and saved with the app's ui state. */
function ConfirmAboveField() {
  const t = useT(STRINGS)
  const confirmAbove = useAppStore((s) => s.confirmAbove)
  const setConfirmAbove = useAppStore((s) => s.setConfirmAbove)
  const [text, setText] = useState(confirmAbove === null ? '' : String(confirmAbove))
  const parsed = parseConfirmAbove(text)
  return (
    <label>
      <span>{t('confirmAbove')}</span>
      <input
        inputMode="decimal" value={text} placeholder="0.50" data-testid="settings-confirm-above"
        onChange={(e) => {
          setText(e.target.value)
          const value = parseConfirmAbove(e.target.value)
          if (value !== undefined) setConfirmAbove(value)
        }}
      />
      <span className="muted small">{parsed === undefined ? t('confirmAboveInvalid') : t('confirmAboveHelp')}</span>
    </label>
  )
}
