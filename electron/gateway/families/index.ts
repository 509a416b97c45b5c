/**
 * The family registry: every family's module by name, and the one place a model's effective data is
 * computed (its row deep-merged over its family's defaults). catalog/catalog.ts createCatalog applies it
 * to every built-in and configured model, so the rules, the published schemas, the pricing list and the
 * endpoints all read the same data.
 */
import type { CatalogModel, Family } from '../../../shared/types.js'
import { claudeFamily } from './claude.js'
import type { FamilyModule } from '../contract/family.js'
import { geminiImageFamily } from './gemini-image.js'
import { geminiInteractionsFamily } from './gemini-interactions.js'
import { geminiFamily } from './gemini.js'
import { glmFlashFamily } from './glm-flash.js'
import { glmFamily } from './glm.js'
import { gptImageFamily } from './gpt-image.js'
import { gptFamily } from './gpt.js'
import { grokImageFamily } from './grok-image.js'
import { grokVideoFamily } from './grok-video.js'
import { hailuoFamily } from './hailuo.js'
import { klingImageFamily } from './kling-image.js'
import { klingVideoFamily } from './kling-video.js'
import { mergeDefaults } from './kit/merge-defaults.js'
import { withVendorDurations } from './kit/video-durations.js'
import { qwenFamily } from './qwen.js'
import { seedanceFamily } from './seedance.js'
import { seedreamFamily } from './seedream.js'
import { ttsFamily } from './tts.js'
import { wanFamily } from './wan.js'

export const FAMILY_MODULES: Readonly<Record<Family, FamilyModule>> = {
  gpt: gptFamily,
  gemini: geminiFamily,
  glm: glmFamily,
  'glm-flash': glmFlashFamily,
  qwen: qwenFamily,
  claude: claudeFamily,
  'gpt-image': gptImageFamily,
  'gemini-image': geminiImageFamily,
  seedream: seedreamFamily,
  'kling-image': klingImageFamily,
  'grok-image': grokImageFamily,
  seedance: seedanceFamily,
  'kling-video': klingVideoFamily,
  hailuo: hailuoFamily,
  wan: wanFamily,
  'grok-video': grokVideoFamily,
  'gemini-interactions': geminiInteractionsFamily,
  tts: ttsFamily,
}

/** The module of a family. Config and catalog rows name only known families (checked when loaded). */
export function familyModule(family: Family): FamilyModule {
  const module = FAMILY_MODULES[family]
  if (!module) throw new Error(`unknown model family ${family}`)
  return module
}

/**
 * A model as the gateway serves it: its row over its family's defaults (`type` from the family), a video model's
 * durations cut to what its vendor accepts (the family's `videoDurations`).
 */
export function effectiveModel(row: CatalogModel): CatalogModel {
  const family = familyModule(row.family)
  return withVendorDurations(mergeDefaults({ ...family.defaults, type: family.type }, row), family.videoDurations)
}

export type { Delivery, DurationRule, FamilyDefaults, FamilyModule } from '../contract/family.js'
