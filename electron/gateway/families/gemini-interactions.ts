/** The Gemini Interactions family: POST /v1beta/interactions, relayed to Gemini's Interactions API. */
import type { FamilyModule } from '../contract/family.js'

export const geminiInteractionsFamily: FamilyModule = {
  name: 'gemini-interactions',
  type: 'interactions',
  defaults: {
    endpoints: ['interactions'],
  },
}
