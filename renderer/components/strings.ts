import type { Strings } from '../i18n'

type Key =
  | 'dropHere' | 'choose' | 'tooBig' | 'downscaleTo' | 'skip' | 'refuseDecode' | 'refuseMinSide' | 'unreadable' | 'stillTooBig'
  | 'dismiss' | 'retry' | 'account' | 'budget' | 'requestId' | 'uploading'

/** Text of the shared parts: the drop zone, the oversized-image question, and errors. */
export const STRINGS: Strings<Key> = {
  en: {
    dropHere: 'Drop images here or paste them', choose: 'Choose files',
    tooBig: '{name} is {width}×{height} ({size}); here at most {maxSide} px on the long side and {maxSize} are accepted.',
    downscaleTo: 'Downscale to {width}×{height}', skip: 'Leave it out',
    refuseDecode: '{name} is {width}×{height}: above {limit} megapixels, which the app cannot open. Make it smaller first.',
    refuseMinSide: '{name} would have to shrink below {limit} px on its short side, which the model does not accept.',
    unreadable: '{name} could not be read as an image.',
    stillTooBig: '{name} is still {size} after downscaling; at most {maxSize} is accepted.',
    dismiss: 'Dismiss', retry: 'Retry', account: 'Account {id}', budget: 'Balance and budget',
    requestId: 'Request {id}', uploading: 'Uploading {percent}%',
  },
  zh: {
    dropHere: '将图片拖到这里或直接粘贴', choose: '选择文件',
    tooBig: '{name} 为 {width}×{height}（{size}）；此处长边最多 {maxSide} 像素、大小最多 {maxSize}。',
    downscaleTo: '缩小到 {width}×{height}', skip: '不添加',
    refuseDecode: '{name} 为 {width}×{height}：超过 {limit} 百万像素，应用无法打开。请先缩小它。',
    refuseMinSide: '{name} 的短边需缩小到 {limit} 像素以下，模型不接受。',
    unreadable: '无法将 {name} 读取为图片。',
    stillTooBig: '{name} 缩小后仍有 {size}；最多接受 {maxSize}。',
    dismiss: '关闭', retry: '重试', account: '账户 {id}', budget: '余额与预算',
    requestId: '请求 {id}', uploading: '正在上传 {percent}%',
  },
}

export type SharedT = (key: Key, vars?: Record<string, string | number>) => string
