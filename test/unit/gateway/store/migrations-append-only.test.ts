// A migration runs once per store: a database that already ran one never sees an edit of its text, so an edit would
// leave stores that differ by when they were made. A change to the schema is a new migration at the end of the list;
// the ones before keep their text byte for byte (their SHA-256, first 16 hex digits, recorded here when they land).
import { createHash } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { MIGRATIONS } from '../../../../electron/gateway/store/db.js'
import { PG_MIGRATIONS } from '../../../../electron/gateway/store/pg-schema.js'

const digest = (text: string): string => createHash('sha256').update(text).digest('hex').slice(0, 16)

const SQLITE = [
  'face39c22eeacbb4', 'e7dae576fa196fe5', '967f52150e5b2bfd', 'e01eee031fa8ba31', '2714228a5c113b5c', '006e249ef324c4b0',
  'cd95223dcfa20dcb', '2f98eaa629125190', 'cdead5b6ea78b7d1', 'f00b9897c9b2a9b1', '8e9723fc3b7f7901', 'd47e77afaa066db2',
  '4f3982627e817967', '603f6842e1251c0b', 'd6497525a0b5e143', '8e6c78f2e48bf053', '31d9a692cb89ba1e', '11a16a11a99a767e',
  '4519016e6030d9b7',
]
const POSTGRES = [
  '7b56ff98e3a32b48', 'd47e77afaa066db2', '97edfa151c0eea28', '603f6842e1251c0b', 'd6497525a0b5e143', 'a470cc87b2fba5bf',
  '31d9a692cb89ba1e', 'c31e7b69c218787e', 'cb30efda9f35822b', '4519016e6030d9b7', '4c299b7568b33703', 'bc489c59fea522fa',
  '8eef898ce1053b76', '7222d42270542d1b', '2d25448ac7b97e0e', '804adfd596a0ac7c', 'da819e83276cb8ce', 'bcade72d2fcbba14',
  '2fada92dbb6fc0cb', '60cb23c13cdda2d0', '40009941f73d32fa', '4af19e0145edd665',
]

describe('migrations are only ever appended', () => {
  it.each([
    ['SQLite', MIGRATIONS, SQLITE],
    ['PostgreSQL', PG_MIGRATIONS, POSTGRES],
  ] as const)('%s: every landed migration keeps its text, in its place', (_, migrations, landed) => {
    expect(migrations.length).toBeGreaterThanOrEqual(landed.length)
    expect(migrations.slice(0, landed.length).map(digest)).toEqual(landed)
  })
})
