// An OpenAI chat-completions upstream that paces its stream as a test scripts it, by model: headers at once, then
// frames written after waits, then the body ended, held open, or left open forever (until the client leaves). Each
// account is a path prefix (`${origin}/<account>/v1`); a model without a script is answered at once in full. Wire
// shapes follow ../../docs/vendors/openai.md (as test/fakes/openai.ts sends them). Calls are recorded with their time.
import http from 'node:http'
import { listenLocal } from '../fakes/listen-local.js'
import { pause, readBody } from '../fakes/scenarios.js'

/** One step of a scripted stream: a wait, or frames. */
export type Step = { waitMs: number } | { frames: string[] }

export interface Script {
  /** the steps after the headers */
  steps: Step[]
  /** after the steps: the body ended (default), or kept open until the client leaves */
  end?: 'close' | 'hold'
}

export interface PacedCall {
  account: string
  model: string
  /** performance.now() when the request arrived, and when its connection closed */
  at: number
  closedAt?: number
}

export interface PacedUpstream {
  origin: string
  calls: PacedCall[]
  /** the stream `account` plays for `model` (other accounts, other models: a whole answer at once) */
  script(account: string, model: string, script: Script): void
  close(): Promise<void>
}

const ID = 'chatcmpl-paced'
const CREATED = 1_767_000_000

export const chunk = (model: string, delta: object, finish: string | null = null) =>
  `data: ${JSON.stringify({ id: ID, object: 'chat.completion.chunk', created: CREATED, model, choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }] })}\n\n`
export const usageChunk = (model: string, prompt: number, completion: number) =>
  `data: ${JSON.stringify({ id: ID, object: 'chat.completion.chunk', created: CREATED, model, choices: [], usage: { prompt_tokens: prompt, completion_tokens: completion, total_tokens: prompt + completion } })}\n\n`
export const DONE = 'data: [DONE]\n\n'

/** The role chunk, one content chunk per word, the finish chunk; `usage` adds the usage-only chunk. */
export function answerFrames(model: string, words: string[], usage?: [number, number]): string[] {
  return [
    chunk(model, { role: 'assistant', content: '' }),
    ...words.map((w) => chunk(model, { content: w })),
    chunk(model, {}, 'stop'),
    ...(usage ? [usageChunk(model, ...usage)] : []),
  ]
}

export async function startPacedUpstream(): Promise<PacedUpstream> {
  const scripts = new Map<string, Script>()
  const calls: PacedCall[] = []
  const aborter = new AbortController()
  const server = http.createServer(async (req, res) => {
    const account = (req.url ?? '/').split('/')[1]
    const body = JSON.parse((await readBody(req)).toString('utf8')) as { model: string; stream?: boolean }
    const call: PacedCall = { account, model: body.model, at: performance.now() }
    calls.push(call)
    res.once('close', () => (call.closedAt = performance.now()))
    const script = scripts.get(`${account} ${body.model}`) ?? { steps: [{ frames: [...answerFrames(body.model, ['Hello', ' from', ` ${account}.`], [9, 3]), DONE] }] }
    res.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache' })
    res.flushHeaders()
    for (const step of script.steps) {
      if ('waitMs' in step) await pause(step.waitMs, aborter.signal)
      else for (const frame of step.frames) if (!res.destroyed) await new Promise<void>((resolve) => res.write(frame, () => resolve()))
      if (res.destroyed || aborter.signal.aborted) return
    }
    if (script.end !== 'hold') res.end()
  })
  const { origin, close } = await listenLocal(server, aborter)
  return {
    origin,
    calls,
    script: (account, model, script) => void scripts.set(`${account} ${model}`, script),
    close,
  }
}
