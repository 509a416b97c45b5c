// The OpenAI speech adapter: JSON in, audio bytes out (the relay pipes them).
import { describe, expect, it } from 'vitest'
import { openAISpeech } from '../../../../electron/gateway/upstreams/openai-speech.js'
import { ctxOf } from './adapter-kit.js'

const speech = openAISpeech('/audio/speech')
const ctx = ctxOf('openai', 'https://api.openai.com/v1', 'gpt-4o-mini-tts', 'tts')

describe('the speech adapter', () => {
  it('POSTs the JSON body to /audio/speech with bearer auth, asking for audio', () => {
    const body = { model: 'gpt-4o-mini-tts', input: 'Hello there', voice: 'alloy', response_format: 'mp3' }
    expect(speech.toRequest(body, ctx)).toEqual({
      method: 'POST',
      url: 'https://api.openai.com/v1/audio/speech',
      headers: { authorization: 'Bearer openai-account-key', 'content-type': 'application/json', accept: 'audio/*, */*' },
      body: JSON.stringify(body),
    })
  })

  it('has no stream of chunks to translate: speech is relayed as bytes', () => {
    expect(() => speech.streamTranslator({ includeUsage: false }, ctx)).toThrow('speech is relayed as bytes')
  })

  it("maps OpenAI's error body with its status, type and param", () => {
    expect(speech.fromError(400, '{"error":{"message":"[{\'type\': \'enum\', \'loc\': (\'body\', \'voice\')}]","type":"invalid_request_error","param":"voice","code":null}}'))
      .toMatchObject({ kind: 'invalid_request', status: 400, type: 'invalid_request_error', param: 'voice', code: 'invalid_request' })
  })
})
