/**
 * The Grok video family (xAI): one submission endpoint, answered with a task. Its request checks
 * (tasks/video-request.ts checkOrder) read the model's lists, their durations cut to the vendor's range
 * below; a list the family leaves unset is left to the vendor.
 */
import type { FamilyModule } from '../contract/family.js'

export const grokVideoFamily: FamilyModule = {
  name: 'grok-video',
  type: 'video',
  defaults: {
    endpoints: ['video.generate'],
    delivery: ['async'],
  },
  videoDurations: [
    { prefix: 'grok-imagine-video', min: 1, max: 15, source: 'docs/vendors/xai.md: duration 1–15 s' },
  ],
}
