import { useCallback, useEffect, useState, type ComponentType } from 'react'
import { admin, onSessionEnded, signIn } from './api/admin'
import { CodeText } from './components/CodeText'
import { ErrorNote } from './components/ErrorNote'
import { groupName, useT, type Strings } from './i18n'
import { ChatPanel } from './panels/chat/ChatPanel'
import { ImagePanel } from './panels/image-editor/ImagePanel'
import { KeysPanel } from './panels/keys/KeysPanel'
import { SettingsPanel } from './panels/settings/SettingsPanel'
import { UsagePanel } from './panels/usage/UsagePanel'
import { VideoPanel } from './panels/video-tasks/VideoPanel'
import { WelcomePanel } from './panels/welcome/WelcomePanel'
import { storage, useAppStore } from './stores/app-store'
import { PANELS, type Panel } from './stores/session-slice'

const STRINGS: Strings<Panel | 'group' | 'signInTitle' | 'signInHelp' | 'sessionEnded' | 'signInAgain' | 'loading' | 'noGroups'> = {
  en: {
    chat: 'Chat', image: 'Images', video: 'Video', keys: 'Keys & groups', usage: 'Usage', settings: 'Settings', welcome: 'Get started',
    group: 'Group', loading: 'Connecting to the gateway…', noGroups: 'No groups yet: create one under Keys & groups.',
    signInTitle: 'Sign in to Gatehouse',
    signInHelp: 'Open the one-time sign-in address that `npm start` (or `npm run gateway`) printed when it started. For a new one, run `npm run gateway -- --login`.',
    sessionEnded: 'The session ended (unused for a while, signed out, or the gateway restarted).',
    signInAgain: 'Sign in again',
  },
  zh: {
    chat: '对话', image: '图像', video: '视频', keys: '密钥与分组', usage: '用量', settings: '设置', welcome: '开始使用',
    group: '分组', loading: '正在连接网关…', noGroups: '还没有分组：请在“密钥与分组”中创建。',
    signInTitle: '登录 Gatehouse',
    signInHelp: '请打开 `npm start`（或 `npm run gateway`）启动时打印的一次性登录地址。如需新的地址，请运行 `npm run gateway -- --login`。',
    sessionEnded: '会话已结束（长时间未使用、已退出登录或网关已重启）。',
    signInAgain: '重新登录',
  },
}

const PANEL_COMPONENTS: Record<Panel, ComponentType> = {
  chat: ChatPanel, image: ImagePanel, video: VideoPanel, keys: KeysPanel, usage: UsagePanel, settings: SettingsPanel, welcome: WelcomePanel,
}

type Boot = { state: 'loading' } | { state: 'signed-out' } | { state: 'ready' } | { state: 'failed'; error: unknown }

/** Signs in, loads the groups and the saved state, then shows the panels; back to the sign-in state when the session ends. */
export function App() {
  const [boot, setBoot] = useState<Boot>({ state: 'loading' })
  const t = useT(STRINGS)
  const start = useCallback(async () => {
    setBoot({ state: 'loading' })
    try {
      const session = await signIn()
      if (!session) return setBoot({ state: 'signed-out' })
      const store = useAppStore.getState()
      store.setSession(session)
      const [settings] = await Promise.all([admin.settings(), useAppStore.persist.rehydrate()])
      store.setLanguage(settings.language)
      const [upstreams] = await Promise.all([admin.upstreams(), useAppStore.getState().refreshGroups()])
      // A new install has nothing to call: the guided start comes first.
      if (upstreams.length === 0) store.setPanel('welcome')
      setBoot({ state: 'ready' })
    } catch (error) {
      setBoot({ state: 'failed', error })
    }
  }, [])
  useEffect(() => {
    void start()
  }, [start])
  useEffect(() => onSessionEnded(() => setBoot({ state: 'signed-out' })), [])
  useEffect(() => {
    // The last edits are still waiting for their debounce when the window closes.
    const save = () => void storage.flush()
    window.addEventListener('beforeunload', save)
    return () => window.removeEventListener('beforeunload', save)
  }, [])

  if (boot.state === 'loading') return <main className="boot">{t('loading')}</main>
  if (boot.state === 'failed') return <main className="boot"><ErrorNote error={boot.error} /></main>
  if (boot.state === 'signed-out') {
    // The desktop window signs in again with its admin token; a browser needs a new login address.
    return (
      <main className="boot" data-testid="sign-in">
        <h1>{t('signInTitle')}</h1>
        {window.api ? (
          <>
            <p>{t('sessionEnded')}</p>
            <button type="button" className="primary" onClick={() => void start()} data-testid="sign-in-again">{t('signInAgain')}</button>
          </>
        ) : (
          <p data-testid="sign-in-help"><CodeText text={t('signInHelp')} /></p>
        )}
      </main>
    )
  }
  return <Shell />
}

function Shell() {
  const t = useT(STRINGS)
  const panel = useAppStore((s) => s.panel)
  const setPanel = useAppStore((s) => s.setPanel)
  const Current = PANEL_COMPONENTS[panel]
  return (
    <div className="shell">
      <nav className="sidebar" aria-label="panels">
        <div className="brand">Gatehouse</div>
        {panel === 'welcome' && (
          <button type="button" className="nav active" aria-current="page" data-testid="nav-welcome">{t('welcome')}</button>
        )}
        {PANELS.map((p) => (
          <button key={p} type="button" className={p === panel ? 'nav active' : 'nav'} aria-current={p === panel ? 'page' : undefined} onClick={() => setPanel(p)} data-testid={`nav-${p}`}>
            {t(p)}
          </button>
        ))}
        <GroupPicker />
      </nav>
      <main className="content">
        <Current />
      </main>
    </div>
  )
}

function GroupPicker() {
  const t = useT(STRINGS)
  const groups = useAppStore((s) => s.groups)
  const groupId = useAppStore((s) => s.groupId)
  const setGroup = useAppStore((s) => s.setGroup)
  const language = useAppStore((s) => s.language)
  if (groups.length === 0) return <p className="muted small">{t('noGroups')}</p>
  return (
    <label className="group-picker">
      <span>{t('group')}</span>
      <select value={groupId ?? ''} onChange={(e) => setGroup(e.target.value)} data-testid="group-picker">
        {groups.map((g) => (
          <option key={g.id} value={g.id}>
            {groupName(g, language) ? `${groupName(g, language)} (${g.id})` : g.id}
          </option>
        ))}
      </select>
    </label>
  )
}
