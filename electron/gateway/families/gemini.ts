/**
 * The Gemini-style chat family (spec §4.1 "Gemini-style group"). Its request rules are part of the
 * translation to Gemini's native API and live in the adapter (upstreams/gemini-request.ts); the data
 * here is the family's content kinds and reasoning_effort values.
 */
import type { FamilyModule } from '../contract/family.js'

export const geminiFamily: FamilyModule = {
  name: 'gemini',
  type: 'chat',
  defaults: {
    // A typical answer's tokens for the quote's `expected` (catalog _spec `typicalOutputTokens`: source and why).
    typicalOutputTokens: 1000,
    // n becomes candidateCount, which Gemini takes from 1 to 8 (its 400 above: "candidateCount … supported range").
    maxChoices: 8,
    endpoints: ['chat.completions'],
    input: ['text', 'image', 'video', 'file'],
    reasoningEffort: ['none', 'minimal', 'low', 'medium', 'high'],
  },
}
