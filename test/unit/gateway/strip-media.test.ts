import { createHash } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { bodySettingsOf } from '../../../electron/gateway/data-dir/settings.js'
import { mapStrings, stripMedia } from '../../../electron/gateway/formats/strip-media.js'

const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64')
const WAV = Buffer.concat([Buffer.from('RIFF'), Buffer.alloc(4), Buffer.from('WAVEfmt '), Buffer.alloc(60, 7)])
const described = (bytes: Buffer, type: string) => ({ stripped: 'media', type, bytes: bytes.length, sha256: createHash('sha256').update(bytes).digest('hex') })

describe('stripMedia', () => {
  it('describes data URLs, Anthropic and Gemini base64 images, OpenAI input audio and image answers', () => {
    const body = {
      messages: [
        { role: 'user', content: [{ type: 'image_url', image_url: { url: `data:image/png;base64,${PNG.toString('base64')}` } }] },
        { role: 'user', content: [{ type: 'image', source: { type: 'base64', media_type: 'image/png', data: PNG.toString('base64') } }] },
        { role: 'user', content: [{ type: 'input_audio', input_audio: { data: WAV.toString('base64'), format: 'wav' } }] },
      ],
      contents: [{ parts: [{ inline_data: { mime_type: 'image/png', data: PNG.toString('base64') } }] }],
      data: [{ b64_json: PNG.toString('base64') }],
    }
    expect(stripMedia(body)).toEqual({
      messages: [
        { role: 'user', content: [{ type: 'image_url', image_url: { url: described(PNG, 'image/png') } }] },
        { role: 'user', content: [{ type: 'image', source: { type: 'base64', media_type: 'image/png', data: described(PNG, 'image/png') } }] },
        { role: 'user', content: [{ type: 'input_audio', input_audio: { data: described(WAV, 'wav'), format: 'wav' } }] },
      ],
      contents: [{ parts: [{ inline_data: { mime_type: 'image/png', data: described(PNG, 'image/png') } }] }],
      data: [{ b64_json: described(PNG, 'image/png') }],
    })
  })

  it('leaves text alone: short base64-looking ids, links, prose in a `data` field', () => {
    const body = { id: 'chatcmpl-abc', data: 'short', image: 'https://example.com/a.png', text: 'A'.repeat(200), content: 'hello world' }
    expect(stripMedia(body)).toEqual(body)
  })

  it('passes every other string through the given redactor, with and without media kept', () => {
    const redact = (s: string) => s.replaceAll('sk-secret-123', '[redacted]')
    expect(stripMedia({ a: ['key sk-secret-123'] }, redact)).toEqual({ a: ['key [redacted]'] })
    expect(mapStrings({ a: { b: 'sk-secret-123' }, n: 5 }, redact)).toEqual({ a: { b: '[redacted]' }, n: 5 })
  })
})

describe('keeping bodies by default', () => {
  it('is on in the desktop app and off headless until saved otherwise', () => {
    expect(bodySettingsOf({ port: 8787, language: 'en' }, 'desktop')).toEqual({ keep: true, keepMedia: false, count: 200 })
    expect(bodySettingsOf({ port: 8787, language: 'en' }, 'headless')).toEqual({ keep: false, keepMedia: false, count: 200 })
    const saved = { keep: false, keepMedia: true, count: 5 }
    expect(bodySettingsOf({ port: 8787, language: 'en', bodies: saved }, 'desktop')).toEqual(saved)
  })
})
