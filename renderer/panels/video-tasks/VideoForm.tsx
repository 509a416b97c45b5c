import { useCallback, useMemo } from 'react'
import { ErrorNote } from '../../components/ErrorNote'
import { useImageInput } from '../../components/image-input'
import { quoteBody } from '../../api/quote'
import { approveSpend, PriceTag } from '../../components/PriceTag'
import { useQuote } from '../../components/use-quote'
import { useT } from '../../i18n'
import { useAppStore } from '../../stores/app-store'
import { STRINGS, type VideoT } from './strings'
import { videoBody, videoFormProblem, type VideoControls, type VideoForm as Form } from './video-options'
import { videoControlsOf } from './video-slice'
import { ImageFileInput } from '../../components/ImageFileInput'

/** The submission form: model, prompt, picture(s) and the values the model accepts. */
export function VideoForm() {
  const t = useT(STRINGS)
  const form = useAppStore((s) => s.videoForm)
  const models = useAppStore((s) => s.videoModels)
  const setForm = useAppStore((s) => s.setVideoForm)
  const setImage = useAppStore((s) => s.setVideoImage)
  const submitVideo = useAppStore((s) => s.submitVideo)
  const sending = useAppStore((s) => s.videoSubmissions.some((x) => x.state === 'pending'))
  const selected = videoControlsOf({ videoForm: form, videoModels: models })
  const controls = selected?.controls ?? null
  const takesImage = (controls?.imageRoles.length ?? 0) > 0
  const onImages = useCallback((files: File[]) => void setImage('image', files[0]), [setImage])
  const { addFiles, handlers } = useImageInput(onImages)
  const problem = videoFormProblem(form, controls)
  const body = useMemo(() => (problem === null ? quoteBody('/v1/video/generate', { ...videoBody(form) }) : null), [problem, form])
  const price = useQuote(useAppStore((s) => s.groupId), body)
  const submit = () => approveSpend(price.latest).then((go) => { if (go) void submitVideo() })

  if (models.loading && models.options.length === 0) return <p className="muted">{t('loadingModels')}</p>
  if (models.error) return <ErrorNote error={models.error} />
  if (models.options.length === 0) return <p className="muted">{t('noModels')}</p>
  return (
    <form className="card video-form" {...(takesImage ? handlers : {})} onSubmit={(e) => { e.preventDefault(); void submit() }}>
      <div className="row">
        <label>
          <span>{t('model')}</span>
          <select value={form.modelId ?? ''} onChange={(e) => setForm({ modelId: e.target.value })} data-testid="video-model">
            {models.options.map((o) => <option key={o.id} value={o.id}>{o.id}</option>)}
          </select>
        </label>
      </div>
      <textarea
        rows={3} value={form.prompt} placeholder={t('promptPlaceholder')} aria-label={t('prompt')} disabled={controls?.text === false && !takesImage}
        onChange={(e) => setForm({ prompt: e.target.value })} data-testid="video-prompt"
      />
      {takesImage && controls && <ImageInputs t={t} form={form} controls={controls} addFiles={addFiles} />}
      {controls && <ValueControls t={t} form={form} controls={controls} />}
      <div className="row">
        <button type="submit" className="primary" disabled={problem !== null || sending} data-testid="video-submit">
          {sending ? t('submitting') : t('submit')}
        </button>
        {problem && <span className="muted small" data-testid="video-problem">{t(`problem_${problem}`)}</span>}
        {!problem && <PriceTag state={price} />}
      </div>
    </form>
  )
}

function ImageInputs({ t, form, controls, addFiles }: { t: VideoT; form: Form; controls: VideoControls; addFiles: (f: FileList | null) => void }) {
  const setForm = useAppStore((s) => s.setVideoForm)
  const setImage = useAppStore((s) => s.setVideoImage)
  return (
    <div className="row video-images">
      <label className="video-drop">
        <span>{t('image')}</span>
        {form.image ? <img src={form.image} alt="" className="video-thumb" /> : <span className="muted small">{t('imageHelp')}</span>}
        <ImageFileInput onFiles={addFiles} testId="video-image" />
      </label>
      {form.image && <button type="button" className="link" onClick={() => setForm({ image: null, lastFrame: null })}>{t('removeImage')}</button>}
      {controls.imageRoles.length > 1 && (
        <label>
          <span>{t('imageRole')}</span>
          <select value={form.imageRole} onChange={(e) => setForm({ imageRole: e.target.value as Form['imageRole'] })} data-testid="video-image-role">
            {controls.imageRoles.map((r) => <option key={r} value={r}>{t(`role_${r}`)}</option>)}
          </select>
        </label>
      )}
      {controls.lastFrame && form.image && form.imageRole === 'first_frame' && (
        <label className="video-drop">
          <span>{t('lastFrame')}</span>
          {form.lastFrame && <img src={form.lastFrame} alt="" className="video-thumb" />}
          <ImageFileInput onFiles={(files) => void setImage('lastFrame', files?.[0] ?? null)} testId="video-last-frame" />
        </label>
      )}
    </div>
  )
}

/** Duration, resolution and aspect ratio: lists where the catalog gives them, free fields where it does not. */
function ValueControls({ t, form, controls }: { t: VideoT; form: Form; controls: VideoControls }) {
  const setForm = useAppStore((s) => s.setVideoForm)
  return (
    <div className="row">
      <label>
        <span>{t('resolution')}</span>
        {controls.resolutions ? (
          <select value={form.resolution} onChange={(e) => setForm({ resolution: e.target.value })} data-testid="video-resolution">
            <option value="">{t('modelDefault')}</option>
            {controls.resolutions.map((r) => <option key={r} value={r}>{r}</option>)}
          </select>
        ) : (
          <input value={form.resolution} onChange={(e) => setForm({ resolution: e.target.value.trim() })} placeholder="720p" size={8} data-testid="video-resolution" />
        )}
      </label>
      <label>
        <span>{t('duration')}</span>
        {controls.durations ? (
          <select value={form.duration} onChange={(e) => setForm({ duration: e.target.value })} data-testid="video-duration">
            <option value="">{t('modelDefault')}</option>
            {controls.durations.map((d) => <option key={d} value={String(d)}>{t('seconds', { n: d })}</option>)}
          </select>
        ) : (
          <input type="number" min={1} step={1} value={form.duration} title={t('durationFree')} placeholder={t('modelDefault')}
            onChange={(e) => setForm({ duration: e.target.value })} className="video-number" data-testid="video-duration" />
        )}
      </label>
      <label>
        <span>{t('aspectRatio')}</span>
        {controls.aspectRatios ? (
          <select value={form.aspectRatio} onChange={(e) => setForm({ aspectRatio: e.target.value })} data-testid="video-aspect">
            <option value="">{t('modelDefault')}</option>
            {controls.aspectRatios.map((r) => <option key={r} value={r}>{r}</option>)}
          </select>
        ) : (
          <input value={form.aspectRatio} title={t('aspectFree')} placeholder="16:9" size={6}
            onChange={(e) => setForm({ aspectRatio: e.target.value.trim() })} data-testid="video-aspect" />
        )}
      </label>
    </div>
  )
}
