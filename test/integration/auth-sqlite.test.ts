// Secrets at rest in the SQLite store's own files: what a copy of the data dir shows, freed pages and the WAL
// included. (auth.test.ts reads every table through the store on either engine.)
import { readFileSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startFakeOpenAI, type FakeOpenAI } from '../fakes/openai.js'
import { chatConfig, startTestGateway, tempDataDir, TEST_KEY, type TestGateway } from '../helpers/gateway.js'

let fake: FakeOpenAI
let gw: TestGateway
const dataDir = tempDataDir()

beforeAll(async () => {
  fake = await startFakeOpenAI()
  gw = await startTestGateway(chatConfig([{ id: 'a', baseUrl: fake.url }]), dataDir)
})
afterAll(async () => {
  await gw.stop()
  await fake.close()
})

describe('secrets at rest', () => {
  it('the gatehouse.sqlite files hold gateway keys hashed and upstream keys encrypted, sealed with secret.key', async () => {
    // a served request: the ledger and the key's spend are written too
    expect((await gw.post('/v1/chat/completions', { model: 'test-gpt', messages: [{ role: 'user', content: 'hi' }] })).status).toBe(200)
    const files = readdirSync(dataDir.dir).filter((f) => f.startsWith('gatehouse.sqlite'))
    const bytes = files.map((f) => readFileSync(join(dataDir.dir, f)).toString('latin1')).join('')
    expect(bytes.length).toBeGreaterThan(0)
    expect(bytes).not.toContain(TEST_KEY)
    expect(bytes).not.toContain('upstream-secret-a')
    expect(readdirSync(dataDir.dir)).toContain('secret.key')
  })
})
