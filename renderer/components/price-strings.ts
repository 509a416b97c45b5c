import type { Strings } from '../i18n'

type Key = 'price' | 'confirm' | 'basisTokens' | 'basisUnits'

/** The price shown next to Send, Generate and Submit, and the question asked before an expensive call. */
export const PRICE_STRINGS: Strings<Key> = {
  en: {
    price: 'Price',
    confirm: 'This may cost up to {amount}, more than the {limit} set in Settings. Send anyway?',
    basisTokens: '{input} input tokens; up to {output} output tokens ({cap})',
    basisUnits: 'exactly what the call is billed',
  },
  zh: {
    price: '价格',
    confirm: '本次调用最多可能花费 {amount}，超过设置中的 {limit}。仍要发送吗？',
    basisTokens: '输入 {input} 个 token；输出最多 {output} 个 token（{cap}）',
    basisUnits: '即本次调用的实际计费',
  },
}
