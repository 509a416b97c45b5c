// A real recorded answer of OpenAI's speech endpoint (test/fixtures/recorded/openai/, INDEX.md there: RubyLLM's
// cassette of gpt-4o-mini-tts) replayed through the gateway's speech adapter and read by the official `openai` SDK.
// The answer is audio with no usage, so the bill is the request's characters at the built-in catalog row's price.
import OpenAI from 'openai'
import { describe, expect, it } from 'vitest'
import { loadBuiltinModels } from '../../electron/gateway/catalog/catalog.js'
import { recordedBytes, startReplayUpstream } from '../fakes/replay.js'
import { TEST_KEY, withGateway } from '../helpers/gateway.js'
import { nextLedgerRow } from '../helpers/recorded.js'

const MODEL = 'gpt-4o-mini-tts'
const FILE = 'openai/ruby-llm-gpt-4o-mini-tts.mp3'
// The sentence the cassette's request spoke.
const INPUT = 'Ruby is a programming language designed for developer happiness.'

const { gw, fakes } = withGateway({
  fakes: { replay: startReplayUpstream },
  resetFakes: true,
  config: ({ replay }) => ({
    account: { balance: 100, concurrency: 5 },
    upstreams: [{ id: 'recorded', vendor: 'openai', baseUrl: `${replay.url}/v1`, apiKey: 'recorded-openai-secret' }],
    groups: [{ id: 'speech', protocol: 'chat', models: [MODEL], upstreams: ['recorded'] }],
    keys: [{ key: TEST_KEY, group: 'speech' }],
  }),
})
const client = () => new OpenAI({ baseURL: `${gw.url}/v1`, apiKey: TEST_KEY, maxRetries: 0 })

/** The built-in catalog row's price, USD per 1M characters. */
function characterPrice(id: string): number {
  const pricing = loadBuiltinModels().find((m) => m.id === id)?.pricing
  if (pricing?.unit !== 'character') throw new Error(`the catalog has no character price for ${id}`)
  return pricing.price
}

describe('recorded OpenAI speech (gpt-4o-mini-tts)', () => {
  it('the recorded MP3 reaches the SDK byte for byte as audio/mpeg; billed the input\'s characters at the catalog price', async () => {
    fakes.replay.serve({ file: FILE, contentType: 'audio/mpeg' })
    const row = await nextLedgerRow(gw)
    const audio = await client().audio.speech.create({ model: MODEL, input: INPUT, voice: 'alloy' })
    expect(audio.headers.get('content-type')).toBe('audio/mpeg')
    const bytes = Buffer.from(await audio.arrayBuffer())
    expect(bytes.length).toBe(85_632)
    expect(bytes.equals(recordedBytes(FILE))).toBe(true)

    expect(fakes.replay.calls).toHaveLength(1)
    expect(fakes.replay.calls[0]).toMatchObject({ method: 'POST', path: '/v1/audio/speech' })
    expect(fakes.replay.calls[0]!.headers.authorization).toBe('Bearer recorded-openai-secret')
    expect(JSON.parse(fakes.replay.calls[0]!.body)).toMatchObject({ model: MODEL, input: INPUT, voice: 'alloy' })

    const price = characterPrice(MODEL)
    const characters = [...INPUT].length
    expect(characters).toBe(64)
    const ledger = await row()
    expect(ledger).toMatchObject({ endpoint: 'audio.speech', status: 200, usage_source: 'local_count', cost_nano: Math.round(characters * price * 1000) })
    expect(JSON.parse(ledger.usage!)).toEqual({ characters })
  })
})
