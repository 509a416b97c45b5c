import { useCallback, useMemo } from 'react'
import { DropZone } from '../../components/DropZone'
import { ErrorNote } from '../../components/ErrorNote'
import { limitsFor } from '../../components/image-fit'
import { useImageInput } from '../../components/image-input'
import { quoteBody } from '../../api/quote'
import { approveSpend, PriceTag } from '../../components/PriceTag'
import { useQuote } from '../../components/use-quote'
import { useImageIntake, type ImageIntake } from '../../components/image-intake'
import { ImageIntakeNotice } from '../../components/ImageIntakeNotice'
import { useT } from '../../i18n'
import { useAppStore } from '../../stores/app-store'
import { STRINGS, type VideoT } from './strings'
import { videoBody, videoFormProblem, type VideoControls, type VideoForm as Form } from './video-options'
import { videoControlsOf } from './video-slice'

const VIDEO_IMAGE_LIMITS = limitsFor('video')

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
  const onLastFrame = useCallback((files: File[]) => void setImage('lastFrame', files[0]), [setImage])
  // Frames pass the size check first: a picture too large waits for consent to shrink.
  const intake = useImageIntake(VIDEO_IMAGE_LIMITS, onImages)
  const lastFrameIntake = useImageIntake(VIDEO_IMAGE_LIMITS, onLastFrame)
  const offer = useCallback((files: File[]) => void intake.offer(files.slice(0, 1)), [intake.offer])
  const offerLastFrame = useCallback((files: File[]) => void lastFrameIntake.offer(files.slice(0, 1)), [lastFrameIntake.offer])
  const { handlers } = useImageInput(offer)
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
      {takesImage && controls && (
        <ImageInputs t={t} form={form} controls={controls} image={{ intake, offer }} lastFrame={{ intake: lastFrameIntake, offer: offerLastFrame }} />
      )}
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

interface FrameInput {
  intake: ImageIntake
  offer: (files: File[]) => void
}

function ImageInputs({ t, form, controls, image, lastFrame }: { t: VideoT; form: Form; controls: VideoControls; image: FrameInput; lastFrame: FrameInput }) {
  const setForm = useAppStore((s) => s.setVideoForm)
  return (
    <div className="row video-images">
      <div className="video-drop">
        <span>{t('image')}</span>
        <ImageIntakeNotice intake={image.intake} />
        <DropZone onImages={image.offer} testId="video-image">
          {form.image && <img src={form.image} alt="" className="video-thumb" />}
        </DropZone>
      </div>
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
        <div className="video-drop">
          <span>{t('lastFrame')}</span>
          <ImageIntakeNotice intake={lastFrame.intake} />
          <DropZone onImages={lastFrame.offer} testId="video-last-frame">
            {form.lastFrame && <img src={form.lastFrame} alt="" className="video-thumb" />}
          </DropZone>
        </div>
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
