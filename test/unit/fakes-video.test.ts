// The switches every fake video vendor shares (task-script.ts), driven through the Seedance adapter.
import { errors } from 'undici'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { ark as seedance } from '../../electron/gateway/upstreams/video/ark.js'
import { startFakeArk } from '../fakes/video/ark.js'
import { parseStep, type FakeVideoServer } from '../fakes/video/task-script.js'
import { ctxFor, runTask, send, submission } from './gateway/video/drive.js'

const MODEL = 'doubao-seedance-1-5-pro-251215'
const sub = submission({ model: MODEL, prompt: 'p' })

describe('task scripts', () => {
  it.each([
    ['queued', { kind: 'queued' }],
    ['running', { kind: 'running' }],
    ['running:30', { kind: 'running', progress: 30 }],
    ['failed:QuotaExceeded', { kind: 'failed', code: 'QuotaExceeded' }],
    ['vendor-word:Weird:Word', { kind: 'vendor', word: 'Weird:Word' }],
  ])('parses %s', (text, step) => {
    expect(parseStep(text)).toEqual(step)
  })

  it('refuses an unknown step', () => {
    expect(() => parseStep('done')).toThrow(/unknown task-script step/)
  })
})

describe('fake switches', () => {
  let fake: FakeVideoServer
  let ctx: ReturnType<typeof ctxFor>
  beforeAll(async () => {
    fake = await startFakeArk()
    ctx = ctxFor('ark', MODEL, `${fake.url}/api/v3`, 'ark-test-key')
  })
  beforeEach(() => fake.reset())
  afterAll(() => fake.close())

  async function started(): Promise<string> {
    const res = await send(seedance.toStart(sub, ctx, 0))
    return seedance.fromStart(res.body, sub)
  }

  it('each answered poll advances one step, and the last step repeats', async () => {
    fake.script(['queued', 'running', 'succeeded'])
    const id = await started()
    const states = []
    for (let i = 0; i < 5; i++) states.push(seedance.fromPoll((await send(seedance.toPoll(id, ctx, 0))).body).state)
    expect(states).toEqual(['queued', 'running', 'succeeded', 'succeeded', 'succeeded'])
  })

  it('errorOnPoll answers the next N polls with that status, without advancing the task', async () => {
    fake.script(['queued', 'succeeded'])
    const id = await started()
    fake.switches.errorOnPoll = { status: 429, count: 2 }
    for (const _ of [1, 2]) {
      const res = await send(seedance.toPoll(id, ctx, 0))
      expect(seedance.fromError(res.status, res.text)).toMatchObject({ status: 429, retryable: true, code: 'RateLimitExceeded.EndpointRPMExceeded' })
    }
    expect(seedance.fromPoll((await send(seedance.toPoll(id, ctx, 0))).body).state).toBe('queued')
    fake.switches.errorOnPoll = { status: 500, count: 1 }
    expect((await send(seedance.toPoll(id, ctx, 0))).status).toBe(500)
    expect(seedance.fromPoll((await send(seedance.toPoll(id, ctx, 0))).body).state).toBe('succeeded')
  })

  it('timeoutOnPoll leaves the next N polls unanswered', async () => {
    const id = await started()
    fake.switches.timeoutOnPoll = 1
    await expect(send(seedance.toPoll(id, ctx, 0), { headersTimeout: 150 })).rejects.toBeInstanceOf(errors.HeadersTimeoutError)
    expect(seedance.fromPoll((await send(seedance.toPoll(id, ctx, 0))).body).state).toBe('queued')
  })

  it('slow delays every answer', async () => {
    fake.switches.slow = 120
    const t0 = Date.now()
    await started()
    expect(Date.now() - t0).toBeGreaterThanOrEqual(100)
  })

  it('options given at start survive reset; calls and tasks do not', async () => {
    const other = await startFakeArk({ script: ['failed'], errorOnPoll: { status: 503, count: 1 } })
    try {
      const octx = ctxFor('ark', MODEL, `${other.url}/api/v3`, 'ark-test-key')
      await expect(runTask(seedance, octx, sub)).rejects.toMatchObject({ status: 503 })
      other.reset()
      expect(other.calls).toHaveLength(0)
      expect(other.tasks.size).toBe(0)
      expect(other.switches.errorOnPoll).toEqual({ status: 503, count: 1 })
      other.switches.errorOnPoll = undefined
      expect((await runTask(seedance, octx, sub)).final.state).toBe('failed')
    } finally {
      await other.close()
    }
  })

  it('serves files only for tasks it created', async () => {
    expect((await send({ method: 'GET', url: `${fake.url}/files/nope.mp4`, headers: {} })).status).toBe(404)
  })
})
