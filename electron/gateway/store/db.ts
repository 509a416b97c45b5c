import Database from 'better-sqlite3'
import { join } from 'node:path'
import { tightenDataDir, touchPrivateFile } from '../data-dir/private-files.js'

export type Db = Database.Database

/** Schema migrations, applied in order; PRAGMA user_version records how many ran. */
export const MIGRATIONS: readonly string[] = [
  `CREATE TABLE account (
     id INTEGER PRIMARY KEY CHECK (id = 1),
     balance_nano INTEGER NOT NULL DEFAULT 0,
     reserved_nano INTEGER NOT NULL DEFAULT 0,
     concurrency INTEGER NOT NULL DEFAULT 5,
     applied_balance_nano INTEGER
   );
   INSERT INTO account (id) VALUES (1);
   CREATE TABLE upstreams (
     id TEXT PRIMARY KEY,
     vendor TEXT NOT NULL,
     base_url TEXT NOT NULL,
     api_key_enc TEXT NOT NULL,
     models TEXT,
     priority REAL NOT NULL DEFAULT 0
   );
   CREATE TABLE groups (
     id TEXT PRIMARY KEY,
     name TEXT,
     protocol TEXT NOT NULL,
     models TEXT NOT NULL,
     upstreams TEXT NOT NULL
   );
   CREATE TABLE model_overrides (id TEXT PRIMARY KEY, data TEXT NOT NULL);
   CREATE TABLE api_keys (
     id TEXT PRIMARY KEY,
     hash TEXT NOT NULL UNIQUE,
     hint TEXT NOT NULL,
     group_id TEXT NOT NULL,
     name TEXT,
     concurrency INTEGER,
     quota_nano INTEGER,
     used_nano INTEGER NOT NULL DEFAULT 0,
     expires_at INTEGER,
     disabled INTEGER NOT NULL DEFAULT 0,
     created_at INTEGER NOT NULL
   );
   CREATE TABLE requests (
     id TEXT PRIMARY KEY,
     key_id TEXT,
     group_id TEXT,
     model TEXT,
     endpoint TEXT NOT NULL,
     status INTEGER NOT NULL,
     error_code TEXT,
     upstream_id TEXT,
     input_tokens INTEGER,
     output_tokens INTEGER,
     usage TEXT,
     cost_nano INTEGER NOT NULL DEFAULT 0,
     latency_ms REAL NOT NULL,
     created_at INTEGER NOT NULL
   );
   CREATE INDEX requests_key_created ON requests (key_id, created_at);`,
  // Async image and video tasks: their state survives a restart; settlement happens once (settled flag).
  `CREATE TABLE tasks (
     id TEXT PRIMARY KEY,
     kind TEXT NOT NULL,
     key_id TEXT NOT NULL,
     group_id TEXT NOT NULL,
     model TEXT NOT NULL,
     endpoint TEXT NOT NULL,
     upstream_id TEXT,
     vendor_task_id TEXT,
     status TEXT NOT NULL,
     progress REAL,
     request TEXT,
     result TEXT,
     error TEXT,
     reserved_nano INTEGER NOT NULL DEFAULT 0,
     cost_nano INTEGER NOT NULL DEFAULT 0,
     settled INTEGER NOT NULL DEFAULT 0,
     idempotency_key TEXT,
     created_at INTEGER NOT NULL,
     updated_at INTEGER NOT NULL
   );
   CREATE INDEX tasks_status ON tasks (status);
   CREATE INDEX tasks_key_idem ON tasks (key_id, idempotency_key);
   CREATE TABLE media (
     id TEXT PRIMARY KEY,
     request_id TEXT NOT NULL,
     kind TEXT NOT NULL,
     source_url TEXT,
     path TEXT NOT NULL,
     mime_type TEXT NOT NULL,
     created_at INTEGER NOT NULL
   );
   CREATE INDEX media_request ON media (request_id);`,
  // Video tasks: the poller's schedule (next_poll_at: due time, or the lease of the poll under way; NULL when
  // nothing is left to do), its backoff count, the submission's hash for the duplicate guard, the vendor's word.
  `ALTER TABLE tasks ADD COLUMN next_poll_at INTEGER;
   ALTER TABLE tasks ADD COLUMN poll_attempts INTEGER NOT NULL DEFAULT 0;
   ALTER TABLE tasks ADD COLUMN request_hash TEXT;
   ALTER TABLE tasks ADD COLUMN vendor_status TEXT;
   CREATE INDEX tasks_due ON tasks (kind, next_poll_at) WHERE next_poll_at IS NOT NULL;
   CREATE INDEX tasks_key_hash ON tasks (key_id, request_hash, created_at);`,
  // Group options: image limits of a group (one image per request; the Gemini official-direct group).
  `ALTER TABLE groups ADD COLUMN options TEXT;`,
  // The app's own key per group (sealed, so the app can use it again), the app's saved panel state, and
  // the request log's newest-first listing.
  `ALTER TABLE api_keys ADD COLUMN app_secret_enc TEXT;
   CREATE TABLE app_state (name TEXT PRIMARY KEY, value TEXT NOT NULL, updated_at INTEGER NOT NULL);
   CREATE INDEX requests_created ON requests (created_at);`,
  // Gateway keys hashed with HMAC-SHA256 keyed by a per-install secret (kept sealed in `meta`). Rows of older stores
  // hold plain SHA-256 hashes: they are marked and upgraded when their key is next seen (their ids never change).
  `CREATE TABLE meta (name TEXT PRIMARY KEY, value TEXT NOT NULL);
   ALTER TABLE api_keys ADD COLUMN legacy_sha256 INTEGER NOT NULL DEFAULT 0;
   UPDATE api_keys SET legacy_sha256 = 1;`,
  // Streams under way (the ledger's pending rows): what each would be billed if the process died now, the
  // prompt and the output checkpointed so far. The final row in requests replaces it in one transaction; the
  // next start settles the rows a dead process left (ledger.ts settleInterrupted).
  `CREATE TABLE pending_requests (
     id TEXT PRIMARY KEY,
     key_id TEXT,
     group_id TEXT,
     model TEXT,
     endpoint TEXT NOT NULL,
     upstream_id TEXT,
     input_tokens INTEGER NOT NULL DEFAULT 0,
     output_tokens INTEGER NOT NULL DEFAULT 0,
     usage TEXT,
     cost_nano INTEGER NOT NULL DEFAULT 0,
     started_at INTEGER NOT NULL,
     checkpointed_at INTEGER NOT NULL
   );`,
  // Money only flows one way: no ledger row or task carries a negative cost, and a key's spend never falls.
  // (SQLite cannot add a CHECK to an existing table; these triggers are its equivalent.)
  `CREATE TRIGGER requests_cost_not_negative BEFORE INSERT ON requests WHEN NEW.cost_nano < 0
     BEGIN SELECT RAISE(ABORT, 'cost_nano must not be negative'); END;
   CREATE TRIGGER requests_cost_update_not_negative BEFORE UPDATE OF cost_nano ON requests WHEN NEW.cost_nano < 0
     BEGIN SELECT RAISE(ABORT, 'cost_nano must not be negative'); END;
   CREATE TRIGGER tasks_cost_not_negative BEFORE INSERT ON tasks WHEN NEW.cost_nano < 0
     BEGIN SELECT RAISE(ABORT, 'cost_nano must not be negative'); END;
   CREATE TRIGGER tasks_cost_update_not_negative BEFORE UPDATE OF cost_nano ON tasks WHEN NEW.cost_nano < 0
     BEGIN SELECT RAISE(ABORT, 'cost_nano must not be negative'); END;
   CREATE TRIGGER api_keys_used_never_falls BEFORE UPDATE OF used_nano ON api_keys WHEN NEW.used_nano < OLD.used_nano
     BEGIN SELECT RAISE(ABORT, 'used_nano must not fall'); END;`,
  // The account's budget (issue 14): NULL is no budget, no spending limit. A new store starts without one; an older
  // store (it has groups: they are seeded at the first start) keeps its balance as its budget, as it was its limit.
  // balance_nano stays the budget less what was spent against it (with no budget: 0 less the spend since then).
  `ALTER TABLE account ADD COLUMN budget_nano INTEGER;
   UPDATE account SET budget_nano = balance_nano WHERE EXISTS (SELECT 1 FROM groups);`,
  // A spending cap per upstream account (NULL: none) and what was spent through it since the cap was set: every
  // ledger row that costs something adds to its account's spend, whichever path wrote it (requests, tasks, restarts).
  `ALTER TABLE upstreams ADD COLUMN budget_nano INTEGER;
   ALTER TABLE upstreams ADD COLUMN spent_nano INTEGER NOT NULL DEFAULT 0;
   CREATE TRIGGER requests_charge_upstream AFTER INSERT ON requests WHEN NEW.upstream_id IS NOT NULL AND NEW.cost_nano > 0
     BEGIN UPDATE upstreams SET spent_nano = spent_nano + NEW.cost_nano WHERE id = NEW.upstream_id; END;`,
  // Groups and upstream accounts list in the order they were added: a column of their own, which PostgreSQL has
  // too (SQLite's rowid, read until now, has no equivalent there). Upserts give a new row the next number, found on
  // the index (10,000 groups in a config file would otherwise cost a scan each).
  `ALTER TABLE groups ADD COLUMN seq INTEGER NOT NULL DEFAULT 0;
   UPDATE groups SET seq = rowid;
   ALTER TABLE upstreams ADD COLUMN seq INTEGER NOT NULL DEFAULT 0;
   UPDATE upstreams SET seq = rowid;
   CREATE INDEX groups_seq ON groups (seq);
   CREATE INDEX upstreams_seq ON upstreams (seq);`,
  // The replica (process) that owns a stream under way or an image task being made: on a shared database (team mode)
  // another replica settles or fails only the work of one that stopped being seen. NULL: a row from before.
  `ALTER TABLE pending_requests ADD COLUMN replica TEXT;
   ALTER TABLE tasks ADD COLUMN replica TEXT;`,
  // Sign-in codes (admin/login-codes.ts): each one's SHA-256 until it is spent or expires (ms since the epoch). In the
  // store, so that another process (`npm run gateway -- --login`) can issue one, and any team replica can take it.
  `CREATE TABLE login_codes (hash TEXT PRIMARY KEY, expires_at INTEGER NOT NULL);
   CREATE INDEX login_codes_expires ON login_codes (expires_at);`,
  // Every upstream attempt of a request (relay/failover.ts): JSON, at most MAX_ATTEMPT_RECORDS; NULL: none made.
  `ALTER TABLE requests ADD COLUMN attempts TEXT;`,
  // Where a row's usage came from (upstream, local_count, reserved) and its priced breakdown, JSON
  // (money/price-usage.ts priceBreakdown); NULL: a row from before, or no usage.
  `ALTER TABLE requests ADD COLUMN usage_source TEXT;
   ALTER TABLE requests ADD COLUMN breakdown TEXT;`,
  // Holds (store/holds.ts): the worst case each request under way may still cost, kept out of the account's budget,
  // its key's quota and its upstream account's budget until its ledger row settles it; the row keeps what was held
  // (reserved_nano, NULL: nothing), so a usage over it (a vendor past the cap) shows as an overrun.
  `CREATE TABLE holds (id TEXT PRIMARY KEY, replica TEXT, key_id TEXT NOT NULL, upstream_id TEXT,
     amount_nano INTEGER NOT NULL, created_at INTEGER NOT NULL);
   CREATE INDEX holds_key ON holds (key_id);
   CREATE INDEX holds_upstream ON holds (upstream_id);
   ALTER TABLE requests ADD COLUMN reserved_nano INTEGER;`,
  // A stream's checkpointed priced breakdown (relay/checkpoint.ts), kept for the row it becomes if the process dies.
  `ALTER TABLE pending_requests ADD COLUMN breakdown TEXT;`,
  // Kept request and answer bodies (client/capture.ts, store/request-bodies.ts): the last N requests' bodies, secrets
  // redacted and media replaced by its size, type and hash unless kept; erased with their ledger row. `replay_of`:
  // the request a replay sent again (admin/replay.ts), so the log marks it and links to its original.
  `CREATE TABLE request_bodies (request_id TEXT PRIMARY KEY, created_at INTEGER NOT NULL, bytes INTEGER NOT NULL,
     request TEXT NOT NULL, answer TEXT NOT NULL);
   CREATE INDEX request_bodies_created ON request_bodies (created_at);
   CREATE TABLE replays (request_id TEXT PRIMARY KEY, original_id TEXT NOT NULL, upstream_id TEXT, model TEXT);
   CREATE TRIGGER requests_erase_bodies AFTER DELETE ON requests
     BEGIN DELETE FROM request_bodies WHERE request_id = OLD.id; END;`,
  // A video task's reservation is a hold under the task's id (store/holds.ts): the tasks under way get theirs (the
  // account's reserved_nano already counts them).
  `INSERT INTO holds (id, replica, key_id, upstream_id, amount_nano, created_at)
     SELECT id, replica, key_id, upstream_id, reserved_nano, created_at FROM tasks
     WHERE kind = 'video' AND settled = 0 AND reserved_nano <> 0;`,
]

/**
 * The serving connection's page cache, in KiB. The driver's build defaults to 16 MB, which a growing ledger fills:
 * measured under load, the process's RSS was 14 MB lower with 2 MB, at the same throughput. The hot pages (the
 * account, keys, the ledger's last pages) fit many times over; older pages are read from the OS's cache.
 */
export const PAGE_CACHE_KIB = 2000

/** Opens (creating if needed) the gateway's SQLite store in the data dir and brings its schema up to date. */
export function openDb(dataDir: string): Db {
  tightenDataDir(dataDir)
  const path = join(dataDir, 'gatehouse.sqlite')
  // Made 0600 before SQLite opens it: SQLite creates the -wal and -shm files with the store file's mode.
  touchPrivateFile(path)
  const db = new Database(path)
  // WAL + NORMAL: a committed row survives a crash of the process; no fsync on every request.
  db.pragma('journal_mode = WAL')
  db.pragma('synchronous = NORMAL')
  db.pragma('foreign_keys = ON')
  db.pragma('busy_timeout = 5000')
  db.pragma(`cache_size = -${PAGE_CACHE_KIB}`)
  migrate(db)
  return db
}

function migrate(db: Db): void {
  const version = db.pragma('user_version', { simple: true }) as number
  for (let i = version; i < MIGRATIONS.length; i++) {
    db.transaction(() => {
      db.exec(MIGRATIONS[i])
      db.pragma(`user_version = ${i + 1}`)
    })()
  }
}
