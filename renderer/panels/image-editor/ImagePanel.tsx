import { useCallback, useEffect, useMemo } from 'react'
import { GroupNeedsAccount } from '../../components/NextStep'
import { ErrorNote } from '../../components/ErrorNote'
import { Segmented } from '../../components/Segmented'
import { limitsFor } from '../../components/image-fit'
import { useImageInput } from '../../components/image-input'
import { useImageIntake, type ImageIntake } from '../../components/image-intake'
import { useT } from '../../i18n'
import { useAppStore } from '../../stores/app-store'
import { CurrentRun } from './CurrentRun'
import { Gallery, LatestRunError, StatusLine } from './Gallery'
import './image-editor.css'
import { approveSpend, PriceTag } from '../../components/PriceTag'
import { useDataUrls } from '../../components/use-data-urls'
import { useQuote } from '../../components/use-quote'
import { selectedControls, selectedModel } from './images-slice'
import { MaskEditor } from './MaskEditor'
import { MAX_FEATHER } from './mask-settings'
import { ModelControls } from './ModelControls'
import { ReferenceImages } from './ReferenceImages'
import { STRINGS, type ImageT } from './strings'
import { formProblem, submissionQuote } from './submission'

/** Images: generate from a prompt, or edit reference images with an optional painted mask; the newest run above the editor, the history below. */
export function ImagePanel() {
  const t = useT(STRINGS)
  const groupId = useAppStore((s) => s.groupId)
  const load = useAppStore((s) => s.loadImageModels)
  const resume = useAppStore((s) => s.resumeImageRuns)
  const addReferences = useAppStore((s) => s.addImageReferences)
  const dataUrlMax = useAppStore((s) => selectedControls(s)?.references.dataUrlMax)
  const limits = useMemo(() => limitsFor('reference', dataUrlMax), [dataUrlMax])
  const onImages = useCallback((files: File[]) => void addReferences(files), [addReferences])
  // Dropped, pasted and picked images pass the size check first (a 6000×6000 photo waits for consent to shrink).
  const intake = useImageIntake(limits, onImages)
  const offer = useCallback((files: File[]) => void intake.offer(files), [intake.offer])
  const { handlers } = useImageInput(offer)

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
          <Form t={t} intake={intake} onImages={offer} />
          <div className="image-work">
            <CurrentRun />
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
    <Segmented
      value={mode}
      options={[{ value: 'generate', label: t('generate') }, { value: 'edit', label: t('edit') }]}
      onChange={setMode}
      label={t('title')}
      testId="image-mode"
      disabled={(m) => m === 'edit' && !canEdit}
      titles={canEdit ? {} : { edit: t('noEditModels') }}
    />
  )
}

function Form({ t, intake, onImages }: { t: ImageT; intake: ImageIntake; onImages: (files: File[]) => void }) {
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
  const submitRun = useAppStore((s) => s.submitImageRun)
  const price = useQuote(useAppStore((s) => s.groupId), useSubmissionQuote(problem === undefined))
  const submit = () => approveSpend(price.latest).then((go) => { if (go) void submitRun() })
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
      {showRefs && <ReferenceImages onImages={onImages} intake={intake} max={controls?.references.max} />}
      <div className="row">
        <button type="submit" className="primary" disabled={!controls || problem !== undefined} data-testid="image-submit">
          {t(mode === 'edit' ? 'submitEdit' : 'submitGenerate')}
        </button>
        <PriceTag state={price} />
        <StatusLine />
      </div>
      {problem && <p className="muted small" data-testid="image-problem">{t(`problem_${problem}`)}</p>}
      <LatestRunError onRetry={() => void submit()} />
      <ErrorNote error={formError} onDismiss={dismiss} />
    </form>
  )
}

/** What Generate would send, as a quote body; null while the form cannot be sent or its references are being read. */
function useSubmissionQuote(sendable: boolean) {
  const mode = useAppStore((s) => s.imageMode)
  const prompt = useAppStore((s) => s.imagePrompt)
  const params = useAppStore((s) => s.imageParams)
  const sizeText = useAppStore((s) => s.imageSizeText)
  const n = useAppStore((s) => s.imageN)
  const references = useAppStore((s) => s.imageReferences)
  const option = useAppStore(selectedModel)
  const controls = useAppStore(selectedControls)
  const takesReferences = mode === 'edit' || controls?.references.accepted === true
  const files = useMemo(() => (takesReferences ? references.map((r) => r.file) : []), [takesReferences, references])
  const urls = useDataUrls(files)
  return useMemo(() => {
    if (!sendable || !option || !controls || !urls) return null
    const form = { imageMode: mode, imagePrompt: prompt, imageParams: params, imageSizeText: sizeText, imageN: n }
    return submissionQuote(form, option, controls, urls)
  }, [sendable, option, controls, urls, mode, prompt, params, sizeText, n])
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
      <div className="row">
        <p className="muted small">{t(painted ? 'maskPainted' : 'maskEmpty')}</p>
        <FeatherField t={t} />
      </div>
    </section>
  )
}

/** The composite's edge feather for the next masked edit (pixels of linear blend just inside the mask's edge). */
function FeatherField({ t }: { t: ImageT }) {
  const feather = useAppStore((s) => s.imageFeather)
  const setFeather = useAppStore((s) => s.setFeather)
  return (
    <label className="small mask-feather" title={t('featherHint')}>
      <span>{t('feather')}</span>
      <input type="number" min={0} max={MAX_FEATHER} step={1} value={feather} onChange={(e) => setFeather(e.target.valueAsNumber)} data-testid="mask-feather" />
      <span className="muted">px</span>
    </label>
  )
}
