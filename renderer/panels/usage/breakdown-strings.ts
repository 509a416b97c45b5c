import type { Strings } from '../../i18n'
import type { PricedComponent, UsageComponentKind, UsageSource } from '../../../shared/types'

type Key =
  | 'title' | 'source' | 'col_part' | 'col_units' | 'col_price' | 'col_cost' | 'total'
  | `kind_${UsageComponentKind}` | `source_${UsageSource}` | `per_${PricedComponent['per']}`

/** The priced breakdown's words, in the Usage request log's row detail (docs/vendor-usage.md). */
export const BREAKDOWN_STRINGS: Strings<Key> = {
  en: {
    title: 'How it was billed', source: 'Usage from', col_part: 'Part', col_units: 'Units', col_price: 'Unit price', col_cost: 'Cost', total: 'Total',
    kind_input: 'Input', kind_cached_input: 'Cached input (read)', kind_cache_write_5m: 'Cache write (5 min)', kind_cache_write_1h: 'Cache write (1 hour)',
    kind_image_input: 'Image input', kind_output: 'Output', kind_reasoning: 'Reasoning (output)', kind_images: 'Images', kind_seconds: 'Seconds of video',
    kind_characters: 'Characters',
    source_upstream: 'reported by the vendor', source_local_count: 'counted by the gateway', source_reserved: 'billed as reserved',
    'per_1M tokens': '{price} / 1M tokens', per_image: '{price} / image', per_second: '{price} / second', 'per_1M characters': '{price} / 1M characters',
  },
  zh: {
    title: '计费明细', source: '用量来源', col_part: '项目', col_units: '数量', col_price: '单价', col_cost: '费用', total: '合计',
    kind_input: '输入', kind_cached_input: '缓存输入（读取）', kind_cache_write_5m: '缓存写入（5 分钟）', kind_cache_write_1h: '缓存写入（1 小时）',
    kind_image_input: '图像输入', kind_output: '输出', kind_reasoning: '推理（按输出计费）', kind_images: '图像', kind_seconds: '视频秒数',
    kind_characters: '字符',
    source_upstream: '供应商上报', source_local_count: '网关自行计数', source_reserved: '按预留金额计费',
    'per_1M tokens': '{price} / 百万词元', per_image: '{price} / 张', per_second: '{price} / 秒', 'per_1M characters': '{price} / 百万字符',
  },
}

export type BreakdownKey = Key
