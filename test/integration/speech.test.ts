import { createServer } from 'node:http'
import OpenAI from 'openai'
import { describe, expect, it } from 'vitest'
import { listenLocal } from '../fakes/listen-local.js'
import { TEST_KEY, withGateway } from '../helpers/gateway.js'

const received: Array<{ path: string; body: Record<string, unknown> }> = []
const CHUNKS = [Buffer.from('ID3-part-1'), Buffer.from('-part-2'), Buffer.from('-part-3')]

/** A fake of OpenAI's speech endpoint: answers audio in three chunks, 50 ms apart, as a real TTS stream does. */
const speechApi = createServer(async (req, res) => {
  let text = ''
  for await (const c of req) text += c
  received.push({ path: req.url ?? '', body: JSON.parse(text) })
  res.writeHead(200, { 'content-type': 'audio/mpeg' })
  for (const chunk of CHUNKS) {
    res.write(chunk)
    await new Promise((r) => setTimeout(r, 50))
  }
  res.end()
})

const { gw } = withGateway({
  fakes: { upstream: () => listenLocal(speechApi) },
  config: ({ upstream }) => ({
    account: { balance: 10 },
    models: [{ id: 'test-tts', family: 'tts', vendor: 'openai', pricing: { unit: 'character', price: 15 }, maxInputChars: 20, formats: ['mp3', 'wav'] } as never],
    upstreams: [{ id: 'o', vendor: 'openai', baseUrl: `${upstream.origin}/v1`, apiKey: 'k' }],
    groups: [{ id: 'main', protocol: 'chat', models: ['test-tts'], upstreams: ['o'] }],
    keys: [{ key: TEST_KEY, group: 'main' }],
  }),
})

describe('POST /v1/audio/speech', () => {
  it('streams the audio as it arrives and bills per input character', async () => {
    const res = await gw.post('/v1/audio/speech', { model: 'test-tts', input: 'Héllo wörld', voice: 'alloy' })
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe('audio/mpeg')
    const reader = res.body!.getReader()
    const first = await reader.read()
    // The first chunk arrives before the upstream has finished (it waits 100 ms more).
    expect(Buffer.from(first.value!).toString()).toBe('ID3-part-1')
    let rest = ''
    for (let r = await reader.read(); !r.done; r = await reader.read()) rest += Buffer.from(r.value).toString()
    expect(rest).toBe('-part-2-part-3')
    expect(received.at(-1)).toEqual({ path: '/v1/audio/speech', body: { model: 'test-tts', input: 'Héllo wörld', voice: 'alloy' } })
    const row = (await gw.services.store.ledger.recent(null, 1))[0]
    // 11 characters at 15 USD per 1M characters
    expect(row).toMatchObject({ endpoint: 'audio.speech', status: 200, cost_nano: 11 * 15 * 1000 })
    // Characters of the request, counted by the gateway (the vendor's audio has no usage): docs/vendor-usage.md
    expect(row).toMatchObject({ usage_source: 'local_count', breakdown: JSON.stringify([{ kind: 'characters', units: 11, unitPrice: 15, per: '1M characters', cost: 0.000165 }]) })
    expect(JSON.parse(row.usage!)).toEqual({ characters: 11 })
  })

  it('works with the openai client', async () => {
    const client = new OpenAI({ baseURL: `${gw.url}/v1`, apiKey: TEST_KEY, maxRetries: 0 })
    const audio = await client.audio.speech.create({ model: 'test-tts', input: 'Hi', voice: 'alloy' })
    expect(Buffer.from(await audio.arrayBuffer()).toString()).toBe('ID3-part-1-part-2-part-3')
  })

  it.each([
    [{ input: 'x'.repeat(21), voice: 'alloy' }, 'input: must be at most 20 characters (got 21)'],
    [{ input: 'hi', voice: 'alloy', response_format: 'opus' }, 'response_format: must be one of mp3, wav'],
    [{ voice: 'alloy' }, 'missing input field'],
    [{ input: 'hi' }, 'missing voice field'],
  ])('refuses %j before any upstream call', async (fields, message) => {
    const before = received.length
    const res = await gw.post('/v1/audio/speech', { model: 'test-tts', ...fields })
    expect(res.status).toBe(400)
    expect(((await res.json()) as { error: { message: string } }).error.message).toBe(message)
    expect(received.length).toBe(before)
  })
})
