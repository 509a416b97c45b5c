import { useEffect, useState } from 'react'
import type { CapturedExchange, MediaItem, OmittedBody, RequestLogEntry, StrippedMedia } from '../../../shared/admin'
import { admin, mediaSrc } from '../../api/admin'
import { ErrorNote } from '../../components/ErrorNote'
import { formatMs } from '../../format'
import { useT } from '../../i18n'
import { useAction } from '../keys/use-action'
import { answerImages, answerText, requestMessages, type ShownMessage } from './inspect'
import { inspectApi } from './inspect-api'
import { INSPECT_STRINGS, type InspectT } from './inspector-strings'
import { ReplayCompare } from './ReplayCompare'

/**
 * A request's kept bodies (Usage → a row → Inspect): the request as sent (chat as messages), the answer as delivered
 * (chat as text, images as thumbnails, a stream as its events with their times), the timings, and replays of it.
 */
export function Inspector({ r }: { r: RequestLogEntry }) {
  const t = useT(INSPECT_STRINGS)
  const [open, setOpen] = useState(false)
  const [exchange, setExchange] = useState<CapturedExchange | null | undefined>(undefined)
  const [media, setMedia] = useState<MediaItem[]>([])
  const load = useAction()
  useEffect(() => {
    if (!open || exchange !== undefined) return
    void load.run(async () => {
      // The images the gateway kept of the answer (its own copies: a vendor's links expire, and the page loads none).
      setMedia((await admin.media(r.id)).filter((m) => m.kind === 'image'))
      try {
        setExchange(await inspectApi.body(r.id))
      } catch (err) {
        if ((err as { status?: number }).status === 404) setExchange(null)
        else throw err
      }
    })
  }, [open, exchange, load.run, r.id])
  return (
    <div className="usage-inspector" data-testid="usage-inspector">
      <button type="button" onClick={() => setOpen(!open)} aria-expanded={open} data-testid="usage-inspect">{open ? t('hide') : t('inspect')}</button>
      <ErrorNote error={load.error} />
      {open && media.length > 0 && (
        <div className="row" data-testid="inspector-kept-images">
          {media.map((m) => <img key={m.id} src={mediaSrc(m.url)} alt="" className="inspector-thumb" data-testid="inspector-image" />)}
        </div>
      )}
      {open && exchange === null && <p className="muted small" data-testid="inspector-not-kept">{t('notKept')}</p>}
      {open && exchange && <ExchangeView t={t} r={r} x={exchange} />}
    </div>
  )
}

function ExchangeView({ t, r, x }: { t: InspectT; r: RequestLogEntry; x: CapturedExchange }) {
  const messages = requestMessages(x.request.body)
  const timing = (ms: number | null) => (ms === null ? t('notMeasured') : formatMs(ms))
  return (
    <div className="inspector-body">
      {r.replayOf && <p className="small" data-testid="inspector-replay-of">{t('replayOf', { id: r.replayOf })}</p>}
      <section data-testid="inspector-request">
        <h4>{t('request')}: <code>{x.request.method} {x.request.path}</code></h4>
        {messages.length > 0 ? <Messages t={t} messages={messages} /> : <Body t={t} value={x.request.body} />}
        <details>
          <summary>{t('headers')}</summary>
          <table className="inspector-headers"><tbody>{Object.entries(x.request.headers).map(([k, v]) => <tr key={k}><th>{k}</th><td><code>{v}</code></td></tr>)}</tbody></table>
        </details>
        {messages.length > 0 && <details><summary>{t('raw')}</summary><Body t={t} value={x.request.body} /></details>}
      </section>
      <section data-testid="inspector-answer" data-kind={x.answer.kind}>
        <h4>{t('answer')}: <code>{x.answer.status}</code> <span className="muted small">{x.answer.contentType}</span></h4>
        <Answer t={t} answer={x.answer} />
        {x.answer.truncated && <p className="muted small">{t('truncated')}</p>}
      </section>
      <dl className="usage-detail-list" data-testid="inspector-timings">
        {([['queue', x.timings.queueMs], ['firstByte', x.timings.firstByteMs], ['firstToken', x.timings.firstTokenMs], ['total', x.timings.totalMs]] as const).map(([k, v]) => (
          <div className="usage-detail-item" key={k} data-field={k}><dt>{t(k)}</dt><dd>{timing(v)}</dd></div>
        ))}
      </dl>
      <ReplayCompare t={t} r={r} original={x} />
    </div>
  )
}

/** Media that was not kept, named by type, size and hash. */
export const strippedText = (t: InspectT, m: StrippedMedia) => t('stripped', { type: m.type, bytes: m.bytes, hash: m.sha256.slice(0, 12) })

function Messages({ t, messages }: { t: InspectT; messages: ShownMessage[] }) {
  return (
    <ol className="inspector-messages">
      {messages.map((m, i) => (
        <li key={i} data-testid="inspector-message" data-role={m.role}>
          <strong>{m.role}</strong>
          {m.text && <p className="inspector-text">{m.text}</p>}
          {m.images.map((src, j) => (src.startsWith('data:') ? <img key={j} src={src} alt="" className="inspector-thumb" data-testid="inspector-image" /> : <p key={j} className="small"><code>{src}</code></p>))}
          {m.stripped.map((s, j) => <p key={j} className="muted small" data-testid="inspector-stripped">{strippedText(t, s)}</p>)}
        </li>
      ))}
    </ol>
  )
}

function Body({ t, value }: { t: InspectT; value: unknown }) {
  const omitted = value !== null && typeof value === 'object' && 'omitted' in value ? (value as OmittedBody) : undefined
  if (omitted) return <p className="muted small" data-testid="inspector-omitted">{t('omitted', { why: omitted.omitted, type: omitted.type, bytes: omitted.bytes })}</p>
  return <pre className="inspector-json">{JSON.stringify(value, null, 2)}</pre>
}

function Answer({ t, answer }: { t: InspectT; answer: CapturedExchange['answer'] }) {
  if (answer.kind === 'sse') {
    const events = answer.events ?? []
    return (
      <>
        <p className="inspector-text" data-testid="inspector-answer-text">{answerText(answer)}</p>
        <details open>
          <summary>{t('events', { n: events.length })}</summary>
          <ol className="inspector-events" data-testid="inspector-events">
            {events.map((e, i) => (
              <li key={i} data-testid="inspector-event"><span className="muted small">{formatMs(e.at)}</span>{e.event && <> <code>{e.event}</code></>} <code>{typeof e.data === 'string' ? e.data : JSON.stringify(e.data)}</code></li>
            ))}
          </ol>
        </details>
      </>
    )
  }
  const text = answerText(answer)
  const { images, stripped } = answerImages(answer)
  return (
    <>
      {text && <p className="inspector-text" data-testid="inspector-answer-text">{text}</p>}
      {images.map((src, i) => (src.startsWith('data:') ? <img key={i} src={src} alt="" className="inspector-thumb" data-testid="inspector-image" /> : <p key={i} className="small"><code>{src}</code></p>))}
      {stripped.map((s, i) => <p key={i} className="muted small" data-testid="inspector-stripped">{strippedText(t, s)}</p>)}
      <details open={!text && images.length === 0}><summary>{t('raw')}</summary><Body t={t} value={answer.body ?? null} /></details>
    </>
  )
}
