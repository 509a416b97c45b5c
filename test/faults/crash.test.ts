import Database from 'better-sqlite3'
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startFakeOpenAI, type FakeOpenAI } from '../fakes/openai.js'
import { chatConfig, tempDataDir, TEST_KEY } from '../helpers/gateway.js'
import { runGateway } from '../helpers/spawn-gateway.js'

const WORDS = Array.from({ length: 400 }, (_, i) => `word${i}`).join(' ')
const PROMPT = 'Tell me a long story.'
// test-gpt's price: 2 USD per 1M input tokens, 8 per 1M output tokens = 2000 and 8000 nano-USD per token.
const costOf = (input: number, output: number) => input * 2000 + output * 8000

interface Row { id: string; status: number; error_code: string | null; input_tokens: number; output_tokens: number; cost_nano: number; key_id: string; usage_source: string | null; breakdown: string | null }

/** The ledger as the data dir holds it, read by a connection of its own. */
function readStore(dataDir: string) {
  const db = new Database(join(dataDir, 'gatehouse.sqlite'), { readonly: true })
  try {
    return {
      rows: db.prepare("SELECT * FROM requests WHERE endpoint = 'chat.completions'").all() as Row[],
      pending: db.prepare('SELECT * FROM pending_requests').all() as Array<{ id: string; output_tokens: number; cost_nano: number }>,
      balance: (db.prepare('SELECT balance_nano FROM account').get() as { balance_nano: number }).balance_nano,
      keyUsed: (db.prepare('SELECT used_nano FROM api_keys WHERE group_id = ?').get('main') as { used_nano: number }).used_nano,
    }
  } finally {
    db.close()
  }
}

let fake: FakeOpenAI
beforeAll(async () => {
  fake = await startFakeOpenAI()
})
afterAll(async () => fake.close())

describe('crash consistency of billing', () => {
  it('a gateway killed mid-stream bills the checkpointed usage once at the next start (499 interrupted_by_restart), and a further restart changes nothing', async () => {
    const dir = tempDataDir()
    const dataDir = join(dir.dir, 'data')
    const configPath = join(dir.dir, 'config.json')
    writeFileSync(configPath, JSON.stringify(chatConfig([{ id: 'a', baseUrl: fake.url }])))
    const args = ['--config', configPath, '--port', '0', '--data-dir', dataDir]
    // 400 words, one chunk each, 30 ms apart: 12 s of stream, far more than the test waits for.
    fake.setScenario({ kind: 'slow', delayMs: 30, text: WORDS })
    const run = runGateway(args)
    const url = await run.url
    const start = readStore(dataDir)

    const res = await fetch(`${url}/v1/chat/completions`, {
      method: 'POST',
      headers: { authorization: `Bearer ${TEST_KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'test-gpt', stream: true, messages: [{ role: 'user', content: PROMPT }] }),
    })
    expect(res.status).toBe(200)
    const id = res.headers.get('x-request-id')!
    const reader = res.body!.getReader()
    const decoder = new TextDecoder()
    let received = ''
    const contentChunks = () => received.split('\n\n').filter((f) => f.includes('"content":"w') || f.includes('"content":" w')).length
    // Read until 40 chunks arrived and a checkpoint with output is stored (at most 1 s after the first byte).
    const deadline = Date.now() + 10_000
    let checkpointed: { output_tokens: number } | undefined
    while (Date.now() < deadline && (contentChunks() < 40 || !checkpointed)) {
      const { value, done } = await reader.read()
      if (done) break
      received += decoder.decode(value, { stream: true })
      checkpointed = readStore(dataDir).pending.find((p) => p.id === id && p.output_tokens > 0)
    }
    expect(contentChunks()).toBeGreaterThanOrEqual(40)
    expect(checkpointed).toBeDefined()
    // No final row yet: only the pending one, which charges nothing.
    const before = readStore(dataDir)
    expect(before.rows.map((r) => r.id)).not.toContain(id)
    expect(before.balance).toBe(start.balance)

    run.child.kill('SIGKILL')
    await run.exited
    await reader.read().catch(() => undefined)
    fake.reset()

    const again = runGateway(args)
    await again.url
    const after = readStore(dataDir)
    const rows = after.rows.filter((r) => r.id === id)
    expect(rows).toHaveLength(1)
    const [row] = rows
    expect(row.status).toBe(499)
    expect(row.error_code).toBe('interrupted_by_restart')
    // Billed for the prompt and the output of the last checkpoint, at the model's price.
    expect(row.input_tokens).toBe(countTokens(`user\n${PROMPT}`))
    expect(row.output_tokens).toBeGreaterThanOrEqual(checkpointed!.output_tokens)
    const servedText = [...received.matchAll(/"content":"([^"]*)"/g)].map((m) => m[1]).join('')
    expect(row.output_tokens).toBeLessThanOrEqual(countTokens(servedText))
    expect(row.cost_nano).toBe(costOf(row.input_tokens, row.output_tokens))
    expect(row.cost_nano).toBeGreaterThan(0)
    // Counted by the gateway as the stream went, and priced in parts at test-gpt's $2 in and $8 out per 1M.
    expect(row.usage_source).toBe('local_count')
    expect(JSON.parse(row.breakdown!)).toEqual([
      { kind: 'input', units: row.input_tokens, unitPrice: 2, per: '1M tokens', cost: (row.input_tokens * 2000) / 1e9 },
      { kind: 'output', units: row.output_tokens, unitPrice: 8, per: '1M tokens', cost: (row.output_tokens * 8000) / 1e9 },
    ])
    const spent = after.rows.reduce((sum, r) => sum + r.cost_nano, 0)
    expect(spent).toBe(row.cost_nano)
    expect(after.balance).toBe(start.balance - spent)
    expect(after.keyUsed).toBe(start.keyUsed + row.cost_nano)
    expect(after.pending).toEqual([])
    expect(again.stderr()).toContain('settled 1 stream(s) interrupted by the last stop')
    // The gateway's own view agrees.
    const usage = (await (await fetch(`${await again.url}/v1/usage`, { headers: { authorization: `Bearer ${TEST_KEY}` } })).json()) as { balance: number; key: { used: number } }
    expect(usage.balance).toBeCloseTo(after.balance / 1e9, 9)
    expect(usage.key.used).toBeCloseTo(after.keyUsed / 1e9, 9)
    again.child.kill('SIGTERM')
    expect(await again.exited).toBe(0)

    // A further restart settles nothing and charges nothing.
    const third = runGateway(args)
    const thirdUsage = (await (await fetch(`${await third.url}/v1/usage`, { headers: { authorization: `Bearer ${TEST_KEY}` } })).json()) as { balance: number; key: { used: number } }
    expect(thirdUsage).toEqual(usage)
    expect(readStore(dataDir)).toEqual(after)
    expect(third.stderr()).not.toContain('settled')
    third.child.kill('SIGTERM')
    expect(await third.exited).toBe(0)
    dir.remove()
  }, 60_000)
})
