import type { Vendor } from '../../../../shared/types.js'
import { ark } from './ark.js'
import { dashscope } from './dashscope.js'
import { gatewayVideo } from './gateway.js'
import { kling } from './kling.js'
import { minimax } from './minimax.js'
import type { VideoAdapter } from '../../contract/video-upstream.js'
import { xai } from './xai.js'

export type { VideoAdapter, VideoPoll, VideoState, VideoSubmission } from '../../contract/video-upstream.js'

/**
 * One video adapter per vendor, in a file named by the vendor id: ark (seedance), kling (kling-video),
 * minimax (hailuo), dashscope (wan), xai (grok-video), and gateway (every video family of another gateway).
 */
const VIDEO_ADAPTERS: Partial<Record<Vendor, VideoAdapter>> = { ark, kling, minimax, dashscope, xai, gateway: gatewayVideo }

/** The video adapter of a vendor; undefined for vendors without video. */
export function videoAdapterFor(vendor: Vendor): VideoAdapter | undefined {
  return VIDEO_ADAPTERS[vendor]
}
