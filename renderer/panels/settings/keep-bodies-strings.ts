import type { Strings } from '../../i18n'

type Key = 'title' | 'keep' | 'keepMedia' | 'count' | 'help' | 'countInvalid'

/** The text of Settings → "Keep request and answer bodies". */
export const KEEP_STRINGS: Strings<Key> = {
  en: {
    title: 'Request inspector',
    keep: 'Keep request and answer bodies',
    keepMedia: 'Keep media (images and audio); otherwise each is kept as its size, type and hash',
    count: 'For the last requests',
    help: 'Kept in the data dir beside the ledger, at most {each} KB per body and {total} MB in all; keys and credential headers are never kept. Usage opens them, and replays them.',
    countInvalid: 'A whole number from 1 to {max}.',
  },
  zh: {
    title: '请求检查器',
    keep: '保留请求与回答内容',
    keepMedia: '保留图片与音频；否则只记下大小、类型和哈希',
    count: '保留最近的请求数',
    help: '与账目一同保存在数据目录中，每份内容最多 {each} KB，总共最多 {total} MB；密钥和凭据请求头从不保存。在“用量”中打开查看，也可重放。',
    countInvalid: '请输入 1 到 {max} 之间的整数。',
  },
}
