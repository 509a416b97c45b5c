import type { ChatStreamTranslator, RelayAdapter, TokenUsage, UpstreamCtx } from '../contract/upstream.js'

/** A translator that may write the end of a stream the upstream left unended. */
type Ending = { endOfAnswer?(usage: TokenUsage | undefined): string[] | undefined }

/** The account's own name for the model, when it maps the gateway's id to another (README "Model mapping and fallbacks"). */
export const accountModelName = (ctx: Pick<UpstreamCtx, 'model' | 'upstream'>): string | undefined => ctx.upstream.modelNames?.get(ctx.model.id)

/** Every string-valued `"model"` member of a JSON text (an escaped quote inside a string never matches). */
const MODEL_MEMBER = /"model"(\s*):(\s*)"(?:[^"\\]|\\.)*"/g

/**
 * The answer (a JSON body or one stream frame) with every `model` it names set to the gateway's id: the vendor may
 * answer with the account's name or its own dated version of it, and the client and the ledger know only the id.
 */
export function withGatewayModel(text: string, id: string): string {
  if (!text.includes('"model"')) return text
  const quoted = JSON.stringify(id)
  return text.replace(MODEL_MEMBER, (_match, before: string, after: string) => `"model"${before}:${after}${quoted}`)
}

/**
 * A relay adapter whose body carries the model (`model` in the JSON: OpenAI-compatible chat, responses, messages,
 * speech, another gateway): an account that maps the model gets its own name in the body, and the answer and its
 * stream name the gateway's id again. Accounts without a mapping go straight to the adapter, untouched.
 */
export function withModelNames(adapter: RelayAdapter): RelayAdapter {
  return {
    toRequest(body, ctx) {
      const name = accountModelName(ctx)
      return name === undefined ? adapter.toRequest(body, ctx) : adapter.toRequest({ ...body, model: name }, { ...ctx, rawBody: undefined })
    },
    fromResponse(text, ctx) {
      const result = adapter.fromResponse(text, ctx)
      return accountModelName(ctx) === undefined ? result : { ...result, body: withGatewayModel(result.body, ctx.model.id) }
    },
    streamTranslator(opts, ctx) {
      const translator = adapter.streamTranslator(opts, ctx)
      if (accountModelName(ctx) === undefined) return translator
      const id = ctx.model.id
      const rename = (frames: string[]): string[] => frames.map((frame) => withGatewayModel(frame, id))
      const renamed: ChatStreamTranslator = { ...translator, push: (event) => rename(translator.push(event)) }
      // Frames a translator writes itself at the end (a usage chunk it built) name the model too.
      const ending = translator as Ending
      if (ending.endOfAnswer !== undefined) {
        const endOfAnswer = ending.endOfAnswer
        ;(renamed as Ending).endOfAnswer = (usage) => {
          const end = endOfAnswer(usage)
          return end && rename(end)
        }
      }
      return renamed
    },
    fromError: adapter.fromError,
  }
}
