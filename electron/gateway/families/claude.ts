/** The Claude family: the Messages protocol first, chat completions translated; fields forwarded. */
import type { FamilyModule } from '../contract/family.js'

export const claudeFamily: FamilyModule = {
  name: 'claude',
  type: 'chat',
  defaults: {
    endpoints: ['messages', 'chat.completions'],
    input: ['text', 'image', 'file'],
  },
}
