import type { Vendor } from '../../../../shared/types.js'
import { gatewayVideo } from './gateway.js'
import { grok } from './grok.js'
import { kling } from './kling.js'
import { minimax } from './minimax.js'
import { seedance } from './seedance.js'
import type { VideoAdapter } from './types.js'
import { wan } from './wan.js'

export type { VideoAdapter, VideoPoll, VideoState, VideoSubmission } from './types.js'

/** One video adapter per vendor that serves video families (seedance, kling-video, hailuo, wan, grok-video). */
const VIDEO_ADAPTERS: Partial<Record<Vendor, VideoAdapter>> = {
  ark: seedance,
  kling,
  minimax,
  dashscope: wan,
  xai: grok,
  gateway: gatewayVideo,
}

/** The video adapter of a vendor; undefined for vendors without video. */
export function videoAdapterFor(vendor: Vendor): VideoAdapter | undefined {
  return VIDEO_ADAPTERS[vendor]
}
