// A continued chat answer's usage chunk carries the sum of every attempt's usage: the earlier attempts' cache reads
// and cache writes (DashScope's explicit cache) are inside prompt_tokens, as the vendor counts them.
import { describe, expect, it } from 'vitest'
import { Merge } from '../../../../electron/gateway/relay/continuation-frames.js'

describe("continued chat answer's usage chunk", () => {
  it('prompt_tokens: every earlier input class (uncached, cache reads, cache writes) plus the continuation\'s own', async () => {
    const merge = new Merge('chat', false)
    const before = { inputTokens: 15, cachedInputTokens: 100, cacheWrite5mTokens: 18613, outputTokens: 40 }
    const out = await merge.all(['data: {"id":"c","choices":[],"usage":{"prompt_tokens":50,"completion_tokens":20,"total_tokens":70}}\n\n'], async () => before)
    expect(JSON.parse(out.slice('data: '.length)).usage).toEqual({ prompt_tokens: 15 + 100 + 18613 + 50, completion_tokens: 60, total_tokens: 18778 + 60 })
  })
})
