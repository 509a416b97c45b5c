/**
 * The output text of a non-streamed answer, per protocol: what the gateway counts when an upstream's usage
 * cannot be billed (billed-usage.ts). Reads parsed JSON defensively: any part may be missing or of the wrong type.
 */

const str = (v: unknown): string => (typeof v === 'string' ? v : '')
const list = (v: unknown): Array<Record<string, unknown>> =>
  Array.isArray(v) ? v.filter((x): x is Record<string, unknown> => x !== null && typeof x === 'object') : []
const field = (v: unknown, name: string): unknown => (v !== null && typeof v === 'object' ? (v as Record<string, unknown>)[name] : undefined)
const join = (parts: string[]): string => parts.filter((p) => p !== '').join('\n')

/** chat.completion: each choice's content, reasoning and tool-call arguments. */
export function chatAnswerText(answer: unknown): string {
  return join(list(field(answer, 'choices')).flatMap((choice) => {
    const message = field(choice, 'message')
    const calls = list(field(message, 'tool_calls')).map((call) => str(field(field(call, 'function'), 'arguments')))
    return [str(field(message, 'reasoning_content')), str(field(message, 'content')), ...calls]
  }))
}

/** Messages: text, thinking and tool input of each content block. */
export function messagesAnswerText(answer: unknown): string {
  return join(list(field(answer, 'content')).map((block) => {
    if (block.type === 'tool_use' || block.type === 'server_tool_use') return JSON.stringify(block.input ?? {})
    return str(block.text) || str(block.thinking)
  }))
}

/** Responses: message text, reasoning summaries and function-call arguments of each output item. */
export function responsesAnswerText(answer: unknown): string {
  return join(list(field(answer, 'output')).flatMap((item) => [
    ...list(item.content).map((part) => str(part.text)),
    ...list(item.summary).map((part) => str(part.text)),
    str(item.arguments),
  ]))
}

/** Interactions: the text (and thoughts) of each output, in either generation of the API (`outputs[]` or `steps[]`). */
export function interactionsAnswerText(answer: unknown): string {
  const items = [...list(field(answer, 'outputs')), ...list(field(answer, 'steps'))]
  return join(items.flatMap((item) => [str(item.text), str(item.thought), ...list(item.content).map((part) => str(part.text))]))
}
