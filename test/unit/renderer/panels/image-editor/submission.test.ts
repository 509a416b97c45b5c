import { describe, expect, it } from 'vitest'
import { emptyHistory } from '../../../../../renderer/canvas/history'
import type { ReferenceImage } from '../../../../../renderer/panels/image-editor/image-types'
import { imageModelOptions } from '../../../../../renderer/panels/image-editor/model-options'
import { buildSubmission, formParams, formProblem, submissionQuote, type FormState } from '../../../../../renderer/panels/image-editor/submission'
import { INDEX, listed } from './catalog-rows'

const [gpt, gemini, seedream] = imageModelOptions(listed('gpt-image-2', 'gemini-3-pro-image', 'doubao-seedream-5-5-261028'), INDEX, {})
const ref = (id: string): ReferenceImage => ({ id, file: new File([new Uint8Array([1, 2])], `${id}.png`, { type: 'image/png' }), url: `blob:${id}`, width: 64, height: 48 })
const state = (patch: Partial<FormState> = {}): FormState => ({
  imageMode: 'generate', imagePrompt: 'a fox', imageParams: {}, imageSizeText: null, imageN: 1, imageReferences: [],
  imageMask: { refId: null, history: emptyHistory() }, ...patch,
})

describe('formParams', () => {
  it('sends the model default size when none was picked, the typed size when valid', () => {
    expect(formParams(state(), gpt.generations!)).toEqual({ size: 'auto' })
    expect(formParams(state({ imageSizeText: '1200 x 800' }), gpt.generations!)).toEqual({ size: '1200x800' })
    expect(formParams(state({ imageParams: { size: '2K', quality: 'high' } }), gpt.generations!)).toEqual({ size: '2K', quality: 'high' })
    expect(formParams(state({ imageParams: { size: '2K' } }), gemini.generations!)).toEqual({})
  })
})

describe('formProblem', () => {
  it('needs a prompt, and an image to edit', () => {
    expect(formProblem(state({ imagePrompt: '  ' }), gpt.generations!)).toBe('noPrompt')
    expect(formProblem(state({ imageMode: 'edit' }), gpt.edits!)).toBe('noReference')
    expect(formProblem(state({ imageMode: 'edit', imageReferences: [ref('a')] }), gpt.edits!)).toBeUndefined()
  })

  it('refuses a typed size the model rule refuses', () => {
    expect(formProblem(state({ imageSizeText: '1000x1000' }), gpt.generations!)).toBe('badSize')
    expect(formProblem(state({ imageSizeText: '1008x1008' }), gpt.generations!)).toBeUndefined()
  })

  it('caps n by the chosen tier', () => {
    expect(formProblem(state({ imageN: 3, imageParams: { image_size: '4K' } }), gemini.generations!)).toBe('tooMany')
    expect(formProblem(state({ imageN: 5, imageParams: { image_size: '2K' } }), gemini.generations!)).toBeUndefined()
  })

  it('counts references against the model maximum', () => {
    const refs = Array.from({ length: 15 }, (_, i) => ref(`r${i}`))
    expect(formProblem(state({ imageReferences: refs }), gemini.generations!)).toBe('tooManyReferences')
  })
})

describe('buildSubmission', () => {
  it('marks the run masked only when paint covers part of the first reference', () => {
    const painted = { refId: 'a', history: { done: [{ kind: 'stroke' as const, tool: 'brush' as const, radius: 4, points: [[10, 10] as const] }], undone: [] } }
    const edit = (imageMask: FormState['imageMask']) => buildSubmission(state({ imageMode: 'edit', imageReferences: [ref('a')], imageMask }), 'g', gpt, gpt.edits!).run
    expect(edit(painted).masked).toBe(true)
    expect(edit({ ...painted, history: { done: [...painted.history.done, { kind: 'clear' }], undone: [] } }).masked).toBe(false)
    expect(edit({ ...painted, refId: 'other' }).masked).toBe(false)
    // Gemini edits take no mask, whatever was painted.
    expect(buildSubmission(state({ imageMode: 'edit', imageReferences: [ref('a')], imageMask: painted }), 'g', gemini, gemini.edits!).run.masked).toBe(false)
  })

  it('keeps the mask it sends, with the reference it was painted on, for the composite', () => {
    const painted = { refId: 'a', history: { done: [{ kind: 'stroke' as const, tool: 'brush' as const, radius: 0.5, points: [[3.5, 2.5] as const] }], undone: [] } }
    const first = ref('a')
    const { masked } = buildSubmission(state({ imageMode: 'edit', imageReferences: [first], imageMask: painted }), 'g', gpt, gpt.edits!)
    expect(masked!.reference).toBe(first.file)
    expect([masked!.mask.width, masked!.mask.height]).toEqual([first.width, first.height])
    expect([...masked!.mask.coverage.keys()].filter((i) => masked!.mask.coverage[i])).toEqual([2 * first.width + 3])
    expect(buildSubmission(state({ imageMode: 'edit', imageReferences: [first], imageMask: painted }), 'g', gemini, gemini.edits!).masked).toBeUndefined()
  })

  it("compares an edit's result with its first reference, masked or not; a generation has nothing to compare with", () => {
    const first = ref('a')
    expect(buildSubmission(state({ imageMode: 'edit', imageReferences: [first, ref('b')] }), 'g', gemini, gemini.edits!).before).toBe(first.file)
    expect(buildSubmission(state({ imageReferences: [first] }), 'g', gemini, gemini.generations!).before).toBeUndefined()
  })

  it('a generation: JSON body, the delivery of the family, a running run record', async () => {
    const { run, request } = buildSubmission(state({ imageN: 2, imageParams: { quality: 'low' } }), 'g1', gpt, gpt.generations!)
    const submission = await request()
    expect(submission).toEqual({ group: 'g1', endpoint: 'generations', delivery: 'async', body: { model: 'gpt-image-2', prompt: 'a fox', n: 2, size: 'auto', quality: 'low' } })
    expect(run).toMatchObject({ group: 'g1', mode: 'generate', model: 'gpt-image-2', prompt: 'a fox', params: { n: 2, size: 'auto', quality: 'low' }, status: 'running', references: 0, masked: false, images: [] })
  })

  it('an edit without paint sends no mask; Seedream edits stream', async () => {
    const s = state({ imageMode: 'edit', imageReferences: [ref('a'), ref('b')], imageMask: { refId: 'a', history: emptyHistory() } })
    const { run, request } = buildSubmission(s, 'g1', gpt, gpt.edits!)
    const submission = await request()
    const body = submission.body as FormData
    expect(submission.endpoint).toBe('edits')
    expect(body.getAll('image[]').map((f) => (f as File).name)).toEqual(['a.png', 'b.png'])
    expect(body.get('mask')).toBeNull()
    expect(run.masked).toBe(false)
    expect(run.references).toBe(2)
    const sd = await buildSubmission({ ...s, imageReferences: [ref('a')] }, 'g1', seedream, seedream.edits!).request()
    expect(sd.delivery).toBe('stream')
    expect((sd.body as FormData).get('stream')).toBe('true')
  })
})

describe('submissionQuote', () => {
  it('prices the generation body, n and size included', () => {
    const quote = submissionQuote(state({ imageN: 3, imageParams: { image_size: '2K' } }), gemini, gemini.generations!, [])
    expect(quote.endpoint).toBe('/v1/images/generations')
    expect(quote.request).toMatchObject({ model: 'gemini-3-pro-image', prompt: 'a fox', n: 3, image_size: '2K' })
  })

  it('prices an edit in its JSON form, the references as data URLs', () => {
    const quote = submissionQuote(state({ imageMode: 'edit' }), gpt, gpt.edits!, ['data:image/png;base64,AA=='])
    expect(quote).toMatchObject({ endpoint: '/v1/images/edits', request: { model: 'gpt-image-2', prompt: 'a fox', n: 1, image: ['data:image/png;base64,AA=='] } })
  })
})
