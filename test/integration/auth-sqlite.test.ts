// Secrets at rest in the SQLite store's own files: what a copy of the data dir shows, freed pages and the WAL
// included. (auth.test.ts reads every table through the store on either engine.)
import { readFileSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { fakeOpenAIChat, TEST_KEY, withGateway } from '../helpers/gateway.js'

const { gw } = withGateway(fakeOpenAIChat())

describe('secrets at rest', () => {
  it('the gatehouse.sqlite files hold gateway keys hashed and upstream keys encrypted, sealed with secret.key', async () => {
    // a served request: the ledger and the key's spend are written too
    expect((await gw.post('/v1/chat/completions', { model: 'test-gpt', messages: [{ role: 'user', content: 'hi' }] })).status).toBe(200)
    const files = readdirSync(gw.dataDir).filter((f) => f.startsWith('gatehouse.sqlite'))
    const bytes = files.map((f) => readFileSync(join(gw.dataDir, f)).toString('latin1')).join('')
    expect(bytes.length).toBeGreaterThan(0)
    expect(bytes).not.toContain(TEST_KEY)
    expect(bytes).not.toContain('upstream-secret-a')
    expect(readdirSync(gw.dataDir)).toContain('secret.key')
  })
})
