/**
 * Local token counting (o200k_base), used when an upstream never reported usage (an interrupted stream)
 * and for the billing checkpoints of streams under way. Counted in bounded pieces that yield to the event
 * loop (token-slices.ts, which documents the error bound).
 */
import { countInSlices, type SliceOptions } from './token-slices.js'

type PieceCounter = (piece: string) => number

// Client text that looks like a special token ("<|endoftext|>") is counted as the plain text it is.
const PLAIN_TEXT = { disallowedSpecial: new Set<string>() }

let encoder: Promise<PieceCounter> | undefined

const loadEncoder = () =>
  (encoder ??= import('gpt-tokenizer/encoding/o200k_base').then((m): PieceCounter => (piece) => m.countTokens(piece, PLAIN_TEXT)))

/** Loads the tokenizer (its tables take ~0.5 s of blocking work), so that no request waits for it. */
export const loadTokenCounter = async (): Promise<void> => void (await loadEncoder())

/**
 * Tokens of a text. Never blocks the event loop for more than a few milliseconds; with `signal`, stops
 * when the client leaves (billing counts pass none: they must complete).
 */
export async function countTextTokens(text: string, options: Pick<SliceOptions, 'signal'> = {}): Promise<number> {
  if (text === '') return 0
  return countInSlices([text], await loadEncoder(), options)
}

/** Text of a chat request's messages, as the model reads it. */
export function promptText(messages: unknown): string {
  if (!Array.isArray(messages)) return ''
  const parts: string[] = []
  for (const message of messages as Array<{ role?: string; content?: unknown }>) {
    parts.push(message.role ?? '')
    if (typeof message.content === 'string') parts.push(message.content)
    else if (Array.isArray(message.content)) {
      for (const part of message.content as Array<{ type?: string; text?: unknown }>) if (typeof part.text === 'string') parts.push(part.text)
    }
  }
  return parts.join('\n')
}
