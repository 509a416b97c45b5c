import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ANY_CHANGE, listenChanges, notifyChanges } from '../../electron/gateway/store/pg-notify.js'
import { createPgPool, pgSql } from '../../electron/gateway/store/pg-sql.js'
import type { Sql } from '../../electron/gateway/store/sql.js'
import { freshDatabase } from '../helpers/pg-database.js'

let url: string
let sender: pg.Pool
let sql: Sql
beforeAll(async () => {
  url = await freshDatabase()
  sender = createPgPool({ url, max: 2, log: () => {} })
  sql = pgSql(sender)
})
afterAll(() => sender?.end())

/** Resolves with the next topic heard, or rejects after `ms`. */
function nextTopic(topics: string[], ms = 1_000): Promise<string> {
  const seen = topics.length
  return new Promise((resolve, reject) => {
    const deadline = Date.now() + ms
    const poll = () => {
      if (topics.length > seen) return resolve(topics[seen])
      if (Date.now() > deadline) return reject(new Error(`no change notice within ${ms} ms`))
      setTimeout(poll, 10)
    }
    poll()
  })
}

describe('change notices between replicas', () => {
  it("reach a listener on another replica's connection within a second, at commit and never on rollback", async () => {
    const receiver = createPgPool({ url, max: 1, log: () => {} })
    const topics: string[] = []
    const listener = await listenChanges(receiver, (topic) => topics.push(topic), () => {})

    let heard = nextTopic(topics)
    await notifyChanges(sql, 'keys')
    expect(await heard).toBe('keys')

    heard = nextTopic(topics)
    await sql.transaction(async (tx) => {
      await notifyChanges(tx, 'groups')
      await expect(nextTopic(topics, 200)).rejects.toThrow('no change notice within 200 ms')
    })
    expect(await heard).toBe('groups')

    await expect(
      sql.transaction(async (tx) => {
        await notifyChanges(tx, 'rolled-back')
        throw new Error('undone')
      }),
    ).rejects.toThrow('undone')
    heard = nextTopic(topics)
    await notifyChanges(sql)
    expect(await heard).toBe(ANY_CHANGE)
    expect(topics).toEqual(['keys', 'groups', ANY_CHANGE])

    await listener.close()
    await receiver.end()
  })

  it('reconnects when its connection is killed, then reports that anything may have changed', async () => {
    const topics: string[] = []
    const logged: string[] = []
    const listener = await listenChanges(url, (topic) => topics.push(topic), (line) => logged.push(line))

    const killed = await sql.all<{ killed: boolean }>(
      `SELECT pg_terminate_backend(pid) AS killed FROM pg_stat_activity WHERE datname = current_database() AND query = 'LISTEN gatehouse_changes' AND pid <> pg_backend_pid()`,
    )
    expect(killed).toEqual([{ killed: true }])
    expect(await nextTopic(topics, 5_000)).toBe(ANY_CHANGE)
    expect(logged).toEqual(['database: change notices lost (terminating connection due to administrator command); reconnecting', 'database: change notices back'])

    const heard = nextTopic(topics)
    await notifyChanges(sql, 'settings')
    expect(await heard).toBe('settings')

    await listener.close()
    // Closed: killing nothing, hearing nothing, no reconnect.
    await notifyChanges(sql, 'after-close')
    await expect(nextTopic(topics, 300)).rejects.toThrow('no change notice within 300 ms')
    expect(topics).toEqual([ANY_CHANGE, 'settings'])
  })
})
