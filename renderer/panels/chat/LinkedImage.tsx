import { useEffect, useRef, useState, type MouseEvent } from 'react'
import { admin } from '../../api/admin'
import { ApiError } from '../../api/http'
import { useT } from '../../i18n'
import { useAppStore } from '../../stores/app-store'
import { STRINGS, type ChatT } from './strings'

/** Longer than the gateway's own 30 s for the download: its answer (an image or why not) comes first. */
const LOAD_TIMEOUT_MS = 40_000

type Loaded = { state: 'idle' } | { state: 'loading' } | { state: 'ready'; url: string } | { state: 'failed'; message: string }

/** What went wrong, as one sentence: the gateway's own (in the chosen language), or ours. */
function failureText(err: unknown, t: ChatT): string {
  if (err instanceof ApiError) return err.message
  if (err instanceof DOMException && err.name === 'TimeoutError') return t('imageFailed', { error: t('imageTimeout') })
  return t('imageFailed', { error: err instanceof Error ? err.message : String(err) })
}

/**
 * An http(s) image from a model's answer. Nothing is fetched until the user clicks "Load image from <host>" (an
 * answer steered by a prompt injection could otherwise send the chat to any server through an image address);
 * then the gateway fetches it through its link guard and the page shows the bytes from a blob: URL, the only kind
 * of outside image its CSP allows.
 */
export function LinkedImage({ src, alt }: { src: string; alt?: string }) {
  const t = useT(STRINGS)
  const language = useAppStore((s) => s.language)
  const [loaded, setLoaded] = useState<Loaded>({ state: 'idle' })
  const abort = useRef<AbortController | null>(null)
  const host = new URL(src).host
  const blobUrl = loaded.state === 'ready' ? loaded.url : undefined
  useEffect(() => () => abort.current?.abort(), [])
  useEffect(() => () => {
    if (blobUrl) URL.revokeObjectURL(blobUrl)
  }, [blobUrl])

  const load = (event: MouseEvent) => {
    // Inside a markdown link, the click loads the image and does not follow the link.
    event.preventDefault()
    event.stopPropagation()
    const controller = new AbortController()
    abort.current = controller
    const deadline = new AbortController()
    const timer = setTimeout(() => deadline.abort(new DOMException('no answer in time', 'TimeoutError')), LOAD_TIMEOUT_MS)
    setLoaded({ state: 'loading' })
    admin.linkedImage(src, language, AbortSignal.any([controller.signal, deadline.signal]))
      .then(
        (blob) => !controller.signal.aborted && setLoaded({ state: 'ready', url: URL.createObjectURL(blob) }),
        (err: unknown) => !controller.signal.aborted && setLoaded({ state: 'failed', message: failureText(err, t) }),
      )
      .finally(() => clearTimeout(timer))
  }

  if (loaded.state === 'ready') return <img src={loaded.url} alt={alt ?? ''} title={src} data-testid="chat-linked-image" />
  return (
    <span className="chat-linked-image">
      <button type="button" className="link" onClick={load} disabled={loaded.state === 'loading'} title={src} data-testid="chat-load-image">
        {t(loaded.state === 'loading' ? 'loadingImage' : 'loadImage', { host })}
      </button>
      {loaded.state === 'failed' && (
        <>
          <span className="chat-linked-image-error" role="alert" data-testid="chat-load-image-error">{loaded.message}</span>{' '}
          <a href={src} target="_blank" rel="noreferrer noopener">{t('openImage')}</a>
        </>
      )}
    </span>
  )
}
