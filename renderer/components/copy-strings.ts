import type { Strings } from '../i18n'
import type { ShownReason } from './kept-copy-view'

type Key =
  | 'saving' | 'retrying' | 'kept' | 'failed' | 'nextTry' | 'noNextTry' | 'linkUntil' | 'linkExpired' | 'linkOnly' | 'gone' | 'goneNoLink'
  | 'openLink' | 'retry' | 'sep' | `reason_${ShownReason['code']}`

/** What a result card says about the gateway's copy of it (images and videos alike). */
export const COPY_STRINGS: Strings<Key> = {
  en: {
    saving: 'Saving a copy in the gateway…', retrying: 'Trying again to save a copy (attempt {n})…', kept: 'Saved in the gateway.',
    failed: 'Not saved: {reason}.', nextTry: 'Trying again at {time}.', noNextTry: 'No more automatic tries.',
    linkUntil: 'The vendor link works until {time}.', linkExpired: 'The vendor link expired at {time}.',
    linkOnly: 'No copy in the gateway: only the vendor link, which works until {time}.',
    gone: 'No copy in the gateway, and the vendor link expired at {time}.', goneNoLink: 'No copy in the gateway, and no link to it.',
    openLink: 'Open the vendor link', retry: 'Retry saving', sep: ' ',
    reason_vendor_status: "the vendor's server answered HTTP {detail}", reason_timeout: 'the download took too long',
    reason_unreachable: "the vendor's server could not be reached", reason_not_media: 'the link did not hold an image or a video',
    reason_too_large: 'the file is larger than {detail} bytes', reason_link_refused: 'the gateway does not fetch this link (a private address, or too many redirects)',
    reason_storage: 'the gateway could not write it to its data folder', reason_unknown: 'the gateway did not record why',
    reason_upload: 'the upload to the gateway failed ({detail})',
  },
  zh: {
    saving: '正在网关中保存副本…', retrying: '正在重新保存副本（第 {n} 次）…', kept: '已保存在网关中。',
    failed: '未保存：{reason}。', nextTry: '将于 {time} 再试。', noNextTry: '不会再自动重试。',
    linkUntil: '厂商链接在 {time} 之前有效。', linkExpired: '厂商链接已于 {time} 过期。',
    linkOnly: '网关中没有副本：只有厂商链接，在 {time} 之前有效。',
    gone: '网关中没有副本，且厂商链接已于 {time} 过期。', goneNoLink: '网关中没有副本，也没有可用的链接。',
    openLink: '打开厂商链接', retry: '重新保存', sep: '',
    reason_vendor_status: '厂商服务器返回 HTTP {detail}', reason_timeout: '下载超时',
    reason_unreachable: '无法连接厂商服务器', reason_not_media: '链接中不是图像或视频',
    reason_too_large: '文件超过 {detail} 字节', reason_link_refused: '网关不获取此链接（私有地址或重定向过多）',
    reason_storage: '网关无法写入其数据目录', reason_unknown: '网关未记录原因',
    reason_upload: '上传到网关失败（{detail}）',
  },
}
