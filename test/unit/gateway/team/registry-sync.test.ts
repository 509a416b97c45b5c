import { describe, expect, it } from 'vitest'
import type { Registry } from '../../../../electron/gateway/registry.js'
import { registrySync } from '../../../../electron/gateway/team/registry-sync.js'

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** A registry whose reload and refresh take `ms` each and record what ran, and how many at once. */
function fakeRegistry(ms: number) {
  const ran: string[] = []
  let running = 0
  let most = 0
  const work = (what: string) => async () => {
    running++
    most = Math.max(most, running)
    await sleep(ms)
    ran.push(what)
    running--
  }
  const registry = { reload: work('reload'), refreshMoney: work('refresh') } as unknown as Registry
  return { registry, ran, most: () => most }
}

describe('registrySync (team mode)', () => {
  it('a burst of change notices causes one reload', async () => {
    const fake = fakeRegistry(5)
    const sync = registrySync(fake.registry, () => {})
    for (let i = 0; i < 20; i++) sync.changed()
    await sleep(150)
    expect(fake.ran).toEqual(['reload'])
    await sync.stop()
  })

  it('never runs two at once; a notice during a reload causes one more after it; a refresh asked during a reload is folded into the next reload', async () => {
    const fake = fakeRegistry(100)
    const sync = registrySync(fake.registry, () => {})
    sync.changed()
    await sleep(80) // the first reload is under way
    sync.changed()
    sync.refreshMoney()
    sync.refreshMoney()
    await sleep(400)
    expect(fake.most()).toBe(1)
    expect(fake.ran).toEqual(['reload', 'reload'])
    sync.refreshMoney()
    await sleep(150)
    expect(fake.ran).toEqual(['reload', 'reload', 'refresh'])
    await sync.stop()
  })

  it('logs a failed reload and goes on; nothing runs after stop', async () => {
    const lines: string[] = []
    let calls = 0
    const registry = {
      reload: async () => {
        calls++
        if (calls === 1) throw new Error('connection lost')
      },
      refreshMoney: async () => void calls++,
    } as unknown as Registry
    const sync = registrySync(registry, (l) => lines.push(l))
    sync.changed()
    await sleep(100)
    expect(lines).toEqual(['[gatehouse] team mode: reload after a change failed: connection lost'])
    sync.changed()
    await sleep(100)
    expect(calls).toBe(2)
    await sync.stop()
    sync.changed()
    sync.refreshMoney()
    await sleep(100)
    expect(calls).toBe(2)
  })
})
