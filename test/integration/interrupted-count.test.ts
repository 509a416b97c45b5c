import { describe, expect, it } from 'vitest'
import { fakeOpenAIChat, withGateway } from '../helpers/gateway.js'

/** `n` lowercase letters with no space or punctuation: one huge "word" for a BPE tokenizer. */
function spaceless(n: number): string {
  const bytes = Buffer.alloc(n)
  let x = 11
  for (let i = 0; i < n; i++) {
    x = (x * 1103515245 + 12345) % 2147483648
    bytes[i] = 97 + (x % 26)
  }
  return bytes.toString('latin1')
}

const { gw, fakes: { openai: fake } } = withGateway(fakeOpenAIChat())

describe('counting an interrupted stream never stalls other requests', () => {
  it('a 160 KB spaceless prompt cut by its client after the first chunk is billed while another client is answered within 1 s each', async () => {
    fake.setScenario({ kind: 'ok', usage: { prompt_tokens: 10, completion_tokens: 5 } })
    fake.once({ kind: 'slow', delayMs: 50, text: Array.from({ length: 200 }, (_, i) => `w${i}`).join(' ') })
    const res = await gw.post('/v1/chat/completions', { model: 'test-gpt', stream: true, messages: [{ role: 'user', content: spaceless(160 * 1024) }] })
    expect(res.status).toBe(200)
    const id = res.headers.get('x-request-id')!
    const reader = res.body!.getReader()
    await reader.read()
    await reader.cancel()

    // The gateway now counts the prompt and the output locally; meanwhile the other client's requests are answered.
    const latencies: number[] = []
    const deadline = Date.now() + 30_000
    while ((await gw.services.store.ledger.get(id)) === undefined && Date.now() < deadline) {
      const started = performance.now()
      const other = await gw.post('/v1/chat/completions', { model: 'test-gpt', messages: [{ role: 'user', content: 'hi' }] })
      expect(other.status).toBe(200)
      await other.arrayBuffer()
      latencies.push(performance.now() - started)
    }
    const row = (await gw.services.store.ledger.get(id))!
    // The final row replaced the stream's pending row.
    expect((await gw.services.store.ledger.getPending(id))).toBeUndefined()
    expect(await gw.services.store.sql.get('SELECT COUNT(*) AS n FROM requests WHERE id = ?', [id])).toEqual({ n: 1 })
    expect(row.status).toBe(499)
    expect(row.error_code).toBe('client_closed_request')
    expect(row.input_tokens).toBeGreaterThan(16 * 1024)
    expect(row.cost_nano).toBe(row.input_tokens! * 2000 + row.output_tokens! * 8000)
    expect(latencies.length).toBeGreaterThan(0)
    expect(Math.max(...latencies)).toBeLessThan(1000)
  }, 60_000)
})
