import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { createBodyBudget, DEFAULT_BODY_BYTES, keyBodyBytes } from '../../../electron/gateway/client/body-budget.js'
import { loadConfig } from '../../../electron/gateway/config/load-config.js'
import type { GatewayError } from '../../../electron/gateway/errors.js'
import { releasingBoth } from '../../../electron/gateway/limits.js'
import type { ApiKey } from '../../../electron/gateway/contract/accounts.js'
import { gatewayConfig } from '../../../shared/schemas/config.js'
import { tempDataDir } from '../../helpers/gateway.js'

const key = (id: string, concurrency: number | null = null): ApiKey => ({
  id, hint: 'sk-…', groupId: 'main', name: null, concurrency, quotaNano: null, usedNano: 0, expiresAt: null, disabled: false,
})
const A = key('a')
const B = key('b')

/** A budget of `total` bytes gateway-wide and `perKey` per key. */
const budgetOf = (total: number, perKey: number) => createBodyBudget(total, () => perKey)

/** The error `grow` threw, or undefined. */
function refusal(grow: () => void): GatewayError | undefined {
  try {
    grow()
    return undefined
  } catch (err) {
    return err as GatewayError
  }
}

const RETRY_HEADERS = { 'retry-after': '1', 'retry-after-ms': '1000', connection: 'close' }

describe('body budget', () => {
  it('a key holds at most its budget: past it, 429 apikey_body_limit with Retry-After, and nothing more is held', () => {
    const budget = budgetOf(1000, 100)
    const first = budget.hold(A)
    first.grow(60)
    const second = budget.hold(A)
    const error = refusal(() => second.grow(41))
    expect(error).toMatchObject({ status: 429, code: 'apikey_body_limit', type: 'rate_limit_error', headers: RETRY_HEADERS })
    expect(error!.message).toBe('The request bodies in flight for this API key would exceed its budget of 100 bytes; retry after the current ones finish.')
    expect(error!.localized('zh')).toBe('此 API 密钥处理中的请求体将超过其 100 字节的额度，请在当前请求完成后重试。')
    expect(budget.held(A.id)).toBe(60)
    expect(budget.held()).toBe(60)
    // Exactly up to the budget fits; another key has a budget of its own.
    second.grow(40)
    budget.hold(B).grow(100)
    expect([budget.held(A.id), budget.held(B.id), budget.held()]).toEqual([100, 100, 200])
  })

  it("the gateway holds at most its total: past it, 503 gateway_body_limit, also for a key within its own budget and for admin bodies", () => {
    const budget = budgetOf(150, 100)
    budget.hold(A).grow(100)
    const error = refusal(() => budget.hold(B).grow(51))
    expect(error).toMatchObject({ status: 503, code: 'gateway_body_limit', type: 'overloaded_error', headers: RETRY_HEADERS })
    expect(error!.message).toBe('The gateway already holds its limit of 150 bytes of request bodies; retry in a moment.')
    expect(error!.localized('zh')).toBe('网关暂存的请求体已达 150 字节的上限，请稍后重试。')
    expect(refusal(() => budget.hold(undefined).grow(51))).toMatchObject({ status: 503, code: 'gateway_body_limit' })
    expect([budget.held(B.id), budget.held()]).toEqual([0, 100])
    budget.hold(undefined).grow(50)
    expect(budget.held()).toBe(150)
  })

  it('a body of unknown length, taken at the most it may be, keeps only its size once read; keeping more than it holds changes nothing', () => {
    const budget = budgetOf(1000, 100)
    const chunked = budget.hold(A)
    chunked.grow(100)
    expect(refusal(() => budget.hold(A).grow(1))).toMatchObject({ code: 'apikey_body_limit' })
    chunked.keep(30)
    expect([budget.held(A.id), budget.held()]).toEqual([30, 30])
    chunked.keep(80)
    expect(budget.held(A.id)).toBe(30)
    budget.hold(A).grow(70)
    chunked.release()
    expect([budget.held(A.id), budget.held()]).toEqual([70, 70])
  })

  it('a hold is given back exactly once, however often it is released; after the release it holds and gives back nothing', () => {
    const budget = budgetOf(1000, 100)
    const first = budget.hold(A)
    first.grow(70)
    const second = budget.hold(A)
    second.grow(30)
    first.release()
    first.release()
    // Released twice, given back once: the other hold's 30 bytes are still counted.
    expect([budget.held(A.id), budget.held()]).toEqual([30, 30])
    first.grow(50)
    first.keep(0)
    expect(budget.held(A.id)).toBe(30)
    second.release()
    expect([budget.held(A.id), budget.held()]).toEqual([0, 0])
  })

  it("one release gives back a request's body bytes and its slot, each once", () => {
    const budget = budgetOf(1000, 100)
    const hold = budget.hold(A)
    hold.grow(40)
    let slotReleases = 0
    const release = releasingBoth(hold.release, () => void slotReleases++)
    release()
    release()
    expect([budget.held(), slotReleases]).toEqual([0, 1])
  })
})

describe("a key's byte budget", () => {
  it('is its concurrency cap (the lower of its own and the account’s) times the body limit', () => {
    expect(keyBodyBytes(key('k', 1), 5, 60_000_000)).toBe(60_000_000)
    expect(keyBodyBytes(key('k', 9), 5, 60_000_000)).toBe(300_000_000)
    expect(keyBodyBytes(key('k', null), 3, 60_000_000)).toBe(180_000_000)
  })
})

describe('limits.bodyBytes', () => {
  it('defaults to 320 MiB, as published in the config schema; below one full-size body (60 MB) the config is refused naming it', () => {
    expect(DEFAULT_BODY_BYTES).toBe(320 * 1024 * 1024)
    expect(gatewayConfig.properties.limits.properties.bodyBytes.default).toBe(DEFAULT_BODY_BYTES)
    const dir = tempDataDir()
    try {
      const path = join(dir.dir, 'config.json')
      writeFileSync(path, JSON.stringify({ limits: { bodyBytes: 59_999_999 } }))
      expect(() => loadConfig(path)).toThrow('invalid config: limits.bodyBytes: must be >= 60000000')
      writeFileSync(path, JSON.stringify({ limits: { bodyBytes: 60_000_000 } }))
      expect(loadConfig(path).limits).toEqual({ bodyBytes: 60_000_000 })
    } finally {
      dir.remove()
    }
  })
})
