/**
 * Local token counting, used only when an upstream never reported usage (an interrupted stream).
 * gpt-tokenizer's o200k_base is loaded on first use: it is large and rarely needed.
 */
let encoder: Promise<{ countTokens(text: string): number }> | undefined

const loadEncoder = () => (encoder ??= import('gpt-tokenizer/encoding/o200k_base').then((m) => ({ countTokens: (t: string) => m.encode(t).length })))

export async function countTextTokens(text: string): Promise<number> {
  if (text === '') return 0
  return (await loadEncoder()).countTokens(text)
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
