// The background half-open probe (README "Circuit breakers", relay/probe.ts): a primary that goes down opens its
// breaker, requests go to the secondary without touching it, the gateway probes it in the background with the
// vendor's model list (never a client request, never billed, never a ledger row), and traffic returns to it once
// the probe answers. And the probes end with the gateway: no timer or probe outlives close().
import type http from 'node:http'
import { setTimeout as sleep } from 'node:timers/promises'
import { afterEach, describe, expect, it } from 'vitest'
import type { UpstreamSummary } from '../../shared/admin.js'
import type { GatewayConfig } from '../../electron/gateway/config/load-config.js'
import { TEST_KEY, startTestGateway, tempDataDir, type TestGateway } from '../helpers/gateway.js'
import { parseJson, readBody, sendJson, serveFake } from '../fakes/scenarios.js'

const MODEL = 'probe-gpt'
const ACCOUNTS = ['primary', 'secondary'] as const
type Account = (typeof ACCOUNTS)[number]
const SECRET: Record<Account, string> = { primary: 'sk-probe-primary-secret-0001', secondary: 'sk-probe-secondary-secret-0002' }
const BREAKER = { failures: 2, coolDownMs: 600, probeTimeoutMs: 400 }
/**
 * How much later than its timer a wait may end on a loaded machine (the whole suite on two cores): added to the
 * deadlines of the waits below, each derived from the cool-down or the probe timeout, never to what is asserted.
 */
const LOAD_MARGIN_MS = 2_000

interface Call { at: number; account: Account | 'unknown'; method: string; path: string; authorization: string }

/** An OpenAI-compatible vendor of two accounts (told apart by key); an account may be down, or its model list silent. */
async function startVendor() {
  const calls: Call[] = []
  const down: Record<Account, boolean> = { primary: false, secondary: false }
  const silentList: Record<Account, boolean> = { primary: false, secondary: false }
  /** a down account heals the moment it has answered a probe (that probe still fails): when it healed, Date.now() */
  const healOnProbe: Record<Account, boolean> = { primary: false, secondary: false }
  const healedAt: Partial<Record<Account, number>> = {}
  const aborter = new AbortController()
  const handle = async (req: http.IncomingMessage, res: http.ServerResponse): Promise<void> => {
    const raw = (await readBody(req)).toString('utf8')
    const authorization = String(req.headers.authorization ?? '')
    const account = ACCOUNTS.find((a) => authorization === `Bearer ${SECRET[a]}`) ?? 'unknown'
    const path = (req.url ?? '/').split('?')[0]
    calls.push({ at: Date.now(), account, method: req.method ?? '', path, authorization })
    if (account === 'unknown') return sendJson(res, 401, { error: { message: 'Incorrect API key provided.', type: 'invalid_request_error', code: 'invalid_api_key' } }, 'application/json')
    if (down[account] && req.method === 'GET' && healOnProbe[account]) {
      down[account] = healOnProbe[account] = false
      healedAt[account] = Date.now()
      return sendJson(res, 503, { error: { message: 'The engine is currently overloaded, please try again later.', type: 'server_error' } }, 'application/json')
    }
    if (down[account]) return sendJson(res, 503, { error: { message: 'The engine is currently overloaded, please try again later.', type: 'server_error' } }, 'application/json')
    if (req.method === 'GET' && path === '/v1/models') {
      if (silentList[account]) {
        // no answer until the client leaves
        await new Promise<void>((resolve) => { req.once('close', resolve); aborter.signal.addEventListener('abort', () => resolve(), { once: true }) })
        return
      }
      return sendJson(res, 200, { object: 'list', data: [{ id: MODEL, object: 'model', created: 1_760_000_000, owned_by: 'system' }] }, 'application/json')
    }
    const body = parseJson(raw)
    if (req.method !== 'POST' || path !== '/v1/chat/completions' || !body.ok) return sendJson(res, 404, { error: { message: 'Not found' } }, 'application/json')
    return sendJson(res, 200, {
      id: `chatcmpl-${account}`, object: 'chat.completion', created: 1_760_000_000, model: MODEL,
      choices: [{ index: 0, message: { role: 'assistant', content: `answered by ${account}` }, finish_reason: 'stop' }],
      usage: { prompt_tokens: 3, completion_tokens: 3, total_tokens: 6 },
    }, 'application/json')
  }
  const server = await serveFake(handle, (res) => sendJson(res, 500, { error: { message: 'crashed' } }, 'application/json'), aborter)
  const chats = (account: Account) => calls.filter((c) => c.account === account && c.method === 'POST')
  const probes = (account: Account) => calls.filter((c) => c.account === account && c.method === 'GET')
  return { ...server, calls, down, silentList, healOnProbe, healedAt, chats, probes }
}
type Vendor = Awaited<ReturnType<typeof startVendor>>

function config(origin: string): GatewayConfig {
  return {
    account: { balance: 100, concurrency: 10 },
    models: [{ id: MODEL, family: 'gpt', vendor: 'openai', pricing: { unit: 'token', input: 2, output: 8 } }],
    upstreams: ACCOUNTS.map((a, i) => ({ id: a, vendor: 'openai' as const, baseUrl: `${origin}/v1`, apiKey: SECRET[a], models: [MODEL], priority: 10 - i })),
    groups: [{ id: 'main', protocol: 'chat', models: [MODEL], upstreams: [...ACCOUNTS] }],
    keys: [{ key: TEST_KEY, group: 'main' }],
    routing: { breaker: BREAKER },
  }
}

async function chat(gw: TestGateway) {
  const res = await gw.post('/v1/chat/completions', { model: MODEL, messages: [{ role: 'user', content: 'hi' }], max_tokens: 100 })
  const body = (await res.json()) as { choices?: Array<{ message: { content: string } }> }
  return { status: res.status, attempts: res.headers.get('x-gatehouse-attempts'), requestId: res.headers.get('x-request-id') ?? '', text: body.choices?.[0]?.message.content }
}

async function breakerOf(gw: TestGateway, account: Account): Promise<UpstreamSummary['breaker']> {
  const res = await fetch(`${gw.url}/admin/v1/upstreams`, { headers: { authorization: `Bearer ${gw.adminToken}` } })
  expect(res.status).toBe(200)
  return ((await res.json()) as UpstreamSummary[]).find((u) => u.id === account)!.breaker
}

/** Polls until `check` holds, at most `ms` (every wait has a deadline). */
async function waitFor(check: () => boolean | Promise<boolean>, ms: number, what: string): Promise<void> {
  const deadline = Date.now() + ms
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`${what}: not within ${ms} ms`)
    await sleep(10)
  }
}

/** The test's vendor and gateway, stopped after it (a test that stops its gateway itself takes it out first). */
const current: { vendor?: Vendor; gw?: TestGateway; logs: string[] } = { logs: [] }
afterEach(async () => {
  await current.gw?.stop()
  await current.vendor?.close()
  current.gw = current.vendor = undefined
  current.logs = []
})

async function start(breaker = BREAKER): Promise<{ vendor: Vendor; gw: TestGateway; logs: string[] }> {
  const vendor = (current.vendor = await startVendor())
  const logs = current.logs
  const gw = (current.gw = await startTestGateway({ ...config(vendor.origin), routing: { breaker } }, tempDataDir(), { log: (line) => logs.push(line) }))
  return { vendor, gw, logs }
}

/** A gateway whose primary's breaker opened and whose probe is under way: the model list answers nothing. */
async function probeInFlight(): Promise<{ vendor: Vendor; gw: TestGateway }> {
  const { vendor, gw } = await start()
  vendor.down.primary = true
  for (let i = 0; i < BREAKER.failures; i++) expect((await chat(gw)).status).toBe(200)
  vendor.down.primary = false
  vendor.silentList.primary = true
  await waitFor(() => vendor.probes('primary').length === 1, BREAKER.coolDownMs + LOAD_MARGIN_MS, 'the probe')
  return { vendor, gw }
}

describe('background half-open probe', () => {
  it('primary down: skipped once open, probed in the background, traffic back to it when the probe answers', async () => {
    // Every probe here is answered at once: a long probe deadline keeps a slow answer on a loaded machine from
    // counting as a failed probe (the probe deadline has its own test below).
    const { vendor, gw, logs } = await start({ ...BREAKER, probeTimeoutMs: 10_000 })
    vendor.down.primary = true

    // Two failures in a row open the primary's breaker; each request is still answered by the secondary.
    for (let i = 0; i < BREAKER.failures; i++) {
      expect(await chat(gw)).toMatchObject({ status: 200, attempts: '2', text: 'answered by secondary' })
    }
    const openedAt = Date.now()
    expect(vendor.chats('primary')).toHaveLength(2)
    expect(await breakerOf(gw, 'primary')).toMatchObject({ state: 'open', probing: false, trial: 'probe' })

    // Open: the primary is skipped at once, never called.
    const skipped = []
    for (let i = 0; i < 3; i++) skipped.push(await chat(gw))
    for (const r of skipped) expect(r).toMatchObject({ status: 200, attempts: '1', text: 'answered by secondary' })
    expect(vendor.chats('primary')).toHaveLength(2)
    await gw.services.store.ledger.flush()
    expect(JSON.parse(String((await gw.services.store.ledger.get(skipped[0].requestId))?.attempts))).toEqual([
      { account: 'primary', model: MODEL, outcome: 'skipped: breaker open', ms: 0, next: 'failed over' },
      { account: 'secondary', model: MODEL, outcome: 'ok', ms: expect.any(Number) },
    ])

    // At the end of the cool-down the gateway probes the primary's model list, with its key; still down: open again.
    // The primary heals as it answers that probe, so the next probe, and no request, finds it healthy.
    vendor.healOnProbe.primary = true
    await waitFor(() => vendor.probes('primary').length >= 1, BREAKER.coolDownMs + LOAD_MARGIN_MS, 'the first probe')
    const firstProbe = vendor.probes('primary')[0]
    expect(firstProbe).toMatchObject({ method: 'GET', path: '/v1/models', authorization: `Bearer ${SECRET.primary}` })
    expect(firstProbe.at - openedAt).toBeGreaterThanOrEqual(BREAKER.coolDownMs - 50)
    expect(firstProbe.at - openedAt).toBeLessThan(BREAKER.coolDownMs + 300)
    await waitFor(async () => (await breakerOf(gw, 'primary')).transitions.some((t) => t.why === 'probe failed: status 503'), LOAD_MARGIN_MS, 'the failed probe on record')
    // Requests meanwhile still skip the primary, healed or not: no client request is its trial.
    expect(await chat(gw)).toMatchObject({ status: 200, attempts: '1', text: 'answered by secondary' })
    expect(vendor.chats('primary')).toHaveLength(2)

    // Healed: the next probe (one cool-down after the failed one) closes the breaker, no request made.
    const healedAt = vendor.healedAt.primary!
    expect(healedAt).toBeGreaterThanOrEqual(firstProbe.at)
    const requestsBefore = vendor.chats('primary').length + vendor.chats('secondary').length
    await waitFor(async () => (await breakerOf(gw, 'primary')).state === 'closed', BREAKER.coolDownMs + LOAD_MARGIN_MS, 'the breaker closed by a probe')
    // when the gateway closed it (its own record), not when this test's polling saw it
    const closedMs = (await breakerOf(gw, 'primary')).transitions.at(-1)!.at - healedAt
    expect(closedMs).toBeLessThan(BREAKER.coolDownMs + 500)
    expect(vendor.chats('primary').length + vendor.chats('secondary').length).toBe(requestsBefore)
    const probes = vendor.probes('primary')
    expect(probes).toHaveLength(2)
    // one cool-down between probes, one probe in flight at a time
    expect(probes[1].at - probes[0].at).toBeGreaterThanOrEqual(BREAKER.coolDownMs - 50)
    const breaker = await breakerOf(gw, 'primary')
    expect(breaker.transitions.map((t) => [t.from, t.to, t.why])).toEqual([
      ['closed', 'open', '2 failures in a row: status 503'],
      ['open', 'half-open', 'background probe'],
      ['half-open', 'open', 'probe failed: status 503'],
      ['open', 'half-open', 'background probe'],
      ['half-open', 'closed', 'probe answered (status 200)'],
    ])
    expect(breaker.probing).toBe(false)

    // Traffic is back on the primary: the first account answers at its first call.
    const back = await chat(gw)
    expect(back).toMatchObject({ status: 200, attempts: '1', text: 'answered by primary' })
    expect(vendor.chats('primary')).toHaveLength(3)

    // Probes are never billed nor written: one ledger row per client request, each billed once.
    await gw.services.store.ledger.flush()
    const rows = await gw.services.store.ledger.recent(null, 100)
    expect(rows).toHaveLength(BREAKER.failures + skipped.length + 2)
    expect(rows.every((r) => r.model === MODEL && r.status === 200)).toBe(true)
    expect(rows.filter((r) => r.upstream_id === 'primary')).toHaveLength(1)
    // the secret never reaches a log line
    expect(logs.some((l) => l.includes('breaker of upstream primary: background probe answered, closed'))).toBe(true)
    expect(logs.join('\n')).not.toContain(SECRET.primary)
    console.log(`[breaker-probe] first probe ${firstProbe.at - openedAt} ms after opening; closed ${closedMs} ms after the heal; probes ${probes.length}; primary chat calls ${vendor.chats('primary').length}`)
  })

  it('a silent model list is a failed probe at its own deadline; requests keep skipping the account', async () => {
    const { vendor, gw } = await probeInFlight()
    const probeAt = vendor.probes('primary')[0].at
    expect((await breakerOf(gw, 'primary')).probing).toBe(true)
    // while it runs, a request skips the primary
    expect(await chat(gw)).toMatchObject({ status: 200, attempts: '1', text: 'answered by secondary' })
    await waitFor(async () => (await breakerOf(gw, 'primary')).transitions.at(-1)?.why === 'probe failed: timeout', BREAKER.probeTimeoutMs + LOAD_MARGIN_MS, 'the probe timed out')
    const failedAfter = Date.now() - probeAt
    expect(failedAfter).toBeGreaterThanOrEqual(BREAKER.probeTimeoutMs - 50)
    expect(await breakerOf(gw, 'primary')).toMatchObject({ state: 'open', probing: false })
    expect(vendor.chats('primary')).toHaveLength(2)
    console.log(`[breaker-probe] a silent model list: the probe failed ${failedAfter} ms after it was sent (deadline ${BREAKER.probeTimeoutMs} ms)`)
  })

  it('close() cuts a probe in flight and clears the armed ones: nothing outlives the gateway', async () => {
    const { vendor, gw } = await probeInFlight()
    const prober = gw.services.routing.prober!
    expect(prober.pending).toBe(1)
    current.gw = undefined
    const started = Date.now()
    await gw.stop()
    const closeMs = Date.now() - started
    const { services } = gw
    // the probe's own deadline (400 ms) is not waited out, nor the close grace (1 s)
    expect(closeMs).toBeLessThan(BREAKER.probeTimeoutMs)
    expect(prober.pending).toBe(0)
    // no probe starts after close, whatever opens
    services.routing.breakers.failure('secondary')
    services.routing.breakers.failure('secondary')
    expect(prober.pending).toBe(0)
    await sleep(BREAKER.coolDownMs + 100)
    expect(vendor.probes('secondary')).toHaveLength(0)
    expect(vendor.probes('primary')).toHaveLength(1)
    console.log(`[breaker-probe] close() with a probe in flight took ${closeMs} ms`)
  })
})
