/** The GPT-style chat family (spec §4.1 "Code/general GPT-style group"): fields as sent, forwarded. */
import type { FamilyModule } from '../contract/family.js'

export const gptFamily: FamilyModule = {
  name: 'gpt',
  type: 'chat',
  defaults: {
    // A typical answer's tokens for the quote's `expected` (catalog _spec `typicalOutputTokens`: source and why).
    typicalOutputTokens: 1000,
    endpoints: ['chat.completions', 'responses'],
    input: ['text', 'image', 'file'],
    // GPT-5's documented output limit (128,000 tokens): a row that gives none (a new model whose limits are not yet
    // published) holds this as its worst case instead of the 100M-token ceiling, which no budget could hold.
    limits: { maxOutputTokens: 128000 },
  },
}
