import { useEffect, useState } from 'react'
import type { CapturedExchange, GroupSummary, RequestLogEntry } from '../../../shared/admin'
import { ErrorNote } from '../../components/ErrorNote'
import { formatMs, formatUsd } from '../../format'
import { useAction } from '../keys/use-action'
import { answerText, textDiff } from './inspect'
import { inspectApi, type ReplayResult } from './inspect-api'
import type { InspectT } from './inspector-strings'

interface Side {
  entry: RequestLogEntry
  text: string
}

const tokens = (e: RequestLogEntry) => `${e.inputTokens?.toLocaleString() ?? '–'} / ${e.outputTokens?.toLocaleString() ?? '–'}`

/**
 * Replays a kept request (POST /admin/v1/requests/{id}/replay) on another account or model of its group, and shows
 * the original and the replay side by side: latency, tokens, cost, the answers, and the text's differences.
 */
export function ReplayCompare({ t, r, original }: { t: InspectT; r: RequestLogEntry; original: CapturedExchange }) {
  const [group, setGroup] = useState<GroupSummary | undefined>(undefined)
  const [account, setAccount] = useState('')
  const [model, setModel] = useState('')
  const [replay, setReplay] = useState<{ result: ReplayResult; side: Side } | undefined>(undefined)
  const load = useAction()
  const send = useAction()
  useEffect(() => {
    void load.run(async () => setGroup((await inspectApi.groups()).find((g) => g.id === r.group)))
  }, [load.run, r.group])
  if (r.group === null) return null
  const run = () => void send.run(async () => {
    const result = await inspectApi.replay(r.id, { ...(account ? { account } : {}), ...(model ? { model } : {}) })
    const kept = await inspectApi.body(result.replay.id).catch(() => undefined)
    setReplay({ result, side: { entry: result.replay, text: kept ? answerText(kept.answer) : '' } })
  })
  const left: Side = { entry: r, text: answerText(original.answer) }
  return (
    <section className="inspector-replay" data-testid="inspector-replay">
      <h4>{t('replay')}</h4>
      <div className="row">
        <label>
          <span>{t('replayAccount')}</span>
          <select value={account} onChange={(e) => setAccount(e.target.value)} data-testid="replay-account">
            <option value="">{t('sameAccount')}</option>
            {(group?.upstreams ?? []).map((u) => <option key={u} value={u}>{u}</option>)}
          </select>
        </label>
        <label>
          <span>{t('replayModel')}</span>
          <select value={model} onChange={(e) => setModel(e.target.value)} data-testid="replay-model">
            <option value="">{t('sameModel')}</option>
            {(group?.models ?? []).map((m) => <option key={m} value={m}>{m}</option>)}
          </select>
        </label>
        <button type="button" className="primary" disabled={send.busy} onClick={run} data-testid="replay-send">{t('replaySend')}</button>
      </div>
      <ErrorNote error={load.error ?? send.error} onDismiss={send.clear} />
      {replay && (
        <>
          <div className="inspector-sides" data-testid="replay-sides">
            <SideView t={t} title={t('original')} side={left} testId="replay-original" />
            <SideView t={t} title={`${t('replayed')} · ${t('quoted', { expected: formatUsd(replay.result.quote.expected) })}`} side={replay.side} testId="replay-result" />
          </div>
          <h5>{t('diff')}</h5>
          <p className="inspector-text inspector-diff" data-testid="replay-diff">
            {textDiff(left.text, replay.side.text).map((p, i) =>
              p.kind === 'same' ? <span key={i}>{p.text}</span> : p.kind === 'added' ? <ins key={i}>{p.text}</ins> : <del key={i}>{p.text}</del>,
            )}
          </p>
        </>
      )}
    </section>
  )
}

function SideView({ t, title, side, testId }: { t: InspectT; title: string; side: Side; testId: string }) {
  const e = side.entry
  return (
    <div className="inspector-side" data-testid={testId}>
      <h5>{title}</h5>
      <dl className="usage-detail-list">
        <div className="usage-detail-item" data-field="model"><dt>{t('replayModel')}</dt><dd>{e.model ?? '–'}</dd></div>
        <div className="usage-detail-item" data-field="account"><dt>{t('replayAccount')}</dt><dd>{e.upstream ?? '–'}</dd></div>
        <div className="usage-detail-item" data-field="latency"><dt>{t('latency')}</dt><dd>{formatMs(e.latencyMs)}</dd></div>
        <div className="usage-detail-item" data-field="tokens"><dt>{t('tokens')}</dt><dd>{tokens(e)}</dd></div>
        <div className="usage-detail-item" data-field="cost"><dt>{t('cost')}</dt><dd>{formatUsd(e.cost)}</dd></div>
      </dl>
      <p className="inspector-text" data-testid="replay-text">{side.text}</p>
    </div>
  )
}
