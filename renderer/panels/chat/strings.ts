import type { Strings } from '../../i18n'

type Key =
  | 'conversations' | 'newChat' | 'untitled' | 'rename' | 'delete' | 'confirmDelete' | 'cancel'
  | 'model' | 'chooseModel' | 'notInGroup' | 'noModels' | 'loadingModels' | 'noGroup'
  | 'effort' | 'effort_default' | 'effort_none' | 'effort_low' | 'effort_medium' | 'effort_high'
  | 'maxTokens' | 'maxTokensAuto' | 'placeholder' | 'messageLabel' | 'send' | 'stop' | 'removeAttachment'
  | 'you' | 'empty' | 'streaming' | 'stopped' | 'reasoning' | 'thinking' | 'toolCalls' | 'finish'
  | 'usage' | 'cached' | 'costPending' | 'costUnavailable' | 'copy' | 'copied'
  | 'loadImage' | 'loadingImage' | 'imageFailed' | 'imageTimeout' | 'openImage'

/** `t` as `useT(STRINGS)` returns it, for helpers that take it from their component. */
export type ChatT = (key: Key, vars?: Record<string, string | number>) => string

/** The chat panel's text. */
export const STRINGS: Strings<Key> = {
  en: {
    conversations: 'Conversations', newChat: 'New chat', untitled: 'New conversation', rename: 'Rename', delete: 'Delete',
    confirmDelete: 'Delete for good', cancel: 'Cancel',
    model: 'Model', chooseModel: 'Choose a model', notInGroup: '{model} (not in this group)',
    noModels: 'This group has no chat models.', loadingModels: 'Loading models…', noGroup: 'Choose a group to chat in.',
    effort: 'Reasoning', effort_default: 'Model default', effort_none: 'None', effort_low: 'Low', effort_medium: 'Medium', effort_high: 'High',
    maxTokens: 'Max tokens', maxTokensAuto: 'auto',
    placeholder: 'Message (Enter sends, Shift+Enter adds a line; paste or drop images)', messageLabel: 'Message',
    send: 'Send', stop: 'Stop', removeAttachment: 'Remove image',
    you: 'You', empty: 'Send a message to start.', streaming: 'writing…', stopped: 'stopped',
    reasoning: 'Reasoning', thinking: 'Thinking…', toolCalls: 'Tool call: {name}', finish: 'ended: {reason}',
    usage: '{input} in · {output} out tokens', cached: '{cached} cached', costPending: 'cost …', costUnavailable: 'cost unavailable',
    copy: 'Copy', copied: 'Copied',
    loadImage: 'Load image from {host}', loadingImage: 'Loading image from {host}…', imageFailed: 'The image was not loaded: {error}',
    imageTimeout: 'the gateway did not answer in time', openImage: 'Open in browser',
  },
  zh: {
    conversations: '对话列表', newChat: '新对话', untitled: '新的对话', rename: '重命名', delete: '删除',
    confirmDelete: '确认删除', cancel: '取消',
    model: '模型', chooseModel: '选择模型', notInGroup: '{model}（不在此分组中）',
    noModels: '此分组没有对话模型。', loadingModels: '正在加载模型…', noGroup: '请选择一个分组再开始对话。',
    effort: '推理强度', effort_default: '模型默认', effort_none: '关闭', effort_low: '低', effort_medium: '中', effort_high: '高',
    maxTokens: '最大输出 token', maxTokensAuto: '自动',
    placeholder: '输入消息（Enter 发送，Shift+Enter 换行；可粘贴或拖入图片）', messageLabel: '消息',
    send: '发送', stop: '停止', removeAttachment: '移除图片',
    you: '你', empty: '发送一条消息开始对话。', streaming: '生成中…', stopped: '已停止',
    reasoning: '推理过程', thinking: '思考中…', toolCalls: '工具调用：{name}', finish: '结束原因：{reason}',
    usage: '输入 {input} · 输出 {output} token', cached: '其中缓存 {cached}', costPending: '费用 …', costUnavailable: '费用不可用',
    copy: '复制', copied: '已复制',
    loadImage: '从 {host} 加载图像', loadingImage: '正在从 {host} 加载图像…', imageFailed: '图像未能加载：{error}',
    imageTimeout: '网关未能及时应答', openImage: '在浏览器中打开',
  },
}
