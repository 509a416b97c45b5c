/**
 * The OpenAI request fields other than messages as Gemini `tools`, `toolConfig` and `generationConfig`
 * (spec §4.1, Gemini-style row).
 */

type Obj = Record<string, unknown>

/** Spec §4.1: none/minimal switch thinking off, medium and high set a budget, other values keep the default. */
const THINKING_BUDGET: Record<string, number> = { none: 0, minimal: 0, medium: 8192, high: 24576 }

export function functionDeclarations(tools: unknown): Obj[] {
  if (!Array.isArray(tools)) return []
  const out: Obj[] = []
  for (const raw of tools) {
    const tool = (raw ?? {}) as Obj
    const fn = (tool.function ?? {}) as Obj
    if (tool.type !== 'function' || typeof fn.name !== 'string') continue
    const declaration: Obj = { name: fn.name }
    if (typeof fn.description === 'string') declaration.description = fn.description
    // plain JSON Schema, as OpenAI clients write it (the `parameters` field takes only an OpenAPI subset)
    if (fn.parameters && typeof fn.parameters === 'object') declaration.parametersJsonSchema = fn.parameters
    out.push(declaration)
  }
  return out
}

export function functionCallingConfig(choice: unknown): Obj | undefined {
  if (choice === 'auto') return { mode: 'AUTO' }
  if (choice === 'none') return { mode: 'NONE' }
  if (choice === 'required') return { mode: 'ANY' }
  const name = ((((choice ?? {}) as Obj).function ?? {}) as Obj).name
  if (typeof name === 'string') return { mode: 'ANY', allowedFunctionNames: [name] }
  return undefined
}

const num = (v: unknown): number | undefined => (typeof v === 'number' && Number.isFinite(v) ? v : undefined)

export function generationConfig(body: Obj): Obj {
  const config: Obj = {}
  const set = (key: string, value: unknown) => {
    if (value !== undefined) config[key] = value
  }
  set('maxOutputTokens', num(body.max_tokens) ?? num(body.max_completion_tokens))
  set('temperature', num(body.temperature))
  set('topP', num(body.top_p))
  set('candidateCount', num(body.n))
  set('presencePenalty', num(body.presence_penalty))
  set('frequencyPenalty', num(body.frequency_penalty))
  set('seed', num(body.seed))
  const stop = typeof body.stop === 'string' ? [body.stop] : Array.isArray(body.stop) ? body.stop.filter((s) => typeof s === 'string') : []
  if (stop.length > 0) config.stopSequences = stop
  const format = (body.response_format ?? {}) as Obj
  if (format.type === 'json_object' || format.type === 'json_schema') config.responseMimeType = 'application/json'
  const schema = ((format.json_schema ?? {}) as Obj).schema
  if (format.type === 'json_schema' && schema && typeof schema === 'object') config.responseJsonSchema = schema
  const thinking = thinkingConfig(body)
  if (Object.keys(thinking).length > 0) config.thinkingConfig = thinking
  return config
}

/**
 * reasoning_effort per spec §4.1. Google's OpenAI-compatibility extension `google.thinking_config`
 * (top level, or inside `extra_body` as Google's samples nest it) is honoured too: `include_thoughts`
 * is the only way to receive thought summaries (returned as reasoning_content); its budget or level
 * applies only when reasoning_effort sets no budget.
 */
function thinkingConfig(body: Obj): Obj {
  const google = (body.google ?? ((body.extra_body ?? {}) as Obj).google ?? {}) as Obj
  const extension = (google.thinking_config ?? {}) as Obj
  const thinking: Obj = {}
  if (extension.include_thoughts === true) thinking.includeThoughts = true
  const effort = body.reasoning_effort
  if (typeof effort === 'string' && Object.hasOwn(THINKING_BUDGET, effort)) thinking.thinkingBudget = THINKING_BUDGET[effort]
  else if (num(extension.thinking_budget) !== undefined) thinking.thinkingBudget = extension.thinking_budget
  else if (typeof extension.thinking_level === 'string') thinking.thinkingLevel = extension.thinking_level
  return thinking
}
