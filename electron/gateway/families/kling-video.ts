/**
 * The Kling video family: one submission endpoint, answered with a task. Its request checks (tasks/video-
 * request.ts checkOrder) read the model's lists, their durations cut to the vendor's range below; a list the
 * family leaves unset is left to the vendor.
 */
import type { FamilyModule } from '../contract/family.js'

export const klingVideoFamily: FamilyModule = {
  name: 'kling-video',
  type: 'video',
  defaults: {
    endpoints: ['video.generate'],
    delivery: ['async'],
  },
  videoDurations: [
    { prefix: 'kling-v2', min: 5, max: 10, only: [5, 10], source: 'docs/vendors/kling.md: duration "5" or "10"' },
  ],
}
