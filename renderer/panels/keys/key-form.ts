/** Gateway keys: the create/limits forms as request bodies, dates as the form shows them, and a key's status. */
import type { KeySummary } from '../../../shared/admin'

/** The fields of the create and limits forms, as typed ('' = no limit). */
export interface KeyLimitsForm {
  concurrency: string
  quota: string
  /** `YYYY-MM-DD` (local), '' = never */
  expires: string
}

export interface KeyCreateForm extends KeyLimitsForm {
  name: string
}

export const EMPTY_KEY_FORM: KeyCreateForm = { name: '', concurrency: '', quota: '', expires: '' }

export type KeyFormProblem = 'concurrency' | 'quota' | 'expires'

/** The limits, checked: concurrency a whole number ≥ 1, quota ≥ 0 (USD), expiry a date; null clears. */
export function parseLimits(form: KeyLimitsForm): { ok: true; value: { concurrency: number | null; quota: number | null; expiresAt: number | null } } | { ok: false; problem: KeyFormProblem } {
  const concurrency = form.concurrency.trim() === '' ? null : Number(form.concurrency)
  if (concurrency !== null && (!Number.isInteger(concurrency) || concurrency < 1)) return { ok: false, problem: 'concurrency' }
  const quota = form.quota.trim() === '' ? null : Number(form.quota)
  if (quota !== null && (!Number.isFinite(quota) || quota < 0)) return { ok: false, problem: 'quota' }
  const expiresAt = form.expires === '' ? null : endOfDay(form.expires)
  if (expiresAt === undefined) return { ok: false, problem: 'expires' }
  return { ok: true, value: { concurrency, quota, expiresAt } }
}

/** The key stops working after the chosen day (local time): Unix seconds of its last second. */
export function endOfDay(date: string): number | undefined {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date)
  if (!m) return undefined
  const d = new Date(Number(m[1]), Number(m[2]) - 1, Number(m[3]), 23, 59, 59)
  return Number.isNaN(d.getTime()) || d.getDate() !== Number(m[3]) ? undefined : Math.floor(d.getTime() / 1000)
}

/** Unix seconds as the date input's `YYYY-MM-DD` (local); '' for never. */
export function dateInputOf(unixSeconds: number | null): string {
  if (unixSeconds === null) return ''
  const d = new Date(unixSeconds * 1000)
  const pad = (n: number) => String(n).padStart(2, '0')
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`
}

/** POST /admin/v1/keys body: only the limits that are set. */
export function keyCreateBody(group: string, form: KeyCreateForm): { ok: true; body: Record<string, unknown> } | { ok: false; problem: KeyFormProblem } {
  const limits = parseLimits(form)
  if (!limits.ok) return limits
  const { concurrency, quota, expiresAt } = limits.value
  const name = form.name.trim()
  return {
    ok: true,
    body: { group, ...(name ? { name } : {}), ...(concurrency !== null ? { concurrency } : {}), ...(quota !== null ? { quota } : {}), ...(expiresAt !== null ? { expiresAt } : {}) },
  }
}

/** PATCH body of the limits form: every limit, null where cleared. */
export function keyLimitsPatch(form: KeyLimitsForm): { ok: true; body: Record<string, unknown> } | { ok: false; problem: KeyFormProblem } {
  const limits = parseLimits(form)
  return limits.ok ? { ok: true, body: limits.value } : limits
}

/** The limits form filled from a key. */
export const limitsFormOf = (k: KeySummary): KeyLimitsForm => ({
  concurrency: k.concurrency === null ? '' : String(k.concurrency),
  quota: k.quota === null ? '' : String(k.quota),
  expires: dateInputOf(k.expiresAt),
})

export type KeyStatus = 'active' | 'disabled' | 'expired' | 'exhausted'

/** What a call with the key would meet first. */
export function keyStatus(k: KeySummary, nowSeconds: number): KeyStatus {
  if (k.disabled) return 'disabled'
  if (k.expiresAt !== null && k.expiresAt <= nowSeconds) return 'expired'
  if (k.quota !== null && k.used >= k.quota) return 'exhausted'
  return 'active'
}
