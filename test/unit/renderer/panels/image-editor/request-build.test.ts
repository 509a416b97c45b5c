import { describe, expect, it } from 'vitest'
import { imageModelOptions } from '../../../../../renderer/panels/image-editor/model-options'
import { commonFields, editFormData, generationBody, submitHeaders, type ImageForm } from '../../../../../renderer/panels/image-editor/request-build'
import { INDEX, listed } from './catalog-rows'

const [gpt, gemini, grok] = imageModelOptions(listed('gpt-image-2', 'gemini-3-pro-image', 'grok-imagine-image'), INDEX, {})
const form = (params: Record<string, string> = {}, n = 1): ImageForm => ({ model: 'gpt-image-2', prompt: 'a red fox', n, params })

describe('commonFields', () => {
  it('sends model, prompt, n and only the fields the controls offer', () => {
    expect(commonFields(form({ size: '1536x1024', quality: 'high', image_size: '2K', output_format: 'webp' }, 3), gpt.generations!, 'async')).toEqual({
      model: 'gpt-image-2', prompt: 'a red fox', n: 3, size: '1536x1024', quality: 'high', output_format: 'webp',
    })
  })

  it('leaves out empty choices and values outside the list', () => {
    expect(commonFields(form({ quality: '', output_format: 'gif' }), gpt.generations!, 'sync')).toEqual({ model: 'gpt-image-2', prompt: 'a red fox', n: 1 })
  })

  it('asks for the images SSE with stream, and for inline images where the model offers b64_json', () => {
    expect(commonFields(form(), gpt.generations!, 'stream').stream).toBe(true)
    expect(commonFields({ ...form(), model: 'grok-imagine-image' }, grok.generations!, 'sync').response_format).toBe('b64_json')
    expect(commonFields(form(), gpt.generations!, 'sync').response_format).toBeUndefined()
  })

  it('Gemini: image_size and aspect_ratio, never size', () => {
    expect(commonFields({ ...form({ size: '1024x1024', image_size: '2K', aspect_ratio: '16:9' }), model: 'gemini-3-pro-image' }, gemini.generations!, 'async')).toEqual({
      model: 'gemini-3-pro-image', prompt: 'a red fox', n: 1, image_size: '2K', aspect_ratio: '16:9',
    })
  })
})

describe('generationBody', () => {
  it('puts references in `image` where the model takes them (one string, or an array)', () => {
    const g = { ...form(), model: 'gemini-3-pro-image' }
    expect(generationBody(g, gemini.generations!, 'async', ['data:image/png;base64,AA']).image).toBe('data:image/png;base64,AA')
    expect(generationBody(g, gemini.generations!, 'async', ['data:a,1', 'data:b,2']).image).toEqual(['data:a,1', 'data:b,2'])
    expect(generationBody(form(), gpt.generations!, 'async', ['data:a,1']).image).toBeUndefined()
  })
})

describe('editFormData', () => {
  const png = (name: string) => ({ blob: new Blob([new Uint8Array([137, 80, 78, 71])], { type: 'image/png' }), name })

  it('one image under `image`, the mask under `mask`, fields as text', async () => {
    const data = editFormData(form({ size: '1024x1024' }, 2), gpt.edits!, 'async', [png('cat.png')], new Blob([new Uint8Array([1])], { type: 'image/png' }))
    expect(data.get('model')).toBe('gpt-image-2')
    expect(data.get('prompt')).toBe('a red fox')
    expect(data.get('n')).toBe('2')
    expect(data.get('size')).toBe('1024x1024')
    expect((data.get('image') as File).name).toBe('cat.png')
    expect(data.getAll('image[]')).toEqual([])
    const mask = data.get('mask') as File
    expect(mask.name).toBe('mask.png')
    expect(mask.type).toBe('image/png')
  })

  it('several images under `image[]`, in order', () => {
    const data = editFormData(form(), gpt.edits!, 'sync', [png('a.png'), png('b.png'), png('c.png')])
    expect(data.getAll('image[]').map((f) => (f as File).name)).toEqual(['a.png', 'b.png', 'c.png'])
    expect(data.get('image')).toBeNull()
    expect(data.get('mask')).toBeNull()
  })

  it('never sends a mask to a model without one (400 otherwise)', () => {
    const data = editFormData({ ...form(), model: 'gemini-3-pro-image' }, gemini.edits!, 'async', [png('a.png')], new Blob(['x']))
    expect(data.get('mask')).toBeNull()
  })

  it('stream as the text "true" (multipart fields are strings; the gateway coerces them)', () => {
    expect(editFormData(form(), gpt.edits!, 'stream', [png('a.png')]).get('stream')).toBe('true')
  })
})

describe('submitHeaders', () => {
  it('Prefer: respond-async only for tasks', () => {
    expect(submitHeaders('async')).toEqual({ prefer: 'respond-async' })
    expect(submitHeaders('stream')).toEqual({})
    expect(submitHeaders('sync')).toEqual({})
  })
})
