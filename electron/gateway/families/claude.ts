/** The Claude family: the Messages protocol first, chat completions translated; fields forwarded. */
import type { FamilyModule } from '../contract/family.js'

export const claudeFamily: FamilyModule = {
  name: 'claude',
  type: 'chat',
  defaults: {
    // A typical answer's tokens for the quote's `expected` (catalog _spec `typicalOutputTokens`: source and why).
    typicalOutputTokens: 1000,
    endpoints: ['messages', 'chat.completions'],
    input: ['text', 'image', 'file'],
  },
}
