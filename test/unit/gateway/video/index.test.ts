import { describe, expect, it } from 'vitest'
import { loadBuiltinModels } from '../../../../electron/gateway/catalog/catalog.js'
import { videoAdapterFor } from '../../../../electron/gateway/upstreams/video/index.js'

describe('videoAdapterFor', () => {
  it('has an adapter for the vendor of every video model in the catalog', () => {
    const video = loadBuiltinModels().filter((m) => m.type === 'video')
    expect(video.length).toBeGreaterThan(0)
    for (const m of video) expect(videoAdapterFor(m.vendor), m.id).toBeDefined()
  })

  it('has none for vendors without video', () => {
    expect(videoAdapterFor('anthropic')).toBeUndefined()
    expect(videoAdapterFor('openai')).toBeUndefined()
  })

  it('offers the file step only where the vendor needs it (MiniMax)', () => {
    expect(videoAdapterFor('minimax')!.toFile).toBeTypeOf('function')
    for (const v of ['ark', 'kling', 'dashscope', 'xai'] as const) expect(videoAdapterFor(v)!.toFile).toBeUndefined()
  })
})
