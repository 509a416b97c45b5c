/** Groups: the edit form as request bodies, the failover order, and which catalog models a protocol can serve. */
import type { GroupSummary } from '../../../shared/admin'
import type { GroupProtocol } from '../../../shared/types'

/** One entry of GET /api/v1/models/pricing (the public catalog). */
export interface CatalogEntry {
  model: string
  type: string
  family: string
  vendor: string
  deprecated?: boolean
}

export interface GroupForm {
  id: string
  name: string
  protocol: GroupProtocol
  models: string[]
  /** upstream account ids in failover order */
  upstreams: string[]
  /** a stream cut after its content started is continued by the next account (README "Continuation"); off by default */
  continuation: boolean
}

export const EMPTY_GROUP_FORM: GroupForm = { id: '', name: '', protocol: 'chat', models: [], upstreams: [], continuation: false }

/** The form filled from a group. */
export const groupFormOf = (g: GroupSummary): GroupForm => ({ id: g.id, name: g.name ?? '', protocol: g.protocol, models: [...g.models], upstreams: [...g.upstreams], continuation: g.continuation })

export type GroupFormProblem = 'id'

/** Why the form cannot be saved, or null. */
export const groupFormProblem = (form: GroupForm): GroupFormProblem | null => (form.id.trim() === '' ? 'id' : null)

/** POST /admin/v1/groups body. */
export function groupCreateBody(form: GroupForm): Record<string, unknown> {
  const name = form.name.trim()
  return { id: form.id.trim(), ...(name ? { name } : {}), protocol: form.protocol, models: form.models, upstreams: form.upstreams, continuation: form.continuation }
}

/** PATCH /admin/v1/groups/{id} body (id and protocol cannot change). */
export const groupPatchBody = (form: GroupForm): Record<string, unknown> => ({ name: form.name.trim(), models: form.models, upstreams: form.upstreams, continuation: form.continuation })

/** The list with the item at `index` moved up (-1) or down (+1); unchanged at the ends. */
export function moveItem<T>(list: T[], index: number, delta: -1 | 1): T[] {
  const to = index + delta
  if (index < 0 || index >= list.length || to < 0 || to >= list.length) return list
  const next = [...list]
  ;[next[index], next[to]] = [next[to], next[index]]
  return next
}

/** Adds or removes one id, keeping the catalog's order for additions at the end. */
export const toggle = (list: string[], id: string): string[] => (list.includes(id) ? list.filter((x) => x !== id) : [...list, id])

/**
 * The catalog models a group of the protocol can offer, by type: a messages-protocol group serves only the one
 * vendor's models of that convention (spec §1), so only the `claude` family is offered there. Deprecated ids are
 * left out unless the group already has them.
 */
export function selectableModels(catalog: CatalogEntry[], protocol: GroupProtocol, selected: string[], filter: string): Map<string, CatalogEntry[]> {
  const needle = filter.trim().toLowerCase()
  const byType = new Map<string, CatalogEntry[]>()
  for (const m of catalog) {
    if (protocol === 'messages' && m.family !== 'claude') continue
    if (m.deprecated && !selected.includes(m.model)) continue
    if (needle && !m.model.toLowerCase().includes(needle) && !m.family.includes(needle)) continue
    byType.set(m.type, [...(byType.get(m.type) ?? []), m])
  }
  return byType
}
