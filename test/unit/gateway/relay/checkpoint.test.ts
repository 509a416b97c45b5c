// A stream's billing checkpoints (relay/checkpoint.ts): the input as the upstream reported it first where it did
// (Anthropic's message_start), every class priced at its rate, and then the prompt is never counted; else the prompt
// counted once, at the first checkpoint. The output is counted as it goes, never below what was reported.
import { EventEmitter } from 'node:events'
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base'
import { describe, expect, it } from 'vitest'
import type { CatalogModel } from '../../../../shared/types.js'
import type { RequestContext } from '../../../../electron/gateway/context.js'
import type { ChatStreamTranslator, TokenUsage } from '../../../../electron/gateway/contract/upstream.js'
import { CHECKPOINT_BYTES, startCheckpoints } from '../../../../electron/gateway/relay/checkpoint.js'
import type { RelayPlan } from '../../../../electron/gateway/relay/relay-plan.js'
import type { Services } from '../../../../electron/gateway/services.js'
import type { Checkpoint } from '../../../../electron/gateway/store/ledger.js'

// 3 USD per 1M input tokens, 0.30 per 1M cache reads, 15 per 1M output.
const model = { id: 'test-claude', family: 'claude', type: 'chat', vendor: 'anthropic', created: 0, pricing: { unit: 'token', input: 3, cachedInput: 0.3, output: 15 } } as CatalogModel
const PROMPT = 'user\nRead this file and say what it does.'

/** A stream under way with its checkpoints: `taken` resolves with each checkpoint the ledger is given. */
function streamWith(translator: Pick<ChatStreamTranslator, 'usage' | 'usageSoFar' | 'producedText'>) {
  let promptAsked = 0
  const taken: Checkpoint[] = []
  let next: (c: Checkpoint) => void = () => {}
  const ledger = {
    openPending: () => {},
    checkpoint: (_id: string, c: Checkpoint) => {
      taken.push(c)
      next(c)
    },
  }
  const res = new EventEmitter()
  const ctx = { id: 'req_1', path: '/v1/messages', endpoint: 'messages', startedAt: performance.now(), outcome: {}, res } as unknown as RequestContext
  const plan = { billable: true, model, promptText: () => (promptAsked++, PROMPT) } as unknown as RelayPlan
  const checkpoints = startCheckpoints(ctx, { store: { ledger } } as unknown as Services, plan, translator as ChatStreamTranslator)
  return {
    /** one checkpoint, as CHECKPOINT_BYTES sent bring one (once the last one is done) */
    take: async () => {
      await new Promise((resolve) => setImmediate(resolve))
      return new Promise<Checkpoint>((resolve) => {
        next = resolve
        checkpoints.sent(CHECKPOINT_BYTES)
      })
    },
    promptAsked: () => promptAsked,
    close: () => res.emit('close'),
  }
}

describe('a stream checkpoint', () => {
  it("takes the input the upstream reported first, each class at its rate, and never asks for the prompt's text", async () => {
    let output = 'Hello from'
    const soFar: TokenUsage = { inputTokens: 12, cachedInputTokens: 90_000, outputTokens: 1 }
    const stream = streamWith({ usage: () => undefined, usageSoFar: () => soFar, producedText: () => output })
    const first = await stream.take()
    expect(first).toMatchObject({ input_tokens: 90_012, output_tokens: countTokens('Hello from'), cost_nano: 12 * 3000 + 90_000 * 300 + countTokens('Hello from') * 15_000 })
    expect(JSON.parse(first.breakdown!).map((p: { kind: string }) => p.kind)).toEqual(['input', 'cached_input', 'output'])
    output += ' the fake upstream, counted as it goes.'
    const second = await stream.take()
    expect(second).toMatchObject({ input_tokens: 90_012, output_tokens: countTokens('Hello from') + countTokens(' the fake upstream, counted as it goes.') })
    expect(stream.promptAsked()).toBe(0)
    stream.close()
  })

  it('without a reported input counts the prompt once, at the first checkpoint', async () => {
    let output = 'Hello'
    const stream = streamWith({ usage: () => undefined, producedText: () => output })
    const first = await stream.take()
    output += ' again'
    const second = await stream.take()
    expect([first.input_tokens, second.input_tokens]).toEqual([countTokens(PROMPT), countTokens(PROMPT)])
    expect(stream.promptAsked()).toBe(1)
    stream.close()
  })

  it.each([0, 1e15])('an input reported as %d (none, or out of range) is not taken: the prompt is counted', async (inputTokens) => {
    const stream = streamWith({ usage: () => undefined, usageSoFar: () => ({ inputTokens, outputTokens: 0 }), producedText: () => 'Hello' })
    expect(await stream.take()).toMatchObject({ input_tokens: countTokens(PROMPT), output_tokens: countTokens('Hello') })
    expect(stream.promptAsked()).toBe(1)
    stream.close()
  })

  it('never bills less output than the upstream had reported', async () => {
    const stream = streamWith({ usage: () => undefined, usageSoFar: () => ({ inputTokens: 9, outputTokens: 190, reasoningTokens: 185 }), producedText: () => 'There are' })
    expect(await stream.take()).toMatchObject({ input_tokens: 9, output_tokens: 190 })
    expect(stream.promptAsked()).toBe(0)
    stream.close()
  })
})
