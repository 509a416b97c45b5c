import { accountRepo } from './account.js'
import { appStateRepo } from './app-state.js'
import { apiKeysRepo } from './api-keys.js'
import { startCheckpointer } from './checkpointer.js'
import { openDb, type Db } from './db.js'
import { groupsRepo } from './groups.js'
import { ledgerRepo } from './ledger.js'
import { modelOverridesRepo } from './model-overrides.js'
import { requestLogRepo } from './request-log.js'
import { tasksRepo } from './tasks.js'
import { mediaRepo } from './media.js'
import { metaRepo } from './meta.js'
import { upstreamsRepo } from './upstreams.js'
import { usageSummaryRepo } from './usage-summary.js'

export type Store = ReturnType<typeof createStore>

/** The gateway's embedded store: one SQLite file in the data dir, one repo per table; `log` takes its background errors. */
export function createStore(dataDir: string, log: (line: string) => void = (line) => process.stderr.write(`${line}\n`)) {
  const db: Db = openDb(dataDir)
  // The serving connection only appends to the WAL; a worker moves pages into the store file (checkpointer.ts).
  db.pragma('wal_autocheckpoint = 0')
  const checkpointer = startCheckpointer(db.name, () => db.open && db.pragma('wal_autocheckpoint = 1000'), log)
  const ledger = ledgerRepo(db, log)
  return {
    db,
    account: accountRepo(db),
    apiKeys: apiKeysRepo(db),
    upstreams: upstreamsRepo(db),
    groups: groupsRepo(db),
    modelOverrides: modelOverridesRepo(db),
    ledger,
    tasks: tasksRepo(db),
    media: mediaRepo(db),
    requestLog: requestLogRepo(db),
    usageSummary: usageSummaryRepo(db),
    appState: appStateRepo(db),
    meta: metaRepo(db),
    /** Runs `fn` atomically: all of it is stored, or none. */
    transaction: <T>(fn: () => T): T => db.transaction(fn)(),
    close: () => {
      ledger.flush()
      checkpointer.stop()
      db.close()
    },
  }
}
