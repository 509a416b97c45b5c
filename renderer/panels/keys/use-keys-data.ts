import { useCallback, useEffect, useState } from 'react'
import type { KeySummary, UpstreamSummary } from '../../../shared/admin'
import { admin } from '../../api/admin'
import { forgetAppKeys } from '../../api/gateway'
import { requestJson } from '../../api/http'
import { useAppStore } from '../../stores/app-store'
import type { CatalogEntry } from './group-form'

/** What the keys panel shows, loaded from the admin API, and `changed()` to call after any change. */
export interface KeysData {
  catalog: CatalogEntry[]
  upstreams: UpstreamSummary[]
  keys: KeySummary[]
  error: unknown
  /** after a key, account or group change: the app's cached keys are forgotten and everything is read again */
  changed(): Promise<void>
}

/** The public catalog (GET /api/v1/models/pricing), the upstream accounts, and the group's keys. */
export function useKeysData(groupId: string | null): KeysData {
  const refreshGroups = useAppStore((s) => s.refreshGroups)
  const [catalog, setCatalog] = useState<CatalogEntry[]>([])
  const [upstreams, setUpstreams] = useState<UpstreamSummary[]>([])
  const [keys, setKeys] = useState<KeySummary[]>([])
  const [error, setError] = useState<unknown>(null)

  const load = useCallback(async () => {
    try {
      const [u, k] = await Promise.all([admin.upstreams(), groupId ? admin.keys(groupId) : Promise.resolve([])])
      setUpstreams(u)
      setKeys(k)
      setError(null)
    } catch (err) {
      setError(err)
    }
  }, [groupId])

  useEffect(() => {
    void load()
  }, [load])

  useEffect(() => {
    requestJson<{ data: CatalogEntry[] }>('/api/v1/models/pricing').then((r) => setCatalog(r.data), setError)
  }, [])

  const changed = useCallback(async () => {
    forgetAppKeys()
    try {
      await refreshGroups()
    } catch (err) {
      setError(err)
    }
    await load()
  }, [refreshGroups, load])

  return { catalog, upstreams, keys, error, changed }
}
