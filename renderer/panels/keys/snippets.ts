/**
 * "Use from code": how an SDK reaches a group. Chat-protocol groups take OpenAI SDKs at `<base>/v1`; messages-protocol
 * groups take Anthropic SDKs at `<base>` (they add /v1 themselves; spec §1). The key is read from the environment.
 */
import type { GroupProtocol } from '../../../shared/types'

export const KEY_ENV = 'GATEHOUSE_API_KEY'

export interface Snippets {
  node: string
  python: string
  curl: string
}

const PROMPT = 'Hello!'

function chatSnippets(baseUrl: string, model: string): Snippets {
  const node = `import OpenAI from 'openai'

const client = new OpenAI({
  baseURL: '${baseUrl}/v1',
  apiKey: process.env.${KEY_ENV},
})

const completion = await client.chat.completions.create({
  model: '${model}',
  messages: [{ role: 'user', content: '${PROMPT}' }],
})
console.log(completion.choices[0].message.content)
`
  const python = `import os
from openai import OpenAI

client = OpenAI(
    base_url="${baseUrl}/v1",
    api_key=os.environ["${KEY_ENV}"],
)

completion = client.chat.completions.create(
    model="${model}",
    messages=[{"role": "user", "content": "${PROMPT}"}],
)
print(completion.choices[0].message.content)
`
  const curl = `curl ${baseUrl}/v1/chat/completions \\
  -H "Authorization: Bearer $${KEY_ENV}" \\
  -H "Content-Type: application/json" \\
  -d '{"model": "${model}", "messages": [{"role": "user", "content": "${PROMPT}"}]}'
`
  return { node, python, curl }
}

function messagesSnippets(baseUrl: string, model: string): Snippets {
  const node = `import Anthropic from '@anthropic-ai/sdk'

const client = new Anthropic({
  baseURL: '${baseUrl}',
  apiKey: process.env.${KEY_ENV},
})

const message = await client.messages.create({
  model: '${model}',
  max_tokens: 1024,
  messages: [{ role: 'user', content: '${PROMPT}' }],
})
console.log(message.content)
`
  const python = `import os
from anthropic import Anthropic

client = Anthropic(
    base_url="${baseUrl}",
    api_key=os.environ["${KEY_ENV}"],
)

message = client.messages.create(
    model="${model}",
    max_tokens=1024,
    messages=[{"role": "user", "content": "${PROMPT}"}],
)
print(message.content)
`
  const curl = `curl ${baseUrl}/v1/messages \\
  -H "x-api-key: $${KEY_ENV}" \\
  -H "anthropic-version: 2023-06-01" \\
  -H "Content-Type: application/json" \\
  -d '{"model": "${model}", "max_tokens": 1024, "messages": [{"role": "user", "content": "${PROMPT}"}]}'
`
  return { node, python, curl }
}

/** The snippets for a group's protocol; `model` is one of its chat models (or a placeholder). */
export function buildSnippets(protocol: GroupProtocol, baseUrl: string, model: string): Snippets {
  const base = baseUrl.replace(/\/+$/, '')
  return protocol === 'messages' ? messagesSnippets(base, model) : chatSnippets(base, model)
}

/** The model a snippet shows: the group's first chat model, else its first model, else a placeholder. */
export function snippetModel(models: string[], typeOf: (id: string) => string | undefined): string {
  return models.find((m) => typeOf(m) === 'chat') ?? models[0] ?? 'MODEL_ID'
}
