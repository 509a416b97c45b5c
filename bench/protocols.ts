// The protocol paths: chat completions relayed to an OpenAI-compatible upstream vs translated to Gemini, and
// /v1/messages streaming, each through Gatehouse and directly to its fake for reference. Sequential requests on one
// keep-alive connection (see sequential()), in rounds; each (path, mode) is reported as the median of the rounds.
import { chatRequest, median, medianSeq, probeRequest, rotate, sequential, type RequestSpec, type SeqResult } from './measure.js'
import { BENCH_KEY, BENCH_MESSAGES_KEY, MODELS, UPSTREAM_KEYS, type FakeOrigins } from './targets.js'

export const PROTOCOL_OPTS = { maxRequests: 200, maxMs: 2_000, warmup: 20 }
const GOAL_TRANSLATION_MS = 1
const ANTHROPIC_VERSION = '2023-06-01'
const PROMPT = 'hello'

/** Chat paths: through Gatehouse to each upstream kind, and straight to the same fakes. */
export const CHAT_PATHS = ['relay', 'gemini', 'openaiDirect', 'geminiDirect'] as const
export const MESSAGES_PATHS = ['messages', 'anthropicDirect'] as const
type ChatPath = (typeof CHAT_PATHS)[number]
type MessagesPath = (typeof MESSAGES_PATHS)[number]
export const PATH_LABELS: Record<ChatPath | MessagesPath, string> = {
  relay: `Gatehouse → OpenAI relay (${MODELS.relay})`,
  gemini: `Gatehouse → Gemini translation (${MODELS.gemini})`,
  openaiDirect: 'direct → fake OpenAI',
  geminiDirect: 'direct → fake Gemini (native)',
  messages: `Gatehouse → /v1/messages (${MODELS.claude})`,
  anthropicDirect: 'direct → fake Anthropic',
}

/** One measured series: a chat path non-streamed or streamed, or a messages path (streamed only). */
export type SeriesId = `${ChatPath}.${'json' | 'stream'}` | `${MessagesPath}.stream`
/** In measuring order: the series that are compared with each other run next to each other. */
const SERIES_GROUPS: SeriesId[][] = [
  CHAT_PATHS.map((p) => `${p}.json` as const),
  CHAT_PATHS.map((p) => `${p}.stream` as const),
  MESSAGES_PATHS.map((p) => `${p}.stream` as const),
]
export const SERIES: SeriesId[] = SERIES_GROUPS.flat()

function geminiRequest(origin: string, stream: boolean): RequestSpec {
  const method = stream ? 'streamGenerateContent?alt=sse' : 'generateContent'
  return {
    url: `${origin}/v1beta/models/${MODELS.gemini}:${method}`,
    headers: { 'content-type': 'application/json', 'x-goog-api-key': UPSTREAM_KEYS.gemini },
    body: JSON.stringify({ contents: [{ role: 'user', parts: [{ text: PROMPT }] }] }),
    expect: stream ? ['"finishReason"'] : ['"candidates"', 'Gemini.'],
  }
}

function messagesRequest(origin: string, auth: Record<string, string>): RequestSpec {
  return {
    url: `${origin}/v1/messages`,
    headers: { 'content-type': 'application/json', 'anthropic-version': ANTHROPIC_VERSION, ...auth },
    body: JSON.stringify({ model: MODELS.claude, max_tokens: 64, messages: [{ role: 'user', content: PROMPT }], stream: true }),
    expect: ['message_start', 'message_stop'],
  }
}

export function protocolRequests(gatehouse: string, fakes: FakeOrigins): Record<SeriesId, RequestSpec> {
  const chat = (stream: boolean): Record<ChatPath, RequestSpec> => {
    const viaGemini = chatRequest(gatehouse, BENCH_KEY, stream, MODELS.gemini)
    return {
      relay: chatRequest(gatehouse, BENCH_KEY, stream, MODELS.relay),
      // The fake Gemini's answer, so that a misrouted request does not pass for a translated one.
      gemini: { ...viaGemini, expect: [...viaGemini.expect, 'Gemini.'] },
      openaiDirect: chatRequest(fakes.openai, UPSTREAM_KEYS.openai, stream, MODELS.relay),
      geminiDirect: geminiRequest(fakes.gemini, stream),
    }
  }
  const [json, stream] = [chat(false), chat(true)]
  const entries = CHAT_PATHS.flatMap((p) => [[`${p}.json`, json[p]], [`${p}.stream`, stream[p]]] as const)
  return {
    ...(Object.fromEntries(entries) as Record<`${ChatPath}.${'json' | 'stream'}`, RequestSpec>),
    'messages.stream': messagesRequest(gatehouse, { authorization: `Bearer ${BENCH_MESSAGES_KEY}` }),
    'anthropicDirect.stream': messagesRequest(fakes.anthropic, { 'x-api-key': UPSTREAM_KEYS.anthropic }),
  }
}

/** Every series once; throws naming the first one that does not answer as expected. */
export async function probeProtocols(requests: Record<SeriesId, RequestSpec>): Promise<void> {
  for (const id of SERIES) {
    const problem = await probeRequest(requests[id])
    if (problem) throw new Error(`protocol path ${id} (${requests[id].url}) ${problem}`)
  }
}

export type ProtocolRound = Record<SeriesId, SeqResult>

/** Round r runs each group of series rotated by r, so that no series is always first after a pause. */
export async function measureProtocols(requests: Record<SeriesId, RequestSpec>, round: number, log: (line: string) => void): Promise<ProtocolRound> {
  const result = {} as ProtocolRound
  for (const group of SERIES_GROUPS) {
    for (const id of rotate(group, round)) {
      log(`  ${id}: up to ${PROTOCOL_OPTS.maxRequests} sequential requests`)
      result[id] = await sequential(requests[id], PROTOCOL_OPTS)
    }
  }
  return result
}

/** Gatehouse's extra time on the Gemini path minus its extra time on the relay path, each over the direct call. */
function translationMs(r: ProtocolRound, mode: 'json' | 'stream', f: (s: SeqResult) => number): number {
  const over = (via: ChatPath, direct: ChatPath) => f(r[`${via}.${mode}`]) - f(r[`${direct}.${mode}`])
  return over('gemini', 'geminiDirect') - over('relay', 'openaiDirect')
}

export function summarizeProtocols(rounds: ProtocolRound[]) {
  const medians = Object.fromEntries(SERIES.map((id) => [id, medianSeq(rounds.map((r) => r[id]))])) as ProtocolRound
  const translation = translationMs(medians, 'json', (s) => s.totalP50)
  const gh = medians['messages.stream']
  const direct = medians['anthropicDirect.stream']
  return {
    medians,
    translationOverheadMs: {
      latencyP50: translation,
      latencyP50PerRound: rounds.map((r) => translationMs(r, 'json', (s) => s.totalP50)),
      latencyP50MedianOfRounds: median(rounds.map((r) => translationMs(r, 'json', (s) => s.totalP50))),
      ttfbP50: translationMs(medians, 'stream', (s) => s.p50),
    },
    messagesGatehouseMinusDirectMs: { ttfbP50: gh.p50 - direct.p50, ttfbP99: gh.p99 - direct.p99, wholeStreamP50: gh.totalP50 - direct.totalP50 },
    goal: { goal: `< ${GOAL_TRANSLATION_MS} ms over relay`, deltaMs: translation, met: translation < GOAL_TRANSLATION_MS },
  }
}
export type ProtocolSummary = ReturnType<typeof summarizeProtocols>

/** Series whose requests failed, as `id: N failed of M`. */
export function protocolFailures(s: ProtocolSummary): Array<{ id: SeriesId; text: string }> {
  return SERIES.filter((id) => s.medians[id].failures > 0).map((id) => ({ id, text: `${s.medians[id].failures} failed of ${s.medians[id].requests}` }))
}
