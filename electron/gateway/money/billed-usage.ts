import type { CatalogModel } from '../../../shared/types.js'
import { countTextTokens } from '../tokens/tokens.js'
import type { ChatStreamTranslator, TokenUsage } from '../contract/upstream.js'

/**
 * The most tokens one answer may report, in and out, when the catalog names no limit for the model: more than a
 * 60 MB body can hold as text and 50 times every context window offered today (2M), yet low enough that a bill at
 * any catalog price stays a safe integer of nano-USD.
 */
export const TOKEN_CEILING = 100_000_000

/** The gateway's own text of a request, counted when the upstream's token figures cannot be billed. */
export interface LocalText {
  prompt(): string
  output(): string
}

/** Every input token of a usage: uncached, cache reads and cache writes (the ledger's input_tokens). */
export const allInputTokens = (u: TokenUsage): number => u.inputTokens + (u.cachedInputTokens ?? 0) + (u.cacheWrite5mTokens ?? 0) + (u.cacheWrite1hTokens ?? 0)

/** The token classes a usage may carry beside input and output (each added apart by addUsage). */
const CLASSES = ['cachedInputTokens', 'cacheWrite5mTokens', 'cacheWrite1hTokens', 'imageInputTokens', 'reasoningTokens'] as const

/**
 * Two usages added class by class (a continued answer's attempts, an image request's calls), so no class is lost or
 * priced at another's rate; counted by the gateway when either part was. Quantities and `raw` are the caller's.
 */
export function addUsage(a: TokenUsage, b: TokenUsage | undefined): TokenUsage {
  if (b === undefined) return a
  const sum: TokenUsage = { inputTokens: a.inputTokens + b.inputTokens, outputTokens: a.outputTokens + b.outputTokens }
  for (const k of CLASSES) {
    const n = (a[k] ?? 0) + (b[k] ?? 0)
    if (n > 0 || k === 'cachedInputTokens') sum[k] = n
  }
  if (a.source === 'local_count' || b.source === 'local_count') sum.source = 'local_count'
  return sum
}

const isCount = (n: unknown, max: number): n is number => Number.isSafeInteger(n) && (n as number) >= 0 && (n as number) <= max

/**
 * The input and output token limits of a model: its catalog limits, else the ceiling. An answer never outgrows the
 * context window, so an output limit above it (a family's default on a small-window model) is cut to it.
 */
export function tokenLimits(model: CatalogModel): { input: number; output: number } {
  const limits = model.limits ?? {}
  return {
    input: limits.maxInputTokens ?? limits.contextTokens ?? TOKEN_CEILING,
    output: Math.min(limits.maxOutputTokens ?? TOKEN_CEILING, limits.contextTokens ?? TOKEN_CEILING),
  }
}

/** Why reported token usage cannot be billed as it is; undefined when it can. */
export function usageProblem(model: CatalogModel, usage: TokenUsage | undefined): string | undefined {
  if (usage === undefined) return 'no usage reported'
  const limits = tokenLimits(model)
  // Every input count apart (uncached, cache reads, cache writes) and their sum within the model's input limit.
  const inputs = [usage.inputTokens, usage.cachedInputTokens ?? 0, usage.cacheWrite5mTokens ?? 0, usage.cacheWrite1hTokens ?? 0]
  if (!inputs.every((n) => isCount(n, limits.input)) || inputs.reduce((a, b) => a + b, 0) > limits.input) return 'input tokens out of range'
  if (!isCount(usage.outputTokens, limits.output)) return 'output tokens out of range'
  return undefined
}

/**
 * Token usage as billed: the upstream's figures when every one is a non-negative safe integer within the model's
 * limits, else the local count of the prompt and the output, marked `counted_locally` in its usage and
 * `local_count` as the ledger row's usage source.
 */
export async function billableTokens(model: CatalogModel, reported: TokenUsage | undefined, text: LocalText): Promise<TokenUsage> {
  const problem = usageProblem(model, reported)
  if (problem === undefined) return reported!
  const [inputTokens, outputTokens] = await Promise.all([countTextTokens(text.prompt()), countTextTokens(text.output())])
  return { inputTokens, outputTokens, source: 'local_count', raw: { counted_locally: true, reason: problem, prompt_tokens: inputTokens, completion_tokens: outputTokens } }
}

/**
 * What a stream's upstream reported before its end (the translator's usageSoFar), when it reported a plausible input
 * (usageProblem): a count of 0 is none (every prompt has a token; an API that copies Anthropic's may send 0 there and
 * the count at the end), and figures out of range are not taken either: the prompt is counted instead.
 */
export function usageSoFar(translator: Pick<ChatStreamTranslator, 'usageSoFar'>, model: CatalogModel): TokenUsage | undefined {
  const soFar = translator.usageSoFar?.()
  return soFar !== undefined && allInputTokens(soFar) > 0 && usageProblem(model, soFar) === undefined ? soFar : undefined
}

/**
 * A stream's usage as reported, for billing: its usage at the end; a stream cut before it (an upstream break, a client
 * that left), the input as its upstream reported it before the end, every class (usageSoFar), with the output counted
 * by the gateway, at least as much as reported; undefined when nothing was reported, and billing counts it all.
 */
export async function streamUsage(translator: Pick<ChatStreamTranslator, 'usage' | 'usageSoFar' | 'producedText'>, model: CatalogModel): Promise<TokenUsage | undefined> {
  const reported = translator.usage()
  if (reported !== undefined) return reported
  const soFar = usageSoFar(translator, model)
  if (soFar === undefined) return undefined
  const outputTokens = Math.max(await countTextTokens(translator.producedText()), soFar.outputTokens)
  return {
    ...soFar,
    outputTokens,
    source: 'local_count',
    raw: { counted_locally: true, reason: 'stream cut: input as reported, output counted', reported: soFar.raw, completion_tokens: outputTokens },
  }
}

/**
 * A quantity as billed (images, seconds, characters): a reported figure that is not a finite non-negative number
 * is replaced by `fallback`, and none is ever above `max`, what the request asked for (or reserved).
 */
export function billableQuantity(reported: unknown, max: number, fallback: number = max): number {
  const value = typeof reported === 'number' && Number.isFinite(reported) && reported >= 0 ? reported : fallback
  return Math.max(0, Math.min(value, max))
}

/** Usage as billed, for every billed path: tokens are checked (billableTokens), quantities capped (billableQuantity). */
export async function billableUsage(model: CatalogModel, reported: TokenUsage | undefined, bounds: { text: LocalText; maxQuantity?: number }): Promise<TokenUsage> {
  if (model.pricing.unit === 'token') return billableTokens(model, reported, bounds.text)
  const max = bounds.maxQuantity ?? Number.MAX_SAFE_INTEGER
  const quantity = billableQuantity(reported?.quantity, max, 0)
  return { inputTokens: 0, outputTokens: 0, quantity, raw: reported?.raw, ...(reported?.source !== undefined ? { source: reported.source } : {}) }
}
