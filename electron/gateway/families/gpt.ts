/** The GPT-style chat family (spec §4.1 "Code/general GPT-style group"): fields as sent, forwarded. */
import type { FamilyModule } from '../contract/family.js'

export const gptFamily: FamilyModule = {
  name: 'gpt',
  type: 'chat',
  defaults: {
    endpoints: ['chat.completions', 'responses'],
    input: ['text', 'image', 'file'],
  },
}
