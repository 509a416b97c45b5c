import { describe, expect, it } from 'vitest'
import { buildSnippets, snippetModel } from '../../../../../renderer/panels/keys/snippets'

describe('use-from-code snippets', () => {
  it('chat protocol: the openai SDKs at <base>/v1, and curl', () => {
    const s = buildSnippets('chat', 'http://127.0.0.1:8787/', 'gpt-5.2')
    expect(s.node).toBe(`import OpenAI from 'openai'

const client = new OpenAI({
  baseURL: 'http://127.0.0.1:8787/v1',
  apiKey: process.env.GATEHOUSE_API_KEY,
})

const completion = await client.chat.completions.create({
  model: 'gpt-5.2',
  messages: [{ role: 'user', content: 'Hello!' }],
})
console.log(completion.choices[0].message.content)
`)
    expect(s.python).toBe(`import os
from openai import OpenAI

client = OpenAI(
    base_url="http://127.0.0.1:8787/v1",
    api_key=os.environ["GATEHOUSE_API_KEY"],
)

completion = client.chat.completions.create(
    model="gpt-5.2",
    messages=[{"role": "user", "content": "Hello!"}],
)
print(completion.choices[0].message.content)
`)
    expect(s.curl).toBe(`curl http://127.0.0.1:8787/v1/chat/completions \\
  -H "Authorization: Bearer $GATEHOUSE_API_KEY" \\
  -H "Content-Type: application/json" \\
  -d '{"model": "gpt-5.2", "messages": [{"role": "user", "content": "Hello!"}]}'
`)
  })

  it('messages protocol: the Anthropic SDKs at <base> (no /v1), and curl with x-api-key', () => {
    const s = buildSnippets('messages', 'http://127.0.0.1:8787', 'claude-sonnet-4-5')
    expect(s.node).toBe(`import Anthropic from '@anthropic-ai/sdk'

const client = new Anthropic({
  baseURL: 'http://127.0.0.1:8787',
  apiKey: process.env.GATEHOUSE_API_KEY,
})

const message = await client.messages.create({
  model: 'claude-sonnet-4-5',
  max_tokens: 1024,
  messages: [{ role: 'user', content: 'Hello!' }],
})
console.log(message.content)
`)
    expect(s.python).toBe(`import os
from anthropic import Anthropic

client = Anthropic(
    base_url="http://127.0.0.1:8787",
    api_key=os.environ["GATEHOUSE_API_KEY"],
)

message = client.messages.create(
    model="claude-sonnet-4-5",
    max_tokens=1024,
    messages=[{"role": "user", "content": "Hello!"}],
)
print(message.content)
`)
    expect(s.curl).toBe(`curl http://127.0.0.1:8787/v1/messages \\
  -H "x-api-key: $GATEHOUSE_API_KEY" \\
  -H "anthropic-version: 2023-06-01" \\
  -H "Content-Type: application/json" \\
  -d '{"model": "claude-sonnet-4-5", "max_tokens": 1024, "messages": [{"role": "user", "content": "Hello!"}]}'
`)
  })

  it('shows a chat model of the group where there is one', () => {
    const types: Record<string, string> = { img: 'image', chat: 'chat' }
    expect(snippetModel(['img', 'chat'], (id) => types[id])).toBe('chat')
    expect(snippetModel(['img'], (id) => types[id])).toBe('img')
    expect(snippetModel([], () => undefined)).toBe('MODEL_ID')
  })
})
