import type { Vendor } from '../../../shared/types.js'
import type { HttpSpec } from '../contract/http-spec.js'
import { DEFAULT_VERSION as ANTHROPIC_VERSION } from './anthropic.js'

/** How to ask a vendor which models an account can call, and how to read its answer (docs/vendors/*.md). */
export interface ModelListCall {
  spec: HttpSpec
  /** the model ids of a 2xx answer, or undefined when it is not a model list */
  read(answer: unknown): string[] | undefined
}

const GEMINI_MODEL_PREFIX = 'models/'

/** `{data: [{id}]}`: the OpenAI list shape, also Anthropic's (with `has_more`) and another gateway's. */
function dataIds(answer: unknown): string[] | undefined {
  const data = (answer as { data?: unknown } | null)?.data
  if (!Array.isArray(data)) return undefined
  return data.map((m) => (m as { id?: unknown })?.id).filter((id): id is string => typeof id === 'string')
}

/** Gemini's `{models: [{name: "models/…"}]}`. */
function geminiIds(answer: unknown): string[] | undefined {
  const models = (answer as { models?: unknown } | null)?.models
  if (!Array.isArray(models)) return undefined
  return models
    .map((m) => (m as { name?: unknown })?.name)
    .filter((name): name is string => typeof name === 'string')
    .map((name) => (name.startsWith(GEMINI_MODEL_PREFIX) ? name.slice(GEMINI_MODEL_PREFIX.length) : name))
}

const get = (url: string, headers: Record<string, string>): HttpSpec => ({ method: 'GET', url, headers: { accept: 'application/json', ...headers } })
const bearer = (apiKey: string) => ({ authorization: `Bearer ${apiKey}` })

/**
 * The model-list call of a vendor, at the base URL the vendor's official SDK takes (README "Config file"); undefined
 * for vendors that have none (Kling, MiniMax: their keys are checked at the first call).
 */
export function modelListCall(vendor: Vendor, baseUrl: string, apiKey: string): ModelListCall | undefined {
  const base = baseUrl.replace(/\/+$/, '')
  switch (vendor) {
    case 'openai':
    case 'xai':
    case 'zhipu':
    case 'ark':
      return { spec: get(`${base}/models`, bearer(apiKey)), read: dataIds }
    case 'dashscope':
      return { spec: get(`${base}/compatible-mode/v1/models`, bearer(apiKey)), read: dataIds }
    case 'gateway':
      return { spec: get(`${base}/v1/models`, bearer(apiKey)), read: dataIds }
    case 'anthropic':
      return { spec: get(`${base}/v1/models?limit=1000`, { 'x-api-key': apiKey, 'anthropic-version': ANTHROPIC_VERSION }), read: dataIds }
    case 'gemini':
      // the key in a header, never in the query (where it would show in logs)
      return { spec: get(`${base}/v1beta/models?pageSize=1000`, { 'x-goog-api-key': apiKey }), read: geminiIds }
    case 'kling':
    case 'minimax':
      return undefined
  }
}
