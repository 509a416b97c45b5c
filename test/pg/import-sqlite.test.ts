// `npm run gateway -- import-sqlite FILE --database-url …`: an embedded store built through a real gateway on SQLite
// (keys, groups, upstream accounts with sealed secrets, the ledger, a task, kept media, settings) moves into
// PostgreSQL; the figures agree; a second run adds nothing; a gateway on the database serves what was moved.
import { randomBytes } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { GatewayConfig } from '../../electron/gateway/config/load-config.js'
import { startGateway, type RunningGateway } from '../../electron/gateway/gateway.js'
import { fileSecretBox } from '../../electron/gateway/secrets/secrets.js'
import { importSqlite } from '../../electron/gateway/team/import-sqlite.js'
import { startFakeOpenAI, type FakeOpenAI } from '../fakes/openai.js'
import { chatConfig, tempDataDir, TEST_KEY, withLocalLinks } from '../helpers/gateway.js'
import { finished, runGatewayWith } from '../helpers/gateway-process.js'
import { freshDatabase } from '../helpers/pg-database.js'

let fake: FakeOpenAI
const source = tempDataDir()
const other = tempDataDir()
const replicaDir = tempDataDir()
let databaseUrl: string
let mediaId: string
let taskId: string
const png = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), randomBytes(3000)])
const chat = { model: 'test-gpt', messages: [{ role: 'user', content: 'hello' }] }
const json = (key = TEST_KEY) => ({ authorization: `Bearer ${key}`, 'content-type': 'application/json' })
const config = (): GatewayConfig => withLocalLinks(chatConfig([{ id: 'up', baseUrl: fake.url }]))

beforeAll(async () => {
  fake = await startFakeOpenAI()
  fake.setScenario({ kind: 'ok', usage: { prompt_tokens: 10, completion_tokens: 5 } })
  databaseUrl = await freshDatabase()
  // The store, built through the gateway on SQLite: a ledger row with a charge, an async image task, kept media.
  const gw = await startGateway({ dataDir: source.dir, config: config(), port: 0, log: () => {} })
  try {
    expect((await fetch(`${gw.url}/v1/chat/completions`, { method: 'POST', headers: json(), body: JSON.stringify(chat) })).status).toBe(200)
    const task = await fetch(`${gw.url}/v1/images/generations`, { method: 'POST', headers: { ...json(), prefer: 'respond-async' }, body: JSON.stringify({ model: 'test-image', prompt: 'a cat' }) })
    expect(task.status).toBe(202)
    taskId = ((await task.json()) as { task_id: string }).task_id
    const upload = await fetch(`${gw.url}/admin/v1/media?request=req_import`, { method: 'POST', headers: { authorization: `Bearer ${gw.adminToken}`, 'content-type': 'image/png' }, body: png })
    expect(upload.status).toBe(201)
    mediaId = ((await upload.json()) as { id: string }).id
    await gw.services.store.ledger.flush()
  } finally {
    await gw.close(2_000)
  }
  // Another store, for the refusal.
  const second = await startGateway({ dataDir: other.dir, config: config(), port: 0, log: () => {} })
  await second.close(1_000)
})
afterAll(async () => {
  await fake?.close()
  for (const dir of [source, other, replicaDir]) dir.remove()
})

const file = (dir: { dir: string }) => join(dir.dir, 'gatehouse.sqlite')

describe('import-sqlite', () => {
  let report: string[]
  it('moves every kind of row and the kept media, and prints figures that agree', async () => {
    report = await importSqlite({ file: file(source), databaseUrl, secrets: fileSecretBox(source.dir) })
    expect(report[0]).toBe('keys: 2 in the store, 2 in the database; sum 60000 and 60000')
    expect(report[1]).toMatch(/^groups: (\d+) in the store, \1 in the database; sum 0 and 0$/)
    expect(report[2]).toBe('upstream accounts: 1 in the store, 1 in the database; sum 60000 and 60000')
    expect(report[3]).toMatch(/^ledger rows: (\d+) in the store, \1 in the database; sum 60000 and 60000$/)
    expect(report[4]).toMatch(/^tasks: 1 in the store, 1 in the database; sum (\d+) and \1$/)
    expect(report[5]).toBe('media: 1 in the store, 1 in the database; sum 0 and 0')
    expect(report[6]).toBe('account balance: 1 in the store, 1 in the database; sum 99999940000 and 99999940000')
    expect(report[7]).toBe(`media bytes: ${png.length} in the data dir, ${png.length} in the database`)
    expect(report[8]).toMatch(/^imported now: \d+ row\(s\), 1 media file\(s\)$/)
  })

  it('a second run adds nothing', async () => {
    const again = await importSqlite({ file: file(source), databaseUrl, secrets: fileSecretBox(source.dir) })
    expect(again.slice(0, 8)).toEqual(report.slice(0, 8))
    expect(again[8]).toBe('imported now: 0 row(s), 0 media file(s)')
  })

  it('runs as `npm run gateway -- import-sqlite FILE --database-url URL`: the figures on stdout, nothing added again', async () => {
    const run = await finished(runGatewayWith(['import-sqlite', file(source), '--database-url', databaseUrl], { GATEHOUSE_SECRET_KEY: readFileSync(join(source.dir, 'secret.key'), 'utf8') }))
    expect(run.code).toBe(0)
    expect(run.stdout).toEqual([...report.slice(0, 8), 'imported now: 0 row(s), 0 media file(s)'])
    const refused = await finished(runGatewayWith(['import-sqlite', file(source)], {}))
    expect(refused).toEqual({ code: 1, stdout: [], stderr: 'import-sqlite: give the database (--database-url or GATEHOUSE_DATABASE_URL)\n' })
  })

  it('refuses a wrong secret key, and a database holding another store\'s data unless forced', async () => {
    await expect(importSqlite({ file: file(other), databaseUrl, secrets: fileSecretBox(source.dir) }))
      .rejects.toThrow(`import-sqlite: the secret key given is not the one ${file(other)} was sealed with (its data dir's secret.key)`)
    await expect(importSqlite({ file: file(other), databaseUrl, secrets: fileSecretBox(other.dir) }))
      .rejects.toThrow('import-sqlite: the database already holds data (requests) of another store; --force moves this one in beside it')
  })

  it('a gateway on the database serves what was moved: keys, spend, the upstream secret, the task and the media', async () => {
    let gw: RunningGateway | undefined
    try {
      gw = await startGateway({ dataDir: replicaDir.dir, databaseUrl, secrets: fileSecretBox(source.dir), config: config(), port: 0, log: () => {} })
      const usage = (await (await fetch(`${gw.url}/v1/usage`, { headers: { authorization: `Bearer ${TEST_KEY}` } })).json()) as { key: { used: number } }
      expect(usage.key.used).toBe(0.00006)
      fake.calls.length = 0
      expect((await fetch(`${gw.url}/v1/chat/completions`, { method: 'POST', headers: json(), body: JSON.stringify(chat) })).status).toBe(200)
      // The upstream secret, sealed on SQLite, opens with the same key.
      expect(fake.calls.at(-1)?.headers.authorization).toBe('Bearer upstream-secret-up')
      const task = await fetch(`${gw.url}/v1/images/tasks?task_id=${taskId}`, { headers: { authorization: `Bearer ${TEST_KEY}` } })
      expect(task.status).toBe(200)
      expect(((await task.json()) as { task_id: string }).task_id).toBe(taskId)
      const media = await fetch(`${gw.url}/admin/v1/media/${mediaId}`, { headers: { authorization: `Bearer ${gw.adminToken}` } })
      expect(media.status).toBe(200)
      expect(Buffer.from(await media.arrayBuffer())).toEqual(png)
    } finally {
      await gw?.close(1_000)
    }
  })
})
