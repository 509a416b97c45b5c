import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import pg from 'pg'
import { describe, expect, it } from 'vitest'
import { tempDataDir } from '../helpers/gateway.js'
import { findPgBin } from '../helpers/pg-cluster.js'
import { freshDatabase } from '../helpers/pg-database.js'

describe('the private PostgreSQL cluster of the test run', () => {
  it('gives each caller its own empty database on 127.0.0.1, behind a password, run for speed not durability', async () => {
    const [first, second] = await Promise.all([freshDatabase(), freshDatabase()])
    expect(first).toMatch(/^postgres:\/\/gatehouse:[0-9a-f]+@127\.0\.0\.1:\d+\/test_\w+$/)
    expect(new URL(first).pathname).not.toBe(new URL(second).pathname)

    const client = new pg.Client({ connectionString: first })
    await client.connect()
    const settings = await client.query(
      `SELECT current_setting('listen_addresses') AS listen, current_setting('fsync') AS fsync,
              current_setting('synchronous_commit') AS sync, current_setting('full_page_writes') AS fpw,
              (SELECT count(*)::int FROM information_schema.tables WHERE table_schema = 'public') AS tables`,
    )
    await client.query('CREATE TABLE only_here (id INTEGER)')
    await client.end()
    expect(settings.rows[0]).toEqual({ listen: '127.0.0.1', fsync: 'off', sync: 'off', fpw: 'off', tables: 0 })

    const other = new pg.Client({ connectionString: second })
    await other.connect()
    const tables = await other.query(`SELECT count(*)::int AS n FROM information_schema.tables WHERE table_schema = 'public'`)
    await other.end()
    expect(tables.rows[0].n).toBe(0)

    const wrong = new URL(first)
    wrong.password = 'wrong'
    const intruder = new pg.Client({ connectionString: wrong.href })
    await expect(intruder.connect()).rejects.toMatchObject({ code: '28P01' })
  })

  it("takes the newest server install, and says to install Debian's postgresql when there is none", () => {
    const root = tempDataDir()
    expect(() => findPgBin(root.dir)).toThrow(`PostgreSQL server binaries not found under ${root.dir}/*/bin: install Debian's postgresql (apt-get install postgresql)`)
    for (const version of ['9', '15', '16']) {
      mkdirSync(join(root.dir, version, 'bin'), { recursive: true })
      if (version !== '16') for (const tool of ['initdb', 'pg_ctl']) writeFileSync(join(root.dir, version, 'bin', tool), '')
    }
    // 16 lacks the server tools (a client-only install): 15 is the newest server.
    expect(findPgBin(root.dir)).toBe(join(root.dir, '15', 'bin'))
    root.remove()
  })
})
