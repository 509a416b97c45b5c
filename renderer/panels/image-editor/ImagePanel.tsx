import { useCallback, useEffect } from 'react'
import { GroupNeedsAccount } from '../../components/NextStep'
import { ErrorNote } from '../../components/ErrorNote'
import { useImageInput } from '../../components/image-input'
import { useT } from '../../i18n'
import { useAppStore } from '../../stores/app-store'
import { Gallery, StatusLine } from './Gallery'
import './image-editor.css'
import { selectedControls } from './images-slice'
import { MaskEditor } from './MaskEditor'
import { ModelControls } from './ModelControls'
import { ReferenceImages } from './ReferenceImages'
import { STRINGS, type ImageT } from './strings'
import { formProblem } from './submission'

/** Images: generate from a prompt, or edit reference images with an optional painted mask; the history below. */
export function ImagePanel() {
  const t = useT(STRINGS)
  const groupId = useAppStore((s) => s.groupId)
  const load = useAppStore((s) => s.loadImageModels)
  const resume = useAppStore((s) => s.resumeImageRuns)
  const addReferences = useAppStore((s) => s.addImageReferences)
  const onImages = useCallback((files: File[]) => void addReferences(files), [addReferences])
  const { addFiles, handlers } = useImageInput(onImages)

  useEffect(() => {
    if (groupId) void load(groupId)
  }, [groupId, load])
  useEffect(() => resume(), [resume])

  return (
    <section className="panel image-panel" data-testid="panel-image" {...handlers}>
      <header className="row">
        <h2>{t('title')}</h2>
        <ModeTabs t={t} />
      </header>
      <GroupNeedsAccount testId="image-next-step" />
      {!groupId ? (
        <p className="muted">{t('noGroup')}</p>
      ) : (
        <div className="image-layout">
          <Form t={t} onFiles={addFiles} />
          <div className="image-work">
            <MaskArea t={t} />
            <Gallery />
          </div>
        </div>
      )}
    </section>
  )
}

function ModeTabs({ t }: { t: ImageT }) {
  const mode = useAppStore((s) => s.imageMode)
  const setMode = useAppStore((s) => s.setImageMode)
  const canEdit = useAppStore((s) => s.imageModels.options.some((m) => m.edits))
  return (
    <div className="image-modes" role="tablist">
      {(['generate', 'edit'] as const).map((m) => (
        <button
          key={m}
          type="button"
          role="tab"
          aria-selected={mode === m}
          className={mode === m ? 'primary' : ''}
          disabled={m === 'edit' && !canEdit}
          title={m === 'edit' && !canEdit ? t('noEditModels') : undefined}
          onClick={() => setMode(m)}
          data-testid={`image-mode-${m}`}
        >
          {t(m)}
        </button>
      ))}
    </div>
  )
}

function Form({ t, onFiles }: { t: ImageT; onFiles: (files: FileList | null) => void }) {
  const mode = useAppStore((s) => s.imageMode)
  const prompt = useAppStore((s) => s.imagePrompt)
  const setPrompt = useAppStore((s) => s.setImagePrompt)
  const controls = useAppStore(selectedControls)
  const problem = useAppStore((s) => {
    const c = selectedControls(s)
    return c ? formProblem(s, c) : undefined
  })
  const formError = useAppStore((s) => s.imageFormError)
  const dismiss = useAppStore((s) => s.dismissImageFormError)
  const submit = useAppStore((s) => s.submitImageRun)
  const showRefs = mode === 'edit' || controls?.references.accepted === true
  return (
    <form
      className="card image-form"
      onSubmit={(e) => {
        e.preventDefault()
        void submit()
      }}
    >
      <ModelControls />
      <label className="field image-prompt">
        <span>{t('prompt')}</span>
        <textarea
          value={prompt}
          rows={4}
          placeholder={t('promptPlaceholder')}
          onChange={(e) => setPrompt(e.target.value)}
          onKeyDown={(e) => {
            // Ctrl/Cmd+Enter sends, as in the other panels' text boxes.
            if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) {
              e.preventDefault()
              void submit()
            }
          }}
          data-testid="image-prompt"
        />
      </label>
      {showRefs && <ReferenceImages onFiles={onFiles} max={controls?.references.max} />}
      <div className="row">
        <button type="submit" className="primary" disabled={!controls || problem !== undefined} data-testid="image-submit">
          {t(mode === 'edit' ? 'submitEdit' : 'submitGenerate')}
        </button>
        <StatusLine />
      </div>
      {problem && <p className="muted small" data-testid="image-problem">{t(`problem_${problem}`)}</p>}
      <ErrorNote error={formError} onDismiss={dismiss} />
    </form>
  )
}

function MaskArea({ t }: { t: ImageT }) {
  const mode = useAppStore((s) => s.imageMode)
  const masks = useAppStore((s) => selectedControls(s)?.mask === true)
  const first = useAppStore((s) => s.imageReferences[0])
  const painted = useAppStore((s) => {
    const done = s.imageMask.history.done
    return done.length > 0 && done[done.length - 1].kind !== 'clear'
  })
  if (mode !== 'edit') return null
  if (!masks) return <p className="muted small" data-testid="mask-unsupported">{t('maskUnsupported')}</p>
  if (!first) return <p className="muted card" data-testid="mask-needs-image">{t('maskNeedsImage')}</p>
  return (
    <section className="card" aria-label={t('mask')}>
      <MaskEditor key={first.id} reference={first} />
      <p className="muted small">{t(painted ? 'maskPainted' : 'maskEmpty')}</p>
    </section>
  )
}
