import { describe, expect, it } from 'vitest'
import { GPT_IMAGE } from '../../../../../shared/schemas/images'
import { checkCustomSize, sizePresets } from '../../../../../renderer/panels/image-editor/size-presets'

const SEEDREAM_5 = { minRatio: '1:16', maxRatio: '16:1', minPixels: 3686400, maxPixels: 16777216 }

describe('sizePresets', () => {
  it('keeps only sizes the rule accepts', () => {
    expect(sizePresets(SEEDREAM_5)).toEqual(['2048x2048', '2560x1440', '1440x2560', '3072x2048', '2048x3072', '3840x2160', '2160x3840', '2880x2880', '4096x2304', '2304x4096', '4096x4096'])
    const gpt = sizePresets(GPT_IMAGE.size)
    expect(gpt).toContain('1024x1536')
    expect(gpt).not.toContain('4096x2304')
  })

  it('without a rule offers every preset', () => {
    expect(sizePresets(undefined).length).toBeGreaterThan(20)
  })
})

describe('checkCustomSize', () => {
  it.each([
    ['1200x800', '1200x800'],
    [' 1200 X 800 ', '1200x800'],
    ['1200×800', '1200x800'],
    ['1200*800', '1200x800'],
  ])('normalizes %j', (text, value) => {
    expect(checkCustomSize(text, GPT_IMAGE.size)).toEqual({ ok: true, value })
  })

  it.each([
    ['1200', 'format'],
    ['0x800', 'format'],
    ['01200x800', 'format'],
    ['1201x800', 'multiple'],
    ['4000x2000', 'side'],
    ['3200x800', 'ratio'],
    ['512x512', 'pixels'],
  ])('refuses %j (%s), as the gateway would', (text, problem) => {
    expect(checkCustomSize(text, GPT_IMAGE.size)).toEqual({ ok: false, problem })
  })

  it('any positive size passes when the model states no rule', () => {
    expect(checkCustomSize('7x3', undefined)).toEqual({ ok: true, value: '7x3' })
  })
})
