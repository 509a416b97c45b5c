import { useShallow } from 'zustand/react/shallow'
import { ErrorNote } from '../../components/ErrorNote'
import { useT } from '../../i18n'
import { useAppStore } from '../../stores/app-store'
import { selectedControls, selectedModel } from './images-slice'
import { deliveryOf, effectiveNMax, type ChoiceControl, type SizeControl } from './model-options'
import { checkCustomSize } from './size-presets'
import { STRINGS, type ImageT } from './strings'
import { formParams } from './submission'

const CUSTOM = '__custom'

/** Model picker and the fields that model accepts (size, tiers, ratios, quality, format, number of images). */
export function ModelControls() {
  const t = useT(STRINGS)
  const models = useAppStore((s) => s.imageModels)
  const mode = useAppStore((s) => s.imageMode)
  const modelId = useAppStore((s) => s.imageModelId)
  const setModel = useAppStore((s) => s.setImageModel)
  const option = useAppStore(selectedModel)
  const controls = useAppStore(selectedControls)
  const ids = useAppStore(useShallow((s) => s.imageModels.options.filter((m) => (s.imageMode === 'edit' ? m.edits : m.generations)).map((m) => m.id)))

  if (models.error) return <ErrorNote error={models.error} />
  if (models.loading && models.options.length === 0) return <p className="muted">{t('loadingModels')}</p>
  if (ids.length === 0) return <p className="muted" data-testid="image-no-models">{t(mode === 'edit' ? 'noEditModels' : 'noModels')}</p>
  return (
    <div className="image-controls">
      <label className="field">
        <span>{t('model')}</span>
        <select value={modelId ?? ''} onChange={(e) => setModel(e.target.value)} data-testid="image-model">
          {ids.map((id) => (
            <option key={id} value={id}>{id}</option>
          ))}
        </select>
      </label>
      {controls?.size && <SizeField size={controls.size} t={t} />}
      {controls?.choices.map((c) => <ChoiceField key={c.field} choice={c} t={t} />)}
      <NField t={t} />
      {option && controls && <span className="badge" data-testid="image-delivery">{t(`delivery_${deliveryOf(option.delivery, controls)}`)}</span>}
    </div>
  )
}

function SizeField({ size, t }: { size: SizeControl; t: ImageT }) {
  const value = useAppStore((s) => s.imageParams.size ?? '')
  const text = useAppStore((s) => s.imageSizeText)
  const setParam = useAppStore((s) => s.setImageParam)
  const setText = useAppStore((s) => s.setImageSizeText)
  const check = text === null ? undefined : checkCustomSize(text, size.rule)
  const onSelect = (v: string) => {
    if (v === CUSTOM) return setText(value || '')
    setText(null)
    setParam('size', v)
  }
  return (
    <div className="field">
      <label className="field">
        <span>{t('size')}</span>
        <select value={text !== null ? CUSTOM : value || size.default} onChange={(e) => onSelect(e.target.value)} data-testid="image-size">
          {size.options.map((o) => (
            <option key={o} value={o}>{o}</option>
          ))}
          {size.custom && <option value={CUSTOM}>{t('sizeCustom')}</option>}
        </select>
      </label>
      {text !== null && (
        <input value={text} onChange={(e) => setText(e.target.value)} placeholder={t('sizeCustomPlaceholder')} aria-invalid={check?.ok === false} data-testid="image-size-custom" />
      )}
      {check && !check.ok && (
        <span className="small error-text" data-testid="image-size-problem">
          {t(`size_${check.problem}`, { ...size.rule } as Record<string, string | number>)}
        </span>
      )}
    </div>
  )
}

function ChoiceField({ choice, t }: { choice: ChoiceControl; t: ImageT }) {
  const value = useAppStore((s) => s.imageParams[choice.field] ?? '')
  const setParam = useAppStore((s) => s.setImageParam)
  const label = `field_${choice.field}` as Parameters<ImageT>[0]
  return (
    <label className="field">
      <span>{t(label)}</span>
      <select value={value} onChange={(e) => setParam(choice.field, e.target.value)} data-testid={`image-${choice.field.replace(/_/g, '-')}`}>
        <option value="">{choice.default ? t('defaultIs', { value: choice.default }) : t('default')}</option>
        {choice.values.map((v) => (
          <option key={v} value={v}>{v}</option>
        ))}
      </select>
    </label>
  )
}

function NField({ t }: { t: ImageT }) {
  const n = useAppStore((s) => s.imageN)
  const setN = useAppStore((s) => s.setImageN)
  const max = useAppStore((s) => {
    const controls = selectedControls(s)
    return controls ? effectiveNMax(controls, formParams(s, controls)) : 1
  })
  return (
    <label className="field">
      <span>{t('n')}</span>
      <input type="number" min={1} max={max} step={1} value={n} disabled={max <= 1 && n <= 1} onChange={(e) => setN(e.target.valueAsNumber)} data-testid="image-n" />
      <span className="muted small">{t('nMax', { max })}</span>
    </label>
  )
}
