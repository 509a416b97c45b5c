import { useEffect, useState } from 'react'
import { BODY_LIMITS, type Settings } from '../../../shared/admin'
import { admin } from '../../api/admin'
import { ErrorNote } from '../../components/ErrorNote'
import { useT } from '../../i18n'
import { useAction } from '../keys/use-action'
import { KEEP_STRINGS } from './keep-bodies-strings'

/** Settings → "Keep request and answer bodies" (the Usage inspector and replays read them): applied at once. */
export function KeepBodiesCard() {
  const t = useT(KEEP_STRINGS)
  const [saved, setSaved] = useState<Settings | null>(null)
  const [count, setCount] = useState('')
  const load = useAction()
  const save = useAction()
  useEffect(() => {
    void load.run(async () => {
      const s = await admin.settings()
      setSaved(s)
      setCount(String(s.bodies?.count ?? BODY_LIMITS.defaultCount))
    })
  }, [load.run])
  const bodies = saved?.bodies
  const store = (next: Partial<NonNullable<Settings['bodies']>>) => {
    if (!saved || !bodies) return
    void save.run(async () => {
      const s = await admin.saveSettings({ port: saved.port, language: saved.language, bodies: { ...bodies, ...next } })
      setSaved(s)
      setCount(String(s.bodies?.count ?? BODY_LIMITS.defaultCount))
    })
  }
  const parsed = /^\d+$/.test(count) ? Number(count) : NaN
  const countValid = Number.isInteger(parsed) && parsed >= 1 && parsed <= BODY_LIMITS.maxCount
  return (
    <section className="card settings-form" data-testid="settings-bodies">
      <h3>{t('title')}</h3>
      <ErrorNote error={load.error} />
      <label className="settings-check">
        <input type="checkbox" checked={bodies?.keep ?? false} disabled={!bodies || save.busy} onChange={(e) => store({ keep: e.target.checked })} data-testid="settings-bodies-keep" />
        <span>{t('keep')}</span>
      </label>
      <label className="settings-check">
        <input type="checkbox" checked={bodies?.keepMedia ?? false} disabled={!bodies?.keep || save.busy} onChange={(e) => store({ keepMedia: e.target.checked })} data-testid="settings-bodies-media" />
        <span>{t('keepMedia')}</span>
      </label>
      <label>
        <span>{t('count')}</span>
        <input
          type="number" min={1} max={BODY_LIMITS.maxCount} step={1} value={count} disabled={!bodies?.keep} data-testid="settings-bodies-count"
          onChange={(e) => setCount(e.target.value)}
          onBlur={() => countValid && parsed !== bodies?.count && store({ count: parsed })}
        />
        <span className="muted small">{countValid ? t('help', { total: Math.round(BODY_LIMITS.totalBytes / 1024 / 1024), each: Math.round(BODY_LIMITS.requestBytes / 1024) }) : t('countInvalid', { max: BODY_LIMITS.maxCount })}</span>
      </label>
      <ErrorNote error={save.error} onDismiss={save.clear} />
    </section>
  )
}
