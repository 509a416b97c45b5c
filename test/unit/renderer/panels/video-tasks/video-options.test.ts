import { describe, expect, it } from 'vitest'
import {
  EMPTY_FORM, fitVideoForm, videoBody, videoControls, videoFormProblem, videoOption, type PricingEntry, type VideoForm,
} from '../../../../../renderer/panels/video-tasks/video-options'

const HAILUO: PricingEntry = {
  model: 'MiniMax-Hailuo-02', type: 'video', family: 'hailuo', pricing: { unit: 'second', price: 0.0467, byResolution: { '512p': 0.0167, '768p': 0.0467, '1080p': 0.0817 } },
  durations: [6, 10], resolutions: ['512p', '768p', '1080p'], aspectRatios: ['16:9'], modes: ['t2v', 'i2v', 'first-last-frame'],
  maxDurationByResolution: { '1080p': 6 },
}
const I2V_ONLY: PricingEntry = { model: 'wan2.7-i2v', type: 'video', family: 'wan', pricing: { unit: 'second', price: 0.1 }, modes: ['i2v'] }
const PRICE_ONLY: PricingEntry = { model: 'kling-v3', type: 'video', family: 'kling-video', pricing: { unit: 'second', price: 0.112, byResolution: { '720p': 0.084, '1080p': 0.112 } } }
const form = (patch: Partial<VideoForm>): VideoForm => ({ ...EMPTY_FORM, ...patch })
const PNG = 'data:image/png;base64,AA=='

describe('video options', () => {
  it('reads the catalog fields of a model', () => {
    const o = videoOption({ id: 'MiniMax-Hailuo-02', family: 'hailuo' }, HAILUO)
    expect(o).toMatchObject({ resolutions: ['512p', '768p', '1080p'], durations: [6, 10], aspectRatios: ['16:9'], modes: ['t2v', 'i2v', 'first-last-frame'] })
  })

  it('falls back to the priced resolutions, and leaves the rest free where the catalog says nothing', () => {
    const o = videoOption({ id: 'kling-v3', family: 'kling-video' }, PRICE_ONLY)
    expect(o).toMatchObject({ resolutions: ['720p', '1080p'], durations: null, aspectRatios: null, modes: null })
    const c = videoControls(o, '')
    expect(c).toMatchObject({ text: true, imageRoles: ['first_frame', 'reference'], lastFrame: true, imageRequired: false })
    expect(videoOption({ id: 'x', family: 'f' }, undefined).resolutions).toBe(null)
  })

  it('offers only what the modes allow', () => {
    const hailuo = videoControls(videoOption({ id: 'h', family: 'hailuo' }, HAILUO), '')
    expect(hailuo).toMatchObject({ text: true, imageRoles: ['first_frame'], lastFrame: true, imageRequired: false })
    const i2v = videoControls(videoOption({ id: 'w', family: 'wan' }, I2V_ONLY), '')
    expect(i2v).toMatchObject({ text: false, imageRoles: ['first_frame'], lastFrame: false, imageRequired: true })
    const t2v = videoControls(videoOption({ id: 'w', family: 'wan' }, { ...I2V_ONLY, modes: ['t2v'] }), '')
    expect(t2v).toMatchObject({ text: true, imageRoles: [], lastFrame: false })
  })

  it('cuts the durations to the resolution\'s cap', () => {
    const o = videoOption({ id: 'h', family: 'hailuo' }, HAILUO)
    expect(videoControls(o, '768p').durations).toEqual([6, 10])
    expect(videoControls(o, '1080p').durations).toEqual([6])
  })

  it('clears what a newly chosen model does not take', () => {
    const o = videoOption({ id: 'h', family: 'hailuo' }, HAILUO)
    const fitted = fitVideoForm(form({ resolution: '1080p', duration: '10', aspectRatio: '9:16', imageRole: 'reference', image: PNG, lastFrame: PNG }), videoControls(o, '1080p'))
    expect(fitted).toMatchObject({ resolution: '1080p', duration: '', aspectRatio: '', imageRole: 'first_frame', image: PNG, lastFrame: PNG })
    const t2v = videoControls(videoOption({ id: 'w', family: 'wan' }, { ...I2V_ONLY, modes: ['t2v'] }), '')
    expect(fitVideoForm(form({ image: PNG, lastFrame: PNG }), t2v)).toMatchObject({ image: null, lastFrame: null })
    const free = videoControls(videoOption({ id: 'k', family: 'kling-video' }, PRICE_ONLY), '')
    expect(fitVideoForm(form({ duration: '7', aspectRatio: '4:3' }), free)).toMatchObject({ duration: '7', aspectRatio: '4:3' })
  })

  it('says what is missing', () => {
    const o = videoOption({ id: 'h', family: 'hailuo' }, HAILUO)
    const c = videoControls(o, '')
    expect(videoFormProblem(form({}), c)).toBe('noModel')
    expect(videoFormProblem(form({ modelId: 'h' }), null)).toBe('noModel')
    expect(videoFormProblem(form({ modelId: 'h', prompt: '  ' }), c)).toBe('noInput')
    expect(videoFormProblem(form({ modelId: 'h', prompt: 'a cat' }), c)).toBe(null)
    expect(videoFormProblem(form({ modelId: 'h', image: PNG }), c)).toBe(null)
    const i2v = videoControls(videoOption({ id: 'w', family: 'wan' }, I2V_ONLY), '')
    expect(videoFormProblem(form({ modelId: 'w', prompt: 'a cat' }), i2v)).toBe('imageRequired')
    const none = videoControls(videoOption({ id: 'e', family: 'x' }, { ...I2V_ONLY, modes: ['edit'] }), '')
    expect(videoFormProblem(form({ modelId: 'e', prompt: 'a cat' }), none)).toBe('unsupported')
  })

  it('builds the body with only the fields set', () => {
    expect(videoBody(form({ modelId: 'm', prompt: ' a cat ' }))).toEqual({ model: 'm', prompt: 'a cat' })
    expect(videoBody(form({ modelId: 'm', image: PNG, lastFrame: 'data:image/png;base64,BB==', duration: '6', resolution: '768p', aspectRatio: '16:9' }))).toEqual({
      model: 'm', images: [{ role: 'first_frame', url: PNG }, { role: 'last_frame', url: 'data:image/png;base64,BB==' }],
      duration: 6, resolution: '768p', aspect_ratio: '16:9',
    })
    expect(videoBody(form({ modelId: 'm', prompt: 'p', image: PNG, imageRole: 'reference', lastFrame: PNG })).images).toEqual([{ role: 'reference', url: PNG }])
  })
})
