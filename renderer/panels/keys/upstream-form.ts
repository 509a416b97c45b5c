/** Upstream accounts (the key vault): vendor defaults and the add/edit forms as request bodies. */
import type { UpstreamSummary } from '../../../shared/admin'
import type { Vendor } from '../../../shared/types'

/** The base URL each vendor's official SDK takes (README "Config file"); `gateway` is another gateway's root URL. */
export const DEFAULT_BASE_URL: Record<Vendor, string> = {
  openai: 'https://api.openai.com/v1',
  anthropic: 'https://api.anthropic.com',
  gemini: 'https://generativelanguage.googleapis.com',
  ark: 'https://ark.cn-beijing.volces.com/api/v3',
  dashscope: 'https://dashscope.aliyuncs.com',
  kling: 'https://api-singapore.klingai.com',
  minimax: 'https://api.minimax.io',
  xai: 'https://api.x.ai/v1',
  zhipu: 'https://open.bigmodel.cn/api/paas/v4',
  gateway: '',
}

export interface UpstreamForm {
  id: string
  vendor: Vendor
  baseUrl: string
  /** blank when editing: keep the stored secret */
  apiKey: string
  /** ids separated by commas or spaces; blank: every catalog model of the vendor */
  models: string
  /** rows "model → name at this account": the name the account knows a gateway model by (an Azure deployment …) */
  names: ModelNameRow[]
  priority: string
  /** USD spending cap; blank: none */
  budget: string
}

/** One row of the account's model names: a gateway model id, and the name the account calls it by. */
export interface ModelNameRow {
  model: string
  name: string
}

/** A new account's form: the vendor's default base URL and a free id. */
export function newUpstreamForm(vendor: Vendor, takenIds: string[]): UpstreamForm {
  let n = 1
  while (takenIds.includes(`${vendor}-${n}`)) n++
  return { id: `${vendor}-${n}`, vendor, baseUrl: DEFAULT_BASE_URL[vendor], apiKey: '', models: '', names: [], priority: '0', budget: '' }
}

/** The form with another vendor: the base URL follows unless it was changed by hand, and so does a generated id. */
export function withVendor(form: UpstreamForm, vendor: Vendor, takenIds: string[]): UpstreamForm {
  const fresh = newUpstreamForm(vendor, takenIds)
  const idWasGenerated = form.id === newUpstreamForm(form.vendor, takenIds).id
  const urlWasDefault = form.baseUrl === DEFAULT_BASE_URL[form.vendor]
  return { ...form, vendor, id: idWasGenerated ? fresh.id : form.id, baseUrl: urlWasDefault ? fresh.baseUrl : form.baseUrl }
}

/** The ids an account's `models` lists (an array, or the keys of a map of names); none: every model of the vendor. */
export const accountModelIds = (models: UpstreamSummary['models']): string[] => (models === null ? [] : Array.isArray(models) ? models : Object.keys(models))

/** An account's models as the list shows them: `id`, or `id → name` where the account calls it otherwise. */
export const accountModelsText = (models: UpstreamSummary['models']): string =>
  models === null ? '' : Array.isArray(models) ? models.join(', ') : Object.entries(models).map(([id, name]) => (id === name ? id : `${id} → ${name}`)).join(', ')

/** The edit form of an account: the secret left blank; a mapped model's id in the list and its name in a row. */
export const upstreamFormOf = (u: UpstreamSummary): UpstreamForm => ({
  id: u.id, vendor: u.vendor, baseUrl: u.baseUrl, apiKey: '', models: accountModelIds(u.models).join(', '),
  names: u.models === null || Array.isArray(u.models) ? [] : Object.entries(u.models).filter(([id, name]) => id !== name).map(([model, name]) => ({ model, name })),
  priority: String(u.priority), budget: u.budget === null ? '' : String(u.budget),
})

export type UpstreamFormProblem = 'id' | 'baseUrl' | 'apiKey' | 'klingKey' | 'priority' | 'budget' | 'modelName'

const modelList = (text: string): string[] => text.split(/[\s,]+/).filter(Boolean)

/**
 * The body's `models`: the ids listed (an array), or, once a row names a model at this account, each id mapped to its
 * name (its own id when no row names it), the named models included; undefined when nothing is listed.
 */
export function modelsOf(form: Pick<UpstreamForm, 'models' | 'names'>): string[] | Record<string, string> | undefined {
  const ids = modelList(form.models)
  const rows = form.names.map((r) => ({ model: r.model.trim(), name: r.name.trim() })).filter((r) => r.model !== '' && r.name !== '')
  if (rows.length === 0) return ids.length > 0 ? ids : undefined
  const mapped: Record<string, string> = Object.fromEntries(ids.map((id) => [id, id]))
  for (const r of rows) mapped[r.model] = r.name
  return mapped
}

/** Why the form cannot be saved, or null. A Kling account's key is `ACCESS_KEY:SECRET_KEY` (the gateway signs JWTs with it). */
export function upstreamFormProblem(form: UpstreamForm, mode: 'create' | 'edit'): UpstreamFormProblem | null {
  if (mode === 'create' && form.id.trim() === '') return 'id'
  if (!/^https?:\/\/\S+$/.test(form.baseUrl.trim())) return 'baseUrl'
  const key = form.apiKey.trim()
  if (mode === 'create' && key === '') return 'apiKey'
  if (form.vendor === 'kling' && key !== '' && !/^[^:\s]+:[^:\s]+$/.test(key)) return 'klingKey'
  if (form.priority.trim() !== '' && !Number.isFinite(Number(form.priority))) return 'priority'
  if (form.budget.trim() !== '' && !(Number.isFinite(Number(form.budget)) && Number(form.budget) >= 0)) return 'budget'
  // A row with a model and no name (or a name and no model) says nothing yet.
  if (form.names.some((r) => (r.model.trim() === '') !== (r.name.trim() === ''))) return 'modelName'
  return null
}

/** POST /admin/v1/upstreams body: the account, joined to the group's failover order. */
export function upstreamCreateBody(form: UpstreamForm, group: string | null): Record<string, unknown> {
  const models = modelsOf(form)
  return {
    id: form.id.trim(), vendor: form.vendor, baseUrl: form.baseUrl.trim(), apiKey: form.apiKey.trim(),
    ...(models !== undefined ? { models } : {}),
    ...(form.priority.trim() !== '' ? { priority: Number(form.priority) } : {}),
    ...(form.budget.trim() !== '' ? { budget: Number(form.budget) } : {}),
    ...(group ? { groups: [group] } : {}),
  }
}

/** PATCH /admin/v1/upstreams/{id} body: the secret only when a new one was typed; a blank budget removes the cap. */
export function upstreamPatchBody(form: UpstreamForm): Record<string, unknown> {
  const models = modelsOf(form)
  const key = form.apiKey.trim()
  return {
    baseUrl: form.baseUrl.trim(),
    ...(key ? { apiKey: key } : {}),
    ...(models !== undefined ? { models } : {}),
    ...(form.priority.trim() !== '' ? { priority: Number(form.priority) } : {}),
    budget: form.budget.trim() === '' ? null : Number(form.budget),
  }
}
