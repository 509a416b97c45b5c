import type { Strings } from '../../i18n'

type Key = 'open' | 'close' | 'title' | 'models' | 'pickHelp' | 'prompt' | 'send' | 'continue' | 'costPending' | 'costUnavailable' | 'tokens' | 'failed' | 'stop'

/** The text of Compare in Chat: one prompt to two or three models of the group, side by side. */
export const COMPARE_STRINGS: Strings<Key> = {
  en: {
    open: 'Compare models', close: 'Close comparison', title: 'Compare models', models: 'Models (two or three)',
    pickHelp: 'Each answer is a request of its own, billed as usual.', prompt: 'Prompt', send: 'Compare', continue: 'Continue with this answer',
    costPending: 'cost…', costUnavailable: 'cost unavailable', tokens: '{input} in / {output} out', failed: 'Failed: {message}', stop: 'Stop',
  },
  zh: {
    open: '比较模型', close: '关闭比较', title: '比较模型', models: '模型（两个或三个）',
    pickHelp: '每个回答都是一次独立的请求，照常计费。', prompt: '提示词', send: '比较', continue: '用这个回答继续对话',
    costPending: '费用计算中…', costUnavailable: '费用不可用', tokens: '输入 {input} / 输出 {output}', failed: '失败：{message}', stop: '停止',
  },
}
