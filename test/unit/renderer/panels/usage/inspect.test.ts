import { describe, expect, it } from 'vitest'
import type { CapturedExchange } from '../../../../../shared/admin'
import { answerImages, answerText, requestMessages, textDiff } from '../../../../../renderer/panels/usage/inspect'

const answer = (a: Partial<CapturedExchange['answer']>): CapturedExchange['answer'] => ({ status: 200, contentType: 'application/json', kind: 'json', truncated: false, bytes: 1, ...a })
const stripped = { stripped: 'media' as const, type: 'image/png', bytes: 70, sha256: 'ab'.repeat(32) }

describe('the inspector: a kept exchange as the panel shows it', () => {
  it('reads chat, messages and responses requests as messages, with images and media not kept', () => {
    expect(requestMessages({ messages: [{ role: 'system', content: 'Be brief.' }, { role: 'user', content: [{ type: 'text', text: 'What is it?' }, { type: 'image_url', image_url: { url: stripped } }, { type: 'image_url', image_url: { url: 'data:image/png;base64,AAAA' } }] }] })).toEqual([
      { role: 'system', text: 'Be brief.', images: [], stripped: [] },
      { role: 'user', text: 'What is it?', images: ['data:image/png;base64,AAAA'], stripped: [stripped] },
    ])
    expect(requestMessages({ system: 'Sys', messages: [{ role: 'user', content: [{ type: 'image', source: { type: 'base64', media_type: 'image/jpeg', data: 'BBBB' } }] }] })).toEqual([
      { role: 'system', text: 'Sys', images: [], stripped: [] },
      { role: 'user', text: '', images: ['data:image/jpeg;base64,BBBB'], stripped: [] },
    ])
    expect(requestMessages({ instructions: 'Sys', input: 'Hi' })).toEqual([
      { role: 'system', text: 'Sys', images: [], stripped: [] },
      { role: 'user', text: 'Hi', images: [], stripped: [] },
    ])
    expect(requestMessages({ omitted: 'not_json', type: 'multipart/form-data', bytes: 5, sha256: 'x' })).toEqual([])
  })

  it("reads an answer's text: chat, messages, responses, and a stream's deltas in order", () => {
    expect(answerText(answer({ body: { choices: [{ message: { content: 'Chat.' } }] } }))).toBe('Chat.')
    expect(answerText(answer({ body: { content: [{ type: 'text', text: 'Claude.' }] } }))).toBe('Claude.')
    expect(answerText(answer({ kind: 'sse', events: [
      { at: 1, data: { choices: [{ delta: { role: 'assistant', content: '' } }] } },
      { at: 2, data: { choices: [{ delta: { content: 'Hel' } }] } },
      { at: 3, event: 'content_block_delta', data: { type: 'content_block_delta', delta: { type: 'text_delta', text: 'lo' } } },
      { at: 4, data: { type: 'response.output_text.delta', delta: '!' } },
      { at: 5, data: '[DONE]' },
    ] }))).toBe('Hello!')
  })

  it("lists an image answer's pictures and the ones not kept", () => {
    expect(answerImages(answer({ body: { data: [{ url: 'https://x/a.png' }, { b64_json: 'CCCC' }, { b64_json: stripped }] } }))).toEqual({
      images: ['https://x/a.png', 'data:image/png;base64,CCCC'], stripped: [stripped],
    })
  })

  it('diffs two answers word by word', () => {
    expect(textDiff('The sky is blue.', 'The sky is grey.')).toEqual([
      { text: 'The sky is ', kind: 'same' }, { text: 'blue', kind: 'removed' }, { text: 'grey', kind: 'added' }, { text: '.', kind: 'same' },
    ])
  })
})
