import type { GatewayError } from '../errors.js'
import type { ChatStreamTranslator, TokenUsage } from '../contract/upstream.js'

/** A vendor's own part of a translator: its push, and the hooks its protocol answers in its own way. */
export type VendorStream = Pick<ChatStreamTranslator, 'push'> & Partial<Pick<ChatStreamTranslator, 'usage' | 'usageSoFar' | 'errorFrame' | 'endOfAnswer'>>

/**
 * What every stream translator tracks for the relay and billing, whatever the vendor: the usage reported, whether
 * the stream ended, whether it carried content, the error it sent, and the output text so far. The vendor's push
 * fills it in; `translator` answers the relay's questions from it. Nothing here runs per chunk but what push asks.
 */
export class StreamState {
  usage: TokenUsage | undefined = undefined
  done = false
  content = false
  error: GatewayError | undefined = undefined
  // Kept as pieces: joined only when billing asks, not once per chunk.
  readonly #produced: string[] = []
  // Whether every piece produced is the answer's own text (added by `answer`): only then can it be continued.
  #answerOnly = true

  /** Adds a piece of output text (counted when no usage arrives). */
  produce(text: string): void {
    this.#produced.push(text)
    this.#answerOnly = false
  }

  /** Adds a piece of the answer's own text (no reasoning, no tool arguments), counted like any output. */
  answer(text: string): void {
    this.#produced.push(text)
  }

  /** Keeps the usage an event reported; an event without any leaves the last one. */
  report(usage: TokenUsage | undefined): void {
    this.usage = usage ?? this.usage
  }

  /** The translator the relay drives: the vendor's push (and own hooks) over this state. */
  translator(vendor: VendorStream): ChatStreamTranslator {
    return {
      usage: () => this.usage,
      producedText: () => this.#produced.join(''),
      answerText: () => (this.#answerOnly ? this.#produced.join('') : undefined),
      finished: () => this.done,
      hasContent: () => this.content,
      upstreamError: () => this.error,
      ...vendor,
    }
  }
}
