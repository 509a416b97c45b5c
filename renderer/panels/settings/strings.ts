import type { Strings } from '../../i18n'

type Key =
  | 'title' | 'port' | 'portHelp' | 'portInvalid' | 'language' | 'save' | 'saved' | 'savedRestart' | 'about'
  | 'dataDir' | 'baseUrl' | 'version' | 'mode' | 'mode_desktop' | 'mode_headless' | 'vault' | 'vault_safeStorage' | 'vault_file' | 'loading' | 'signOut'
  | 'confirmAbove' | 'confirmAboveHelp' | 'confirmAboveInvalid'

/** The settings panel's text. */
export const STRINGS: Strings<Key> = {
  en: {
    title: 'Settings', port: 'Port', portHelp: 'The gateway listens on this port from its next start.', portInvalid: 'A port is a whole number from 1 to 65535.',
    language: 'Language', save: 'Save', saved: 'Saved.', savedRestart: 'Saved: the gateway uses port {port} from its next start.',
    about: 'This installation', dataDir: 'Data folder', baseUrl: 'Base URL', version: 'Version', mode: 'Running as',
    mode_desktop: 'desktop app', mode_headless: 'headless gateway', vault: 'Upstream secrets sealed by',
    vault_safeStorage: 'the system keychain (safeStorage)', vault_file: 'a key file readable only by you', loading: 'Loading…', signOut: 'Sign out',
    confirmAbove: 'Ask before sending above (USD)', confirmAboveHelp: 'Chat, images and video ask for confirmation when a call is expected to cost more than this (the question shows the most it can cost too). Empty: never ask.',
    confirmAboveInvalid: 'An amount is a number of dollars, like 0.50.',
  },
  zh: {
    title: '设置', port: '端口', portHelp: '网关下次启动时使用此端口。', portInvalid: '端口须为 1 到 65535 之间的整数。',
    language: '语言', save: '保存', saved: '已保存。', savedRestart: '已保存：网关下次启动时使用端口 {port}。',
    about: '本机安装', dataDir: '数据目录', baseUrl: 'Base URL', version: '版本', mode: '运行方式',
    mode_desktop: '桌面应用', mode_headless: '无界面网关', vault: '上游密钥加密方式',
    vault_safeStorage: '系统钥匙串（safeStorage）', vault_file: '仅本人可读的密钥文件', loading: '正在加载…', signOut: '退出登录',
    confirmAbove: '超过此金额时先确认（美元）', confirmAboveHelp: '聊天、图像和视频的调用预计超过此金额时，发送前先请求确认（同时显示最多可能花费的金额）。留空：从不询问。',
    confirmAboveInvalid: '金额须为美元数，例如 0.50。',
  },
}
