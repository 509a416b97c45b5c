import { useEffect, useRef, useState, type RefObject } from 'react'
import { ErrorNote } from '../../components/ErrorNote'
import { copyShown } from '../../components/kept-copy-view'
import { KeptCopyStatus } from '../../components/KeptCopyStatus'
import { useT } from '../../i18n'
import { STRINGS } from './strings'
import { useTaskCopy } from './use-task-copy'
import { fetchVideo } from './video-api'
import type { VideoRow } from './video-types'

type Loaded = { state: 'idle' } | { state: 'loading' } | { state: 'ready'; url: string; type: string } | { state: 'failed'; error: unknown }

const EXT: Record<string, string> = { 'video/mp4': 'mp4', 'video/webm': 'webm', 'video/quicktime': 'mov' }

/** Starts once the element is on screen: a long list should not download every video at once. */
function useOnScreen(ref: RefObject<HTMLElement | null>): boolean {
  const [seen, setSeen] = useState(false)
  useEffect(() => {
    const el = ref.current
    if (!el || seen) return
    const observer = new IntersectionObserver((entries) => {
      if (entries.some((e) => e.isIntersecting)) setSeen(true)
    })
    observer.observe(el)
    return () => observer.disconnect()
  }, [ref, seen])
  return seen
}

/** The saved video, fetched with the key into a blob (revoked when the row goes), played and saved from there. */
export function TaskVideo({ row }: { row: Pick<VideoRow, 'id' | 'group' | 'contentUrl' | 'vendorUrl' | 'fromApp' | 'createdAt'> }) {
  const t = useT(STRINGS)
  const ref = useRef<HTMLDivElement>(null)
  const visible = useOnScreen(ref)
  const [loaded, setLoaded] = useState<Loaded>({ state: 'idle' })
  const { id, group, contentUrl, fromApp } = row
  // Until the gateway's copy is playable, its state: saving, retrying, failed (why, the vendor link while it works).
  const copy = useTaskCopy(id, !contentUrl)
  useEffect(() => {
    if (!visible || !contentUrl) return
    const abort = new AbortController()
    let url: string | undefined
    setLoaded({ state: 'loading' })
    fetchVideo({ id, group, contentUrl, fromApp }, abort.signal).then(
      (blob) => {
        url = URL.createObjectURL(blob)
        setLoaded({ state: 'ready', url, type: blob.type })
      },
      (error) => {
        if (!abort.signal.aborted) setLoaded({ state: 'failed', error })
      },
    )
    return () => {
      abort.abort()
      if (url) URL.revokeObjectURL(url)
    }
  }, [visible, id, group, contentUrl, fromApp])

  const save = () => {
    if (loaded.state !== 'ready') return
    const a = document.createElement('a')
    a.href = loaded.url
    a.download = `${id}.${EXT[loaded.type] ?? 'mp4'}`
    a.click()
  }

  return (
    <div ref={ref} className="video-result">
      {!contentUrl && (
        <>
          <KeptCopyStatus shown={copyShown({ copy: copy.copy, sourceUrl: row.vendorUrl, issuedAt: row.createdAt, local: 'pending' }, Date.now())} onRetry={copy.retry} retrying={copy.retrying} />
          <ErrorNote error={copy.error} />
        </>
      )}
      {loaded.state === 'loading' && <p className="muted small">{t('loadingVideo')}</p>}
      {loaded.state === 'failed' && <ErrorNote error={loaded.error} />}
      {loaded.state === 'ready' && (
        <>
          <video controls src={loaded.url} className="video-player" data-testid="video-play" />
          <div className="row">
            <button type="button" onClick={save} data-testid="video-save">{t('save')}</button>
          </div>
        </>
      )}
    </div>
  )
}
