import { describe, expect, it } from 'vitest'
import { translate } from '../../../../../renderer/i18n'
import { BREAKDOWN_STRINGS } from '../../../../../renderer/panels/usage/breakdown-strings'
import { breakdownLines, formatRate, hasBreakdown } from '../../../../../renderer/panels/usage/usage-breakdown'
import { englishWordsIn } from '../../../shared/zh-words'

// The breakdown of an xAI answer as GET /admin/v1/requests returns it (test/integration/vendor-usage.test.ts).
const xai = {
  usageSource: 'upstream' as const,
  breakdown: [
    { kind: 'input' as const, units: 47, unitPrice: 0.3, per: '1M tokens' as const, cost: 0.0000141 },
    { kind: 'cached_input' as const, units: 244, unitPrice: 0.075, per: '1M tokens' as const, cost: 0.0000183 },
    { kind: 'output' as const, units: 26, unitPrice: 0.5, per: '1M tokens' as const, cost: 0.000013 },
    { kind: 'reasoning' as const, units: 189, unitPrice: 0.5, per: '1M tokens' as const, cost: 0.0000945 },
  ],
}

describe('usage breakdown in the request detail', () => {
  it('one line per priced part, the rate with every decimal it has and the cost as the app writes money', () => {
    expect(breakdownLines(xai)).toEqual([
      { kind: 'kind_input', units: 47, rate: { key: 'per_1M tokens', price: '$0.3' }, cost: '$0.000014' },
      { kind: 'kind_cached_input', units: 244, rate: { key: 'per_1M tokens', price: '$0.075' }, cost: '$0.000018' },
      { kind: 'kind_output', units: 26, rate: { key: 'per_1M tokens', price: '$0.5' }, cost: '$0.000013' },
      { kind: 'kind_reasoning', units: 189, rate: { key: 'per_1M tokens', price: '$0.5' }, cost: '$0.000095' },
    ])
    expect(translate(BREAKDOWN_STRINGS, 'en', 'per_1M tokens', { price: '$0.075' })).toBe('$0.075 / 1M tokens')
    expect(translate(BREAKDOWN_STRINGS, 'zh', 'per_image', { price: formatRate(0.134) })).toBe('$0.134 / 张')
    expect([formatRate(3.75), formatRate(0.0000005), formatRate(12)]).toEqual(['$3.75', '$0.0000005', '$12'])
  })

  it('shown for a row with a source or parts; not for a row without usage', () => {
    expect(hasBreakdown(xai)).toBe(true)
    expect(hasBreakdown({ usageSource: 'local_count', breakdown: [] })).toBe(true)
    expect(hasBreakdown({ usageSource: null, breakdown: null })).toBe(false)
    expect(breakdownLines({ breakdown: null })).toEqual([])
  })

  it('every word in English and in Chinese, no English words inside the Chinese', () => {
    expect(Object.keys(BREAKDOWN_STRINGS.zh).sort()).toEqual(Object.keys(BREAKDOWN_STRINGS.en).sort())
    for (const text of Object.values(BREAKDOWN_STRINGS.zh)) expect(englishWordsIn(text)).toEqual([])
    expect(translate(BREAKDOWN_STRINGS, 'zh', 'source_local_count')).toBe('网关自行计数')
  })
})
