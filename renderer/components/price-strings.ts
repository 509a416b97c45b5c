import type { Strings } from '../i18n'

type Key = 'price' | 'confirm' | 'basisTokens' | 'basisUnits' | 'expectedUpTo' | 'upTo'

/** The price shown next to Send, Generate and Submit, and the question asked before an expensive call. */
export const PRICE_STRINGS: Strings<Key> = {
  en: {
    price: 'Price',
    confirm: 'This is expected to cost {expected} (at most {max}), more than the {limit} set in Settings. Send anyway?',
    basisTokens: '{input} input tokens; about {expected} output tokens expected, at most {output} ({cap})',
    basisUnits: 'exactly what the call is billed',
    expectedUpTo: '≈ {expected} · up to {max}',
    upTo: 'up to {max}',
  },
  zh: {
    price: '价格',
    confirm: '本次调用预计花费 {expected}（最多 {max}），超过设置中的 {limit}。仍要发送吗？',
    basisTokens: '输入 {input} 个 token；预计输出约 {expected} 个 token，最多 {output} 个（{cap}）',
    basisUnits: '即本次调用的实际计费',
    expectedUpTo: '约 {expected} · 最多 {max}',
    upTo: '最多 {max}',
  },
}
