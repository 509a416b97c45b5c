// Every query a node-postgres client of this process sends, seen by a test before it goes out: to count the
// statements a request costs, or to hold some back.
import pg from 'pg'

type Query = (this: pg.Client, ...args: unknown[]) => unknown
type Patchable = { query: Query }

/**
 * From now on each query goes through `around(text, send)`, which must call `send` (now or later) and answer what it
 * answers; the function returned puts the client's own `query` back.
 */
export function aroundPgQueries(around: (text: string, send: () => unknown) => unknown): () => void {
  const query = pg.Client.prototype.query as unknown as Query
  ;(pg.Client.prototype as unknown as Patchable).query = function (this: pg.Client, ...args: unknown[]) {
    const first = args[0]
    const text = typeof first === 'string' ? first : String((first as { text?: unknown }).text ?? '')
    return around(text, () => query.apply(this, args))
  }
  return () => {
    ;(pg.Client.prototype as unknown as Patchable).query = query
  }
}
