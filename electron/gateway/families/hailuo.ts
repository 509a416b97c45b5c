/**
 * The Hailuo video family (MiniMax): one submission endpoint, answered with a task. Its request checks
 * (tasks/video-request.ts checkOrder) read the model's lists, their durations cut to the vendor's range
 * below; a list the family leaves unset is left to the vendor.
 */
import type { FamilyModule } from '../contract/family.js'

export const hailuoFamily: FamilyModule = {
  name: 'hailuo',
  type: 'video',
  defaults: {
    endpoints: ['video.generate'],
    delivery: ['async'],
  },
  videoDurations: [
    { prefix: 'MiniMax-Hailuo-', min: 6, max: 10, only: [6, 10], source: 'docs/vendors/minimax.md: 6 or 10 (10 s not at 1080P: maxDurationByResolution)' },
    { prefix: 'MiniMax-H3', min: 4, max: 15, source: 'docs/vendors/minimax.md v2 contract: duration 4..15' },
  ],
}
