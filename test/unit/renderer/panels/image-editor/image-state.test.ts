import { describe, expect, it } from 'vitest'
import { emptyHistory, pushHistory } from '../../../../../renderer/canvas/history'
import type { MaskOp } from '../../../../../renderer/canvas/mask-ops'
import type { ImageRun, ReferenceImage } from '../../../../../renderer/panels/image-editor/image-types'
import { modeFor, modelFor, readyToSend } from '../../../../../renderer/panels/image-editor/image-form'
import { withClear } from '../../../../../renderer/panels/image-editor/mask-settings'
import { imageModelOptions } from '../../../../../renderer/panels/image-editor/model-options'
import { maskFor, withReferenceFirst } from '../../../../../renderer/panels/image-editor/references'
import { compositePatched, MAX_RUNS, withNewRun, withoutRunBlobs } from '../../../../../renderer/panels/image-editor/run-history'
import { endedNotice, runFailed, unfinishedRuns } from '../../../../../renderer/panels/image-editor/run-status'
import { INDEX, listed } from './catalog-rows'

const run = (id: string, patch: Partial<ImageRun> = {}): ImageRun => ({
  id, group: 'g', createdAt: 1000, mode: 'generate', model: 'm', prompt: 'p', params: {}, references: 0, masked: false, status: 'succeeded', images: [], ...patch,
})
const ref = (id: string): ReferenceImage => ({ id, file: new File([], `${id}.png`), url: `blob:${id}`, width: 1, height: 1 })

describe('run history', () => {
  it('keeps the newest MAX_RUNS runs, newest first', () => {
    const runs = Array.from({ length: MAX_RUNS }, (_, i) => run(`r${i}`))
    const next = withNewRun(runs, run('new'))
    expect(next.length).toBe(MAX_RUNS)
    expect(next[0].id).toBe('new')
    expect(next.at(-1)!.id).toBe(`r${MAX_RUNS - 2}`)
  })

  it('takes out exactly the object URLs of one run', () => {
    const { kept, dropped } = withoutRunBlobs({ 'a:0': 'blob:1', 'a:0:composite': 'blob:2', 'a:reference': 'blob:3', 'ab:0': 'blob:4' }, 'a')
    expect(dropped.sort()).toEqual(['blob:1', 'blob:2', 'blob:3'])
    expect(kept).toEqual({ 'ab:0': 'blob:4' })
  })

  it('a composite patch starts pending and keeps what earlier patches set', () => {
    const first = compositePatched(run('a', { images: [{ mimeType: 'image/png', keep: 'kept' }] }), 0, { stats: { outside: 4, changedByModel: 1, keptByComposite: 1 } })
    expect(first.images[0].composite).toMatchObject({ state: 'pending', stats: { changedByModel: 1 } })
    expect(compositePatched(first, 0, { state: 'kept', mediaId: 'm' }).images[0].composite).toMatchObject({ state: 'kept', mediaId: 'm', stats: { changedByModel: 1 } })
  })
})

describe('run status', () => {
  it('a failure ends the run and its phase', () => {
    expect(runFailed(run('a', { status: 'running', phase: 'waiting' }), { status: 502, code: 'upstream_error', message: 'x' }, 5)).toMatchObject({ status: 'failed', phase: undefined, finishedAt: 5 })
  })

  it('a run still running gets no notice; an ended one says which and how long it took', () => {
    expect(endedNotice(run('a', { status: 'running' }), 9000)).toBeUndefined()
    expect(endedNotice(undefined, 9000)).toBeUndefined()
    expect(endedNotice(run('a', { status: 'failed', finishedAt: 4000 }), 9000)).toEqual({ kind: 'imageFailed', model: 'm', prompt: 'p', elapsedMs: 3000 })
    expect(endedNotice(run('a'), 9000)).toMatchObject({ kind: 'imageDone', elapsedMs: 8000 })
  })

  it('unfinished runs are those marked running that this session is not carrying out', () => {
    const runs = [run('a', { status: 'running' }), run('b', { status: 'running' }), run('c')]
    expect(unfinishedRuns(runs, new Set(['b'])).map((r) => r.id)).toEqual(['a'])
  })
})

describe('references and the mask', () => {
  it('a new first reference starts a new mask; the same first keeps it', () => {
    const mask = { refId: 'a', history: pushHistory(emptyHistory<MaskOp>(), { kind: 'invert' }) }
    expect(maskFor(mask, [ref('a'), ref('b')])).toBe(mask)
    expect(maskFor(mask, [ref('b'), ref('a')])).toEqual({ refId: 'b', history: emptyHistory() })
    expect(maskFor(mask, [])).toEqual({ refId: null, history: emptyHistory() })
  })

  it('moves a reference first, or says there is none', () => {
    expect(withReferenceFirst([ref('a'), ref('b'), ref('c')], 'c')!.map((r) => r.id)).toEqual(['c', 'a', 'b'])
    expect(withReferenceFirst([ref('a')], 'x')).toBeUndefined()
  })

  it('a clear step is added only over something to clear', () => {
    const empty = emptyHistory<never>()
    expect(withClear(empty)).toBe(empty)
    const cleared = withClear(pushHistory(emptyHistory(), { kind: 'invert' }))
    expect(cleared.done.map((o) => o.kind)).toEqual(['invert', 'clear'])
    expect(withClear(cleared)).toBe(cleared)
  })
})

describe('the form', () => {
  const options = imageModelOptions(listed('kling-v3-image', 'gpt-image-2'), INDEX, {})
  const form = {
    imageMode: 'generate' as const, imageModelId: 'gpt-image-2', imageModels: { options }, imagePrompt: 'a cat', imageParams: {}, imageSizeText: null,
    imageN: 1, imageReferences: [], imageMask: { refId: null, history: emptyHistory<MaskOp>() }, groupId: 'g' as string | null,
  }

  it('Edit needs a model that edits; the model follows the mode', () => {
    expect(modeFor(options, 'edit')).toBe('edit')
    expect(modeFor(options.filter((m) => !m.edits), 'edit')).toBe('generate')
    expect(modelFor(options, 'edit', 'kling-v3-image')).toBe('gpt-image-2')
    expect(modelFor(options, 'generate', 'kling-v3-image')).toBe('kling-v3-image')
  })

  it('is ready to send with a group, a model and nothing wrong with it', () => {
    expect(readyToSend(form)).toMatchObject({ group: 'g', option: { id: 'gpt-image-2' } })
    expect(readyToSend({ ...form, imagePrompt: ' ' })).toBeUndefined()
    expect(readyToSend({ ...form, groupId: null })).toBeUndefined()
    expect(readyToSend({ ...form, imageModelId: 'missing' })).toBeUndefined()
  })
})
