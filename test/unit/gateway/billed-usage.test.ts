import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { CatalogModel } from '../../../shared/types.js'
import { addUsage, billableQuantity, billableUsage, streamUsage, TOKEN_CEILING, tokenLimits, usageProblem } from '../../../electron/gateway/money/billed-usage.js'
import { effectiveModel } from '../../../electron/gateway/families/index.js'
import { costNano } from '../../../electron/gateway/billing/billing.js'
import { openDb, type Db } from '../../../electron/gateway/store/db.js'
import { ledgerRepo, type LedgerEntry } from '../../../electron/gateway/store/ledger.js'
import { sqliteSql } from '../../../electron/gateway/store/sqlite-sql.js'
import { countTextTokens } from '../../../electron/gateway/tokens/tokens.js'
import { tempDataDir } from '../../helpers/gateway.js'

const model = (limits?: CatalogModel['limits']): CatalogModel =>
  ({ id: 'm', family: 'gpt', type: 'chat', vendor: 'openai', created: 0, pricing: { unit: 'token', input: 2, output: 8 }, limits }) as CatalogModel
const text = { prompt: () => 'user\nhello', output: () => 'Hello there' }

describe('usage is checked before it is billed', () => {
  it.each<[string, object | undefined, CatalogModel['limits'], string | undefined]>([
    ['plausible usage', { inputTokens: 10, outputTokens: 5, cachedInputTokens: 2 }, undefined, undefined],
    ['no usage', undefined, undefined, 'no usage reported'],
    ['negative input', { inputTokens: -1, outputTokens: 5 }, undefined, 'input tokens out of range'],
    ['negative cached', { inputTokens: 1, outputTokens: 5, cachedInputTokens: -3 }, undefined, 'input tokens out of range'],
    ['fractional output', { inputTokens: 1, outputTokens: 1.5 }, undefined, 'output tokens out of range'],
    ['NaN output', { inputTokens: 1, outputTokens: Number.NaN }, undefined, 'output tokens out of range'],
    ['a string', { inputTokens: '12', outputTokens: 1 }, undefined, 'input tokens out of range'],
    ['missing output', { inputTokens: 1 }, undefined, 'output tokens out of range'],
    ['above the ceiling', { inputTokens: TOKEN_CEILING + 1, outputTokens: 1 }, undefined, 'input tokens out of range'],
    ['above maxInputTokens with cache', { inputTokens: 60, outputTokens: 1, cachedInputTokens: 41 }, { maxInputTokens: 100 }, 'input tokens out of range'],
    ['above the context window', { inputTokens: 1, outputTokens: 2001 }, { contextTokens: 2000 }, 'output tokens out of range'],
    ['above maxOutputTokens', { inputTokens: 1, outputTokens: 65 }, { contextTokens: 2000, maxOutputTokens: 64 }, 'output tokens out of range'],
    ['cache writes within maxInputTokens', { inputTokens: 10, outputTokens: 1, cachedInputTokens: 30, cacheWrite5mTokens: 30, cacheWrite1hTokens: 30 }, { maxInputTokens: 100 }, undefined],
    ['cache writes over maxInputTokens', { inputTokens: 10, outputTokens: 1, cachedInputTokens: 30, cacheWrite5mTokens: 30, cacheWrite1hTokens: 31 }, { maxInputTokens: 100 }, 'input tokens out of range'],
    ['negative cache write', { inputTokens: 10, outputTokens: 1, cacheWrite1hTokens: -1 }, undefined, 'input tokens out of range'],
  ])('%s', (_, usage, limits, problem) => {
    expect(usageProblem(model(limits), usage as never)).toBe(problem)
  })

  it('absurd usage is replaced by the local count, marked as such', async () => {
    const [input, output] = [await countTextTokens(text.prompt()), await countTextTokens(text.output())]
    const usage = await billableUsage(model(), { inputTokens: -400_000_000, outputTokens: 1e15 }, { text })
    expect(usage).toEqual({ inputTokens: input, outputTokens: output, source: 'local_count', raw: { counted_locally: true, reason: 'input tokens out of range', prompt_tokens: input, completion_tokens: output } })
  })

  it('quantities are capped by what was asked, and invalid ones take the fallback', () => {
    expect([billableQuantity(3, 2), billableQuantity(-1, 4, 2), billableQuantity(Number.NaN, 4, 2), billableQuantity(Infinity, 10, 5), billableQuantity(1.5, 4)]).toEqual([2, 2, 2, 5, 1.5])
  })

  it('costNano is never negative or non-finite', () => {
    const m = model()
    expect(costNano(m, { inputTokens: -1000, outputTokens: -1000 })).toBe(0)
    expect(costNano(m, { inputTokens: Number.NaN, outputTokens: Infinity })).toBe(0)
    expect(costNano(m, { inputTokens: 1e300, outputTokens: 0 })).toBe(0)
    expect(costNano(m, { inputTokens: 10, outputTokens: 5 })).toBe(10 * 2000 + 5 * 8000)
  })
})

describe("a stream's usage for billing", () => {
  const stream = (usage: object | undefined, soFar: object | undefined, produced: string) =>
    ({ usage: () => usage as never, usageSoFar: soFar === undefined ? undefined : () => soFar as never, producedText: () => produced })

  it('a stream that reported its usage at the end is billed by it, whatever came before', async () => {
    const reported = { inputTokens: 12, outputTokens: 30, cachedInputTokens: 0 }
    expect(await streamUsage(stream(reported, { inputTokens: 12, outputTokens: 1 }, 'Hello there'), model())).toBe(reported)
  })

  it('a stream cut before its usage keeps the input the upstream reported first (each class), with its output counted', async () => {
    const soFar = { inputTokens: 12, cachedInputTokens: 90_000, cacheWrite5mTokens: 400, outputTokens: 1, raw: { input_tokens: 12, cache_read_input_tokens: 90_000 } }
    const counted = await countTextTokens('Hello there, this was cut')
    expect(counted).toBeGreaterThan(1)
    expect(await streamUsage(stream(undefined, soFar, 'Hello there, this was cut'), model())).toEqual({
      inputTokens: 12, cachedInputTokens: 90_000, cacheWrite5mTokens: 400, outputTokens: counted, source: 'local_count',
      raw: { counted_locally: true, reason: 'stream cut: input as reported, output counted', reported: soFar.raw, completion_tokens: counted },
    })
  })

  it('the output billed is never below what the upstream had counted', async () => {
    const usage = await streamUsage(stream(undefined, { inputTokens: 9, outputTokens: 190, reasoningTokens: 185 }, 'There are'), model())
    expect(usage).toMatchObject({ inputTokens: 9, outputTokens: 190, reasoningTokens: 185, source: 'local_count' })
  })

  it('an input reported as 0 (an API that copies the protocol and counts at the end) is none: billing counts it all', async () => {
    expect(await streamUsage(stream(undefined, { inputTokens: 0, cachedInputTokens: 0, outputTokens: 0 }, 'Hello'), model())).toBeUndefined()
  })

  it('an input out of range (above the model\'s limit, negative, not a count) is not taken: billing counts it all', async () => {
    for (const inputTokens of [TOKEN_CEILING + 1, -5, Number.NaN]) {
      expect(await streamUsage(stream(undefined, { inputTokens, outputTokens: 1 }, 'Hello'), model())).toBeUndefined()
    }
    expect(await streamUsage(stream(undefined, { inputTokens: 500, outputTokens: 1 }, 'Hello'), model({ maxInputTokens: 100 }))).toBeUndefined()
  })

  it('nothing reported at all: undefined, so billing counts the prompt and the output', async () => {
    expect(await streamUsage(stream(undefined, undefined, 'Hello'), model())).toBeUndefined()
    expect(await streamUsage({ usage: () => undefined, producedText: () => 'Hello' }, model())).toBeUndefined()
  })
})

describe('the store never takes a credit', () => {
  let dir: ReturnType<typeof tempDataDir>
  let db: Db
  beforeEach(() => {
    dir = tempDataDir()
    db = openDb(dir.dir)
    db.prepare("INSERT INTO api_keys (id, hash, hint, group_id, created_at, used_nano) VALUES ('k', 'h', 'x', 'g', 0, 500)").run()
    db.prepare('UPDATE account SET balance_nano = 1000 WHERE id = 1').run()
  })
  afterEach(() => {
    db.close()
    dir.remove()
  })
  const entry = (id: string, cost: number): LedgerEntry => ({
    id, key_id: 'k', group_id: 'g', model: 'm', endpoint: 'chat.completions', status: 200, error_code: null, upstream_id: null,
    input_tokens: null, output_tokens: null, usage: null, cost_nano: cost, latency_ms: 1, created_at: 0,
  })
  const money = () => db.prepare("SELECT (SELECT balance_nano FROM account) AS balance, (SELECT used_nano FROM api_keys WHERE id = 'k') AS used").get()

  it('a ledger row with a negative or non-finite cost is recorded at 0 and charges nothing', async () => {
    const ledger = ledgerRepo(sqliteSql(db), () => {})
    ledger.enqueue(entry('neg', -3_000_000))
    ledger.enqueue(entry('nan', Number.NaN))
    ledger.enqueue(entry('ok', 100))
    await ledger.flush()
    expect([(await ledger.get('neg'))!.cost_nano, (await ledger.get('nan'))!.cost_nano, (await ledger.get('ok'))!.cost_nano]).toEqual([0, 0, 100])
    expect(money()).toEqual({ balance: 900, used: 600 })
  })

  it('the schema refuses a negative cost and a falling key spend, whatever the code path', () => {
    expect(() => db.prepare("INSERT INTO requests (id, endpoint, status, cost_nano, latency_ms, created_at) VALUES ('x', 'e', 200, -1, 0, 0)").run()).toThrow('cost_nano must not be negative')
    expect(() => db.prepare("INSERT INTO tasks (id, kind, key_id, group_id, model, endpoint, status, cost_nano, created_at, updated_at) VALUES ('t', 'image', 'k', 'g', 'm', 'e', 'running', -1, 0, 0)").run()).toThrow('cost_nano must not be negative')
    expect(() => db.prepare("UPDATE api_keys SET used_nano = used_nano - 1 WHERE id = 'k'").run()).toThrow('used_nano must not fall')
    expect(money()).toEqual({ balance: 1000, used: 500 })
  })
})

describe('usages added (a continued answer, an image request of several calls)', () => {
  it('class by class: cache reads and writes, image input and reasoning each stay apart; counted locally if any part was', () => {
    const cut = { inputTokens: 12, outputTokens: 40, source: 'local_count' as const }
    const continued = { inputTokens: 5, outputTokens: 20, cachedInputTokens: 50, cacheWrite5mTokens: 300, cacheWrite1hTokens: 200, reasoningTokens: 7 }
    expect(addUsage(cut, continued)).toEqual({ inputTokens: 17, outputTokens: 60, cachedInputTokens: 50, cacheWrite5mTokens: 300, cacheWrite1hTokens: 200, reasoningTokens: 7, source: 'local_count' })
    expect(addUsage({ inputTokens: 1, outputTokens: 2, imageInputTokens: 3 }, { inputTokens: 4, outputTokens: 5, imageInputTokens: 6 })).toEqual({ inputTokens: 5, outputTokens: 7, cachedInputTokens: 0, imageInputTokens: 9 })
    expect(addUsage(continued, undefined)).toBe(continued)
  })
})

describe('a model\'s token limits', () => {
  it('a GPT-family row with no output limit takes the family\'s (GPT-5\'s 128,000), never the 100M ceiling', () => {
    const row = { id: 'gpt-new', family: 'gpt', vendor: 'openai', created: 0, pricing: { unit: 'token', input: 0.1, output: 0.5 } } as CatalogModel
    expect(tokenLimits(effectiveModel(row))).toEqual({ input: TOKEN_CEILING, output: 128000 })
  })

  it('an output limit above the context window is cut to the window', () => {
    expect(tokenLimits(model({ contextTokens: 32000, maxOutputTokens: 128000 }))).toEqual({ input: 32000, output: 32000 })
    expect(tokenLimits(model({ contextTokens: 1_000_000 }))).toEqual({ input: 1_000_000, output: 1_000_000 })
  })
})
