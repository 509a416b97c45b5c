/**
 * The Wan video family (DashScope): the gateway's submission endpoint and DashScope's native path (POST
 * /api/v1/services/aigc/video-generation/video-synthesis), both answered with a task. Its request checks
 * (tasks/video-request.ts checkOrder) read the model's lists, their durations cut to the vendor's range
 * below; a list the family leaves unset is left to the vendor.
 */
import type { FamilyModule } from '../contract/family.js'

export const wanFamily: FamilyModule = {
  name: 'wan',
  type: 'video',
  defaults: {
    endpoints: ['video.generate', 'video.native'],
    delivery: ['async'],
  },
  videoDurations: [
    { prefix: 'wan2.6-i2v-flash', min: 2, max: 15, source: 'docs/vendors/dashscope.md: wan2.6 flash 2–15' },
    { prefix: 'wan2.6-', min: 5, max: 15, only: [5, 10, 15], source: 'docs/vendors/dashscope.md: wan2.6 5/10/15' },
    { prefix: 'wan2.5-', min: 5, max: 10, only: [5, 10], source: 'docs/vendors/dashscope.md: wan2.5 5 or 10' },
  ],
}
