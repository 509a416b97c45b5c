/**
 * The Seedance video family (Ark): one submission endpoint, answered with a task. Its request checks
 * (tasks/video-request.ts checkOrder) read the model's lists, their durations cut to the vendor's range
 * below; a list the family leaves unset is left to the vendor.
 */
import type { FamilyModule } from '../contract/family.js'

export const seedanceFamily: FamilyModule = {
  name: 'seedance',
  type: 'video',
  defaults: {
    endpoints: ['video.generate'],
    delivery: ['async'],
  },
  videoDurations: [
    // Resellers list 2.5 as 4–30 s, but Ark refuses a 20 s clip of it: every 2.x model takes 4–15 s.
    { prefix: 'doubao-seedance-2-', min: 4, max: 15, source: 'docs/vendors/volcengine-ark.md (ranges such as 2–12 or 4–15; 2.x [4,15]); a 20 s 2.5 request refused' },
    { prefix: 'doubao-seedance-1-5-', min: 4, max: 12, source: 'docs/vendors/volcengine-ark.md; 1.5 pro 4–12 s' },
    { prefix: 'doubao-seedance-1-0-', min: 2, max: 12, source: 'docs/vendors/volcengine-ark.md (2–12 s)' },
  ],
}
