/**
 * The Wan video family (DashScope): the gateway's submission endpoint and DashScope's native path (POST
 * /api/v1/services/aigc/video-generation/video-synthesis), both answered with a task. Its request checks
 * (tasks/video-request.ts checkOrder) read the model's lists; a list the family leaves unset is left to
 * the vendor.
 */
import type { FamilyModule } from '../contract/family.js'

export const wanFamily: FamilyModule = {
  name: 'wan',
  type: 'video',
  defaults: {
    endpoints: ['video.generate', 'video.native'],
    delivery: ['async'],
  },
}
