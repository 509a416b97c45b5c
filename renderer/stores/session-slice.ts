import type { StateCreator } from 'zustand'
import type { AdminSession, GroupSummary, Language } from '../../shared/admin'
import { admin } from '../api/admin'
import { DEFAULT_COLUMNS, savedColumns, type LogColumn } from '../panels/usage/log-query'
import type { AppState } from './app-store'

/** The panels of the sidebar. */
export const PANELS = ['chat', 'image', 'video', 'keys', 'usage', 'settings'] as const
/** Those and the guided start (`welcome`), opened when there is no upstream account and from Keys & groups. */
export type Panel = (typeof PANELS)[number] | 'welcome'

/** Who we are signed in as, the groups, the group the panels work in, the open panel and the language. */
export interface SessionSlice {
  session: AdminSession | null
  groups: GroupSummary[]
  groupId: string | null
  panel: Panel
  language: Language
  /** USD: sending asks first when a call's quoted maximum is above this; null never asks */
  confirmAbove: number | null
  /** the upstream account Keys & groups shows highlighted (opened from an error naming it) */
  focusedUpstream: string | null
  /** Usage: the request table's columns, and whether the app's own housekeeping calls are shown */
  usageColumns: LogColumn[]
  usageHousekeeping: boolean
  setSession(session: AdminSession): void
  refreshGroups(): Promise<void>
  setGroup(id: string): void
  setPanel(panel: Panel): void
  setLanguage(language: Language): void
  setConfirmAbove(usd: number | null): void
  /** opens Keys & groups at one upstream account */
  openUpstream(id: string): void
  setUsageColumns(columns: LogColumn[]): void
  setUsageHousekeeping(shown: boolean): void
}

export const createSessionSlice: StateCreator<AppState, [], [], SessionSlice> = (set, get) => ({
  session: null,
  groups: [],
  groupId: null,
  panel: 'chat',
  language: 'en',
  confirmAbove: null,
  focusedUpstream: null,
  usageColumns: [...DEFAULT_COLUMNS],
  usageHousekeeping: false,
  setSession: (session) => set({ session }),
  refreshGroups: async () => {
    const groups = await admin.groups()
    const current = get().groupId
    set({ groups, groupId: groups.some((g) => g.id === current) ? current : (groups[0]?.id ?? null) })
  },
  setGroup: (groupId) => set({ groupId }),
  setPanel: (panel) => set({ panel, focusedUpstream: null }),
  openUpstream: (id) => set({ panel: 'keys', focusedUpstream: id }),
  setLanguage: (language) => set({ language }),
  setConfirmAbove: (confirmAbove) => set({ confirmAbove }),
  setUsageColumns: (columns) => set({ usageColumns: savedColumns(columns) }),
  setUsageHousekeeping: (usageHousekeeping) => set({ usageHousekeeping }),
})

/** What the `ui` state document keeps. */
export const uiPersisted = (s: AppState) => ({
  groupId: s.groupId, panel: s.panel, confirmAbove: s.confirmAbove, usageColumns: s.usageColumns, usageHousekeeping: s.usageHousekeeping,
})
