import { describe, expect, it } from 'vitest'
import { create } from 'zustand'
import { createImagesSlice, imagesPersisted, selectedControls } from '../../../../../renderer/panels/image-editor/images-slice'
import type { ImageRun } from '../../../../../renderer/panels/image-editor/image-types'
import { imageModelOptions } from '../../../../../renderer/panels/image-editor/model-options'
import { createSessionSlice } from '../../../../../renderer/stores/session-slice'
import type { AppState } from '../../../../../renderer/stores/app-store'
import { INDEX, listed } from './catalog-rows'

const store = () => create<AppState>()((...a) => ({ ...createSessionSlice(...a), ...createImagesSlice(...a) }) as AppState)
const options = imageModelOptions(listed('kling-v3-image', 'gpt-image-2', 'gemini-3-pro-image'), INDEX, {})
const withModels = () => {
  const s = store()
  s.setState({ imageModels: { group: 'g', options, loading: false, error: null }, imageModelId: 'kling-v3-image' })
  return s
}
const stroke = (x: number) => ({ kind: 'stroke' as const, tool: 'brush' as const, radius: 3, points: [[x, x] as const] })

describe('mask history actions', () => {
  it('commit, undo, redo, clear and invert are steps of one history', () => {
    const s = store()
    const { commitMaskOp, undoMask, redoMask, clearMask, invertMask } = s.getState()
    commitMaskOp(stroke(1))
    commitMaskOp(stroke(2))
    undoMask()
    expect(s.getState().imageMask.history.done).toEqual([stroke(1)])
    redoMask()
    invertMask()
    clearMask()
    expect(s.getState().imageMask.history.done.map((o) => o.kind)).toEqual(['stroke', 'stroke', 'invert', 'clear'])
    undoMask()
    expect(s.getState().imageMask.history.done.at(-1)).toEqual({ kind: 'invert' })
  })

  it('clearing an empty or just-cleared mask adds no step', () => {
    const s = store()
    s.getState().clearMask()
    expect(s.getState().imageMask.history.done).toEqual([])
    s.getState().commitMaskOp(stroke(1))
    s.getState().clearMask()
    s.getState().clearMask()
    expect(s.getState().imageMask.history.done.length).toBe(2)
  })
})

describe('brush settings', () => {
  it('clamps size and opacity', () => {
    const s = store()
    s.getState().setBrush({ size: 9999, opacity: 3 })
    expect(s.getState().imageBrush).toMatchObject({ size: 512, opacity: 1 })
    s.getState().setBrush({ size: 0.2, opacity: -1, tool: 'eraser' })
    expect(s.getState().imageBrush).toEqual({ tool: 'eraser', size: 1, opacity: 0 })
  })
})

describe('selection settings and the raw-output switch', () => {
  it('clamps the wand tolerance and switches add/subtract', () => {
    const s = store()
    expect(s.getState().imageSelect).toEqual({ tolerance: 32, mode: 'add', busy: false, error: null })
    s.getState().setSelect({ tolerance: 300.4, mode: 'subtract' })
    expect(s.getState().imageSelect).toMatchObject({ tolerance: 255, mode: 'subtract' })
    s.getState().setSelect({ tolerance: -3 })
    expect(s.getState().imageSelect.tolerance).toBe(0)
  })

  it('keeps the feather within 0..16 whole pixels (3 by default)', () => {
    const s = store()
    expect(s.getState().imageFeather).toBe(3)
    s.getState().setFeather(40)
    expect(s.getState().imageFeather).toBe(16)
    s.getState().setFeather(-1)
    expect(s.getState().imageFeather).toBe(0)
    s.getState().setFeather(2.6)
    expect(s.getState().imageFeather).toBe(3)
    s.getState().setFeather(Number.NaN)
    expect(s.getState().imageFeather).toBe(3)
  })

  it('a region step is undone and redone like a stroke', () => {
    const s = store()
    const region = { kind: 'region' as const, mode: 'add' as const, rect: { x: 0, y: 0, width: 1, height: 1 }, bits: Uint8Array.from([1]) }
    s.getState().commitMaskOp(stroke(1))
    s.getState().commitMaskOp(region)
    s.getState().undoMask()
    expect(s.getState().imageMask.history.done).toEqual([stroke(1)])
    s.getState().redoMask()
    expect(s.getState().imageMask.history.done.at(-1)).toBe(region)
  })

  it('shows the raw output of one run only, and saves the choice with it', () => {
    const s = store()
    const run = (id: string): ImageRun => ({ id, group: 'g', createdAt: 1, mode: 'edit', model: 'm', prompt: 'p', params: {}, references: 1, masked: true, status: 'succeeded', images: [] })
    s.setState({ imageRuns: [run('a'), run('b')] })
    s.getState().setShowRaw('b', true)
    expect(s.getState().imageRuns.map((r) => r.showRaw)).toEqual([undefined, true])
    expect(imagesPersisted(s.getState()).imageRuns[1].showRaw).toBe(true)
  })
})

describe('mode and model', () => {
  it('Edit switches to a model that can edit; back in Generate the model stays', () => {
    const s = withModels()
    s.getState().setImageMode('edit')
    expect(s.getState().imageModelId).toBe('gpt-image-2')
    expect(selectedControls(s.getState())!.mask).toBe(true)
    s.getState().setImageMode('generate')
    expect(s.getState().imageModelId).toBe('gpt-image-2')
  })

  it('a new model drops values it does not accept and caps n', () => {
    const s = withModels()
    s.getState().setImageModel('gpt-image-2')
    s.getState().setImageParam('quality', 'high')
    s.getState().setImageN(8)
    s.getState().setImageSizeText('1200x800')
    s.getState().setImageModel('kling-v3-image')
    expect(s.getState().imageParams).toEqual({})
    expect(s.getState().imageN).toBe(8)
    expect(s.getState().imageSizeText).toBeNull()
    s.getState().setImageN(50)
    expect(s.getState().imageN).toBe(9)
  })
})

describe('runs', () => {
  const run = (id: string, patch: Partial<ImageRun> = {}): ImageRun => ({
    id, group: 'g', createdAt: 1, mode: 'generate', model: 'm', prompt: 'p', params: {}, references: 0, masked: false, status: 'succeeded', images: [], ...patch,
  })

  it('a saved run still marked running without a task was cut off: it fails as interrupted', () => {
    const s = store()
    s.setState({ imageRuns: [run('a', { status: 'running' }), run('b')] })
    s.getState().resumeImageRuns()
    expect(s.getState().imageRuns[0]).toMatchObject({ status: 'failed', interrupted: true })
    expect(s.getState().imageRuns[1].status).toBe('succeeded')
  })

  it('removing a run forgets its blob URLs', () => {
    const s = store()
    s.setState({ imageRuns: [run('a'), run('b')], imageBlobUrls: { 'a:0': URL.createObjectURL(new Blob(['x'])), 'b:0': 'blob:b' } })
    s.getState().removeImageRun('a')
    expect(s.getState().imageRuns.map((r) => r.id)).toEqual(['b'])
    expect(Object.keys(s.getState().imageBlobUrls)).toEqual(['b:0'])
  })

  it('the saved document holds the history, draft and brush, never references, masks or blob URLs', () => {
    const s = store()
    s.setState({ imageRuns: [run('a')], imagePrompt: 'draft', imageBlobUrls: { 'a:0': 'blob:x' } })
    const saved = imagesPersisted(s.getState())
    expect(Object.keys(saved).sort()).toEqual(['imageBrush', 'imageMode', 'imageModelId', 'imagePrompt', 'imageRuns'])
    expect(saved.imagePrompt).toBe('draft')
    expect(JSON.stringify(saved)).not.toContain('blob:')
  })
})
