/**
 * The Seedance video family (Ark): one submission endpoint, answered with a task. Its request checks
 * (tasks/video-request.ts checkOrder) read the model's lists; a list the family leaves unset is left to
 * the vendor.
 */
import type { FamilyModule } from '../contract/family.js'

export const seedanceFamily: FamilyModule = {
  name: 'seedance',
  type: 'video',
  defaults: {
    endpoints: ['video.generate'],
    delivery: ['async'],
  },
}
