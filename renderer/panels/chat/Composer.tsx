import { useCallback, useMemo, useState, type KeyboardEvent } from 'react'
import { DropZone } from '../../components/DropZone'
import { ErrorNote } from '../../components/ErrorNote'
import { limitsFor } from '../../components/image-fit'
import { fileToDataUrl, useImageInput } from '../../components/image-input'
import { useImageIntake } from '../../components/image-intake'
import { ImageIntakeNotice } from '../../components/ImageIntakeNotice'
import { useT } from '../../i18n'
import { useAppStore } from '../../stores/app-store'
import type { Attachment, ComposerDraft } from './chat-types'
import { STRINGS } from './strings'
import { approveSpend, PriceTag } from '../../components/PriceTag'
import { useQuote } from '../../components/use-quote'
import { nextAnswerQuote } from './build-request'

const EMPTY: ComposerDraft = { text: '', attachments: [] }
const CHAT_IMAGE_LIMITS = limitsFor('chat')

async function toAttachments(files: File[]): Promise<Attachment[]> {
  return Promise.all(files.map(async (f) => ({ name: f.name, mediaType: f.type, dataUrl: await fileToDataUrl(f) })))
}

/** The images waiting to be sent, each with a remove button. */
function AttachmentThumbs({ attachments }: { attachments: Attachment[] }) {
  const t = useT(STRINGS)
  const removeAttachment = useAppStore((s) => s.removeAttachment)
  if (attachments.length === 0) return null
  return (
    <div className="chat-thumbs">
      {attachments.map((a, i) => (
        <span key={i} className="chat-thumb-wrap">
          <img src={a.dataUrl} alt={a.name} title={a.name} className="chat-thumb" data-testid="chat-attachment" />
          <button type="button" className="chat-thumb-remove" aria-label={t('removeAttachment')} title={t('removeAttachment')} onClick={() => removeAttachment(i)} data-testid="chat-attachment-remove">
            ×
          </button>
        </span>
      ))}
    </div>
  )
}

/** What Send would ask for, as a quote body; null while there is nothing to send. */
function useNextAnswerQuote(conversationId: string, draft: ComposerDraft, ready: boolean) {
  const conv = useAppStore((s) => s.conversations.find((c) => c.id === conversationId))
  const protocol = useAppStore((s) => s.groups.find((g) => g.id === s.groupId)?.protocol)
  const family = useAppStore((s) => s.chatModels.models.find((m) => m.id === conv?.model)?.family)
  return useMemo(() => (ready && conv && protocol ? nextAnswerQuote(protocol, conv, draft, family) : null), [ready, conv, protocol, draft, family])
}

/** The message box: text, images (file picker, drop, paste), Send and Stop. Enter sends, Shift+Enter breaks the line. */
export function Composer({ conversationId, canSend }: { conversationId: string; canSend: boolean }) {
  const t = useT(STRINGS)
  const draft = useAppStore((s) => s.chatDrafts[conversationId] ?? EMPTY)
  const streaming = useAppStore((s) => conversationId in s.chatStreaming)
  const { setComposerText, addAttachments, sendMessage, stopAnswer } = useAppStore.getState()
  const [readError, setReadError] = useState<unknown>(null)
  // Only images within the limits are read into the draft (as small data URLs); larger ones wait for consent.
  const onImages = useCallback((files: File[]) => void toAttachments(files).then(addAttachments, setReadError), [addAttachments])
  const intake = useImageIntake(CHAT_IMAGE_LIMITS, onImages)
  const offer = useCallback((files: File[]) => void intake.offer(files), [intake.offer])
  const { dragging, handlers } = useImageInput(offer)
  const ready = canSend && !streaming && (draft.text.trim() !== '' || draft.attachments.length > 0)
  const price = useQuote(useAppStore((s) => s.groupId), useNextAnswerQuote(conversationId, draft, ready))
  const send = () => {
    if (ready) void approveSpend(price.latest).then((go) => { if (go) void sendMessage() })
  }
  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    // An IME's Enter confirms the composition; it must not send half a word.
    if (e.key !== 'Enter' || e.shiftKey || e.nativeEvent.isComposing) return
    e.preventDefault()
    send()
  }
  return (
    <div
      className={`chat-composer card drop-target${dragging ? ' dragging' : ''}`}
      onDragOver={handlers.onDragOver}
      onDragLeave={handlers.onDragLeave}
      onDrop={handlers.onDrop}
    >
      <AttachmentThumbs attachments={draft.attachments} />
      <ImageIntakeNotice intake={intake} />
      {readError !== null && <ErrorNote error={readError} onDismiss={() => setReadError(null)} />}
      <textarea
        rows={3}
        value={draft.text}
        placeholder={t('placeholder')}
        aria-label={t('messageLabel')}
        onChange={(e) => setComposerText(e.target.value)}
        onKeyDown={onKeyDown}
        onPaste={handlers.onPaste}
        data-testid="chat-input"
      />
      <div className="row">
        <DropZone onImages={offer} multiple compact testId="chat-attach" />
        <span className="chat-spacer" />
        {streaming && (
          <button type="button" className="danger" onClick={() => stopAnswer(conversationId)} data-testid="chat-stop">
            {t('stop')}
          </button>
        )}
        <PriceTag state={price} />
        <button type="button" className="primary" disabled={!ready} onClick={send} data-testid="chat-send">
          {t('send')}
        </button>
      </div>
    </div>
  )
}
