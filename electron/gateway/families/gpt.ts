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
  },
}
