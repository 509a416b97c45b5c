import type { Strings } from '../../i18n'

type Key =
  | 'title' | 'intro' | 'found' | 'notFound' | 'homeFound' | 'homeMissing' | 'files' | 'group' | 'model' | 'noGroup' | 'preview' | 'apply'
  | 'cancel' | 'disconnect' | 'undo' | 'connected' | 'keyHint' | 'backup' | 'noBackup' | 'run' | 'unsupported' | 'diffTitle' | 'noChange'
  | 'action_create' | 'action_update' | 'action_delete' | 'action_none' | 'done_connect' | 'done_disconnect' | 'done_undo'
  | 'confirm_connect' | 'confirm_disconnect' | 'confirm_undo' | 'sdkTitle' | 'sdkIntro' | 'sdkNotSet' | 'sdkHere' | 'sdkElsewhere' | 'loading'

/** The Connect tools panel's text. */
export const STRINGS: Strings<Key> = {
  en: {
    title: 'Connect tools',
    intro: 'Point Claude Code and Codex at this gateway. Only the keys Gatehouse owns are merged into each tool\'s own settings: plugins, hooks, status lines and everything else stay as they are. You see the changes first, the file is backed up, and Undo puts it back exactly.',
    found: 'Program: {path}', notFound: 'Program not found on PATH', homeFound: 'Settings folder found', homeMissing: 'No settings folder yet: it is created (readable only by you)',
    files: 'Files', group: 'Group', model: 'Model', noGroup: 'No group of the {protocol} protocol: create one under Keys & groups.',
    preview: 'Preview changes', apply: 'Write changes', cancel: 'Cancel', disconnect: 'Disconnect', undo: 'Undo',
    connected: 'Connected on {date} with a key of group {group}', keyHint: 'key {hint}', backup: 'backup: {path}', noBackup: 'created by Gatehouse (no backup)',
    run: 'Run: {command}', unsupported: 'Not supported: Gemini CLI calls Gemini\'s own generateContent API, which Gatehouse does not serve.',
    diffTitle: 'Changes', noChange: 'No change',
    action_create: 'created', action_update: 'changed', action_delete: 'removed', action_none: 'unchanged',
    done_connect: 'Connected. A new key was made for it; its secret is only in the tool\'s file.', done_disconnect: 'Disconnected: Gatehouse\'s keys were taken out and its key revoked.',
    done_undo: 'Undone: the files are back as they were, and the key is revoked.',
    confirm_connect: 'Write these changes', confirm_disconnect: 'Disconnect now', confirm_undo: 'Restore the backup',
    sdkTitle: 'SDK environment variables', sdkIntro: 'Official SDKs read these variables from the environment they run in; set them in your shell profile to use this gateway.',
    sdkNotSet: 'not set', sdkHere: 'points here', sdkElsewhere: 'points elsewhere', loading: 'Loading…',
  },
  zh: {
    title: '连接工具',
    intro: '让 Claude Code 和 Codex 使用本网关。只把 Gatehouse 负责的键合并进各工具自己的设置文件：插件、钩子、状态栏和其他所有设置都保持不变。写入前先显示改动，文件会先备份，“撤销”可原样恢复。',
    found: '程序：{path}', notFound: 'PATH 中未找到该程序', homeFound: '已找到设置文件夹', homeMissing: '还没有设置文件夹：将会创建（仅本人可读）',
    files: '文件', group: '分组', model: '模型', noGroup: '没有使用 {protocol} 协议的分组：请在“密钥与分组”中创建。',
    preview: '预览改动', apply: '写入改动', cancel: '取消', disconnect: '断开连接', undo: '撤销',
    connected: '已于 {date} 连接，使用分组 {group} 的密钥', keyHint: '密钥 {hint}', backup: '备份：{path}', noBackup: '由 Gatehouse 创建（无备份）',
    run: '运行：{command}', unsupported: '不支持：Gemini CLI 调用 Gemini 自己的 generateContent 接口，Gatehouse 不提供该接口。',
    diffTitle: '改动', noChange: '无改动',
    action_create: '新建', action_update: '修改', action_delete: '删除', action_none: '不变',
    done_connect: '已连接。已为它创建新密钥，密钥只写在该工具的文件中。', done_disconnect: '已断开连接：已移除 Gatehouse 写入的键，并吊销其密钥。',
    done_undo: '已撤销：文件已恢复原样，密钥已吊销。',
    confirm_connect: '写入这些改动', confirm_disconnect: '立即断开连接', confirm_undo: '从备份恢复',
    sdkTitle: 'SDK 环境变量', sdkIntro: '官方 SDK 从运行环境中读取这些变量；在终端配置文件中设置它们即可使用本网关。',
    sdkNotSet: '未设置', sdkHere: '指向本网关', sdkElsewhere: '指向其他地址', loading: '正在加载…',
  },
}
