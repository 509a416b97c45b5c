import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { startGateway } from '../../electron/gateway/gateway.js'
import { aesSecretBox } from '../../electron/gateway/secrets/secrets.js'
import { startFakeOpenAI } from '../fakes/openai.js'
import { chatConfig, tempDataDir, TEST_KEY, type TestGateway } from '../helpers/gateway.js'
import { freshDatabase } from '../helpers/pg-database.js'
import { newSecretKey, startReplica } from '../helpers/team.js'

const started: TestGateway[] = []
const dirs: Array<{ remove(): void }> = []
afterEach(async () => {
  await Promise.all(started.splice(0).map((g) => g.stop()))
  for (const d of dirs.splice(0)) d.remove()
})
const track = (g: TestGateway) => (started.push(g), g)
const dataDir = () => {
  const d = tempDataDir()
  dirs.push(d)
  return d.dir
}

describe('team mode: start', () => {
  it('refuses to start without the shared secret key, naming both ways to give it', async () => {
    const url = await freshDatabase()
    const saved = process.env.GATEHOUSE_SECRET_KEY
    delete process.env.GATEHOUSE_SECRET_KEY
    try {
      await expect(startGateway({ dataDir: dataDir(), databaseUrl: url, port: 0, log: () => {} })).rejects.toThrow(
        'team mode needs the secret key every replica shares: set GATEHOUSE_SECRET_KEY (base64 of 32 bytes, e.g. from `openssl rand -base64 32`) or pass --secret-key-file FILE',
      )
    } finally {
      if (saved !== undefined) process.env.GATEHOUSE_SECRET_KEY = saved
    }
  })

  it('takes the key from --secret-key-file or GATEHOUSE_SECRET_KEY; a key that is not 32 bytes is refused', async () => {
    const url = await freshDatabase()
    const key = newSecretKey()
    const dir = dataDir()
    const file = join(dir, 'team.key')
    writeFileSync(file, `${key}\n`)
    const fromFile = await startGateway({ dataDir: dataDir(), databaseUrl: url, secretKeyFile: file, port: 0, log: () => {} })
    await fromFile.close()
    // A path to something else is read no further than a key file's size: a large file, an endless device.
    const large = join(dir, 'large.key')
    writeFileSync(large, `${key}\n`.repeat(50_000))
    await expect(startGateway({ dataDir: dataDir(), databaseUrl: url, secretKeyFile: large, port: 0, log: () => {} })).rejects.toThrow(`team mode: --secret-key-file ${large} is not base64 of 32 bytes`)
    await expect(startGateway({ dataDir: dataDir(), databaseUrl: url, secretKeyFile: '/dev/zero', port: 0, log: () => {} })).rejects.toThrow(
      'team mode: --secret-key-file /dev/zero is not text (UTF-8, or UTF-16 with a byte order mark)',
    )
    process.env.GATEHOUSE_SECRET_KEY = key
    try {
      const fromEnv = await startGateway({ dataDir: dataDir(), databaseUrl: url, port: 0, log: () => {} })
      await fromEnv.close()
      process.env.GATEHOUSE_SECRET_KEY = 'c2hvcnQ='
      await expect(startGateway({ dataDir: dataDir(), databaseUrl: url, port: 0, log: () => {} })).rejects.toThrow('team mode: GATEHOUSE_SECRET_KEY is not base64 of 32 bytes')
    } finally {
      delete process.env.GATEHOUSE_SECRET_KEY
    }
  })

  it("refuses a replica whose key is not the one the database was sealed with", async () => {
    const url = await freshDatabase()
    const fake = await startFakeOpenAI()
    try {
      track(await startReplica(url, newSecretKey(), chatConfig([{ id: 'a', baseUrl: fake.url }])))
      await expect(startReplica(url, newSecretKey(), chatConfig([{ id: 'a', baseUrl: fake.url }]))).rejects.toThrow(
        "team mode: this replica's secret key is not the one the database was sealed with",
      )
    } finally {
      await fake.close()
    }
  })

  it('never logs the database password', async () => {
    const url = await freshDatabase()
    const password = decodeURIComponent(new URL(url).password)
    const lines: string[] = []
    const gw = await startGateway({ dataDir: dataDir(), databaseUrl: url, secrets: aesSecretBox(Buffer.from(newSecretKey(), 'base64')), port: 0, log: (l) => lines.push(l) })
    gw.services.log(`a driver quoting ${url}`)
    await gw.close()
    expect(lines.some((l) => l.startsWith('[gatehouse] team mode: replica '))).toBe(true)
    expect(lines.join('\n')).not.toContain(password)
    expect(lines.at(-1)).toContain('a driver quoting postgres://')
  })

  it('two replicas starting together with one config apply it once: the balance is not doubled, nothing is duplicated', async () => {
    const url = await freshDatabase()
    const fake = await startFakeOpenAI()
    try {
      const key = newSecretKey()
      const config = chatConfig([{ id: 'a', baseUrl: fake.url }], { account: { balance: 100, concurrency: 5 } })
      const [a, b] = await Promise.all([startReplica(url, key, config), startReplica(url, key, config)])
      track(a)
      track(b)
      const sql = a.services.store.sql
      expect(await sql.get('SELECT balance_nano, budget_nano FROM account')).toEqual({ balance_nano: 100_000_000_000, budget_nano: 100_000_000_000 })
      expect(await sql.get('SELECT count(*) AS n FROM api_keys')).toEqual({ n: 2 })
      expect(await sql.all('SELECT id FROM groups ORDER BY id')).toEqual([{ id: 'anthropic-only' }, { id: 'claude' }, { id: 'default' }, { id: 'main' }])
      expect(await sql.get('SELECT count(*) AS n FROM upstreams')).toEqual({ n: 1 })
      // A third start with the same config changes nothing either.
      track(await startReplica(url, key, config))
      expect(await sql.get('SELECT balance_nano FROM account')).toEqual({ balance_nano: 100_000_000_000 })
      // Both serve the shared key.
      for (const gw of [a, b]) expect((await gw.post('/v1/chat/completions', { model: 'test-gpt', messages: [{ role: 'user', content: 'hi' }] })).status).toBe(200)
    } finally {
      await fake.close()
    }
  })

  it('a fresh database gets one first key, shown only by the replica that created it', async () => {
    const url = await freshDatabase()
    const key = newSecretKey()
    const [a, b] = await Promise.all([startReplica(url, key, {}), startReplica(url, key, {})])
    track(a)
    track(b)
    expect([a.firstKey, b.firstKey].filter((k) => k !== undefined)).toHaveLength(1)
    expect(await a.services.store.sql.get('SELECT count(*) AS n FROM api_keys')).toEqual({ n: 1 })
    const firstKey = (a.firstKey ?? b.firstKey)!
    expect(firstKey).not.toBe(TEST_KEY)
    const models = await fetch(`${b.url}/v1/models`, { headers: { authorization: `Bearer ${firstKey}` } })
    expect(models.status).toBe(200)
  })
})
