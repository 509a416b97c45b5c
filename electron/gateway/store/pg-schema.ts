import type pg from 'pg'

/**
 * Team mode's schema on PostgreSQL: the SQLite store's final schema (db.ts, after all its migrations: same tables,
 * columns, defaults and indexes), so the repos' shared SQL runs on both. Money and milliseconds are BIGINT, REAL is
 * DOUBLE PRECISION, 0/1 flags stay INTEGER. SQLite's money triggers become CHECK constraints and plpgsql triggers.
 * Then what only replicas need: concurrency leases, the replicas' heartbeats, media bytes every replica can serve
 * (`media_chunks`).
 */

/**
 * The advisory lock a lease acquire takes only while a lease sits outside the slots (take_lease; acquire_lease, the
 * acquire before slots, took it every time): "lease" in ASCII.
 */
export const LEASE_LOCK = 0x6c65617365
/** The advisory lock migrations take, so replicas starting at once migrate once: "schema" in ASCII. */
export const MIGRATION_LOCK = 0x736368656d61

/** The advisory lock a start's seeding and config apply take (gateway.ts prepareStore): "start" in ASCII. */
export const STARTUP_LOCK = 0x7374617274

/**
 * take_lease's signature and what it draws (both of its versions): the database's time, whether the key's cap binds
 * (not above the account's), and where in each cap's slots its search starts.
 */
const TAKE_LEASE_DECLARED = `CREATE FUNCTION take_lease(p_id TEXT, p_replica TEXT, p_key_id TEXT, p_key_cap INTEGER, p_account_cap INTEGER, p_ttl_ms BIGINT)
   RETURNS TEXT LANGUAGE plpgsql AS $$
   DECLARE
     now_at TIMESTAMPTZ := clock_timestamp();
     key_binds BOOLEAN := p_key_cap IS NOT NULL AND p_key_cap <= p_account_cap;
     key_from INTEGER := CASE WHEN key_binds AND p_key_cap > 0 THEN floor(random() * p_key_cap)::INTEGER ELSE 0 END;
     account_from INTEGER := CASE WHEN p_account_cap > 0 THEN floor(random() * p_account_cap)::INTEGER ELSE 0 END;`
/** write_ledger's steps (both of its versions): a commit's stream checkpoints, written or rewritten. */
const WRITE_CHECKPOINTS = `     IF jsonb_array_length(p_checkpoints) > 0 THEN
       INSERT INTO pending_requests (id, key_id, group_id, model, endpoint, upstream_id, input_tokens, output_tokens, usage,
         cost_nano, started_at, checkpointed_at, replica, breakdown)
       SELECT c.id, c.key_id, c.group_id, c.model, c.endpoint, c.upstream_id, c.input_tokens, c.output_tokens, c.usage,
         c.cost_nano, c.started_at, c.checkpointed_at, p_replica, c.breakdown
       FROM jsonb_to_recordset(p_checkpoints) AS c(id TEXT, key_id TEXT, group_id TEXT, model TEXT, endpoint TEXT, upstream_id TEXT,
         input_tokens BIGINT, output_tokens BIGINT, usage TEXT, cost_nano BIGINT, started_at BIGINT, checkpointed_at BIGINT, breakdown TEXT)
       ON CONFLICT (id) DO UPDATE SET upstream_id = excluded.upstream_id, input_tokens = excluded.input_tokens,
         output_tokens = excluded.output_tokens, usage = excluded.usage, cost_nano = excluded.cost_nano,
         checkpointed_at = excluded.checkpointed_at, breakdown = excluded.breakdown;
     END IF;`
/**
 * write_ledger's steps (its set-based versions): a batch's rows inserted (a repeated id inserts nothing), returning
 * `returning` of each new row, and the holds they name released.
 */
const insertRows = (returning: string): string => `       WITH entries AS (
         SELECT * FROM jsonb_to_recordset(p_rows) AS e(id TEXT, key_id TEXT, group_id TEXT, model TEXT, endpoint TEXT, status INTEGER,
           error_code TEXT, upstream_id TEXT, input_tokens BIGINT, output_tokens BIGINT, usage TEXT, cost_nano BIGINT,
           latency_ms DOUBLE PRECISION, created_at BIGINT, attempts TEXT, usage_source TEXT, breakdown TEXT, held BIGINT)
       ), inserted AS (
         INSERT INTO requests (id, key_id, group_id, model, endpoint, status, error_code, upstream_id, input_tokens, output_tokens,
           usage, cost_nano, latency_ms, created_at, attempts, usage_source, breakdown, reserved_nano)
         SELECT id, key_id, group_id, model, endpoint, status, error_code, upstream_id, input_tokens, output_tokens,
           usage, cost_nano, latency_ms, created_at, attempts, usage_source, breakdown, held FROM entries
         ON CONFLICT DO NOTHING
         RETURNING ${returning}
       ), released AS (
         DELETE FROM holds WHERE id = ANY(ARRAY(SELECT id FROM entries WHERE held IS NOT NULL)) RETURNING amount_nano`
/** write_ledger's steps (its set-based versions): the account charged and its reservations lowered, once a commit. */
const SETTLE_ACCOUNT = `     -- The account's row last but the keys' (every admission needs it; it stays locked until the commit).
     IF released_total <> 0 OR account_total > 0 THEN
       UPDATE account SET reserved_nano = reserved_nano - released_total, balance_nano = balance_nano - account_total WHERE id = 1;
     END IF;`
/** write_ledger's steps: the keys charged once for the rows inserted. */
const CHARGE_KEYS = `     IF cardinality(inserted_ids) > 0 THEN
       UPDATE api_keys k SET used_nano = k.used_nano + t.total
         FROM (SELECT key_id, SUM(cost_nano) AS total FROM requests WHERE id = ANY(inserted_ids) AND key_id IS NOT NULL AND cost_nano > 0 GROUP BY key_id) t
         WHERE k.id = t.key_id;
     END IF;`
/** write_ledger's steps: the pending rows the final rows replace, and the leases of the requests that ended. */
const GIVE_BACK = `     IF cardinality(p_replaced) > 0 THEN
       DELETE FROM pending_requests WHERE id = ANY(p_replaced);
     END IF;
     IF cardinality(p_leases) > 0 THEN
       DELETE FROM leases WHERE id = ANY(p_leases);
     END IF;`

/**
 * take_leases_and_holds (both of its versions): a batch's admissions in the order asked, each by `admit`, after the
 * account's row is locked.
 */
const takeLeasesAndHolds = (create: string, admit: string): string => `${create} FUNCTION take_leases_and_holds(p_requests JSONB)
     RETURNS TABLE (n INTEGER, lease TEXT, refused TEXT, available_nano BIGINT, unbudgeted TEXT[]) LANGUAGE plpgsql AS $$
   DECLARE
     r RECORD;
   BEGIN
     PERFORM 1 FROM account WHERE id = 1 FOR UPDATE;
${admitEachInTurn(admit)}
   END $$;`
/** take_leases_and_holds's steps: each of the batch's admissions by `admit`, in the order asked, each answered. */
const admitEachInTurn = (admit: string): string => `     FOR r IN SELECT * FROM jsonb_to_recordset(p_requests) AS e(n INTEGER, id TEXT, replica TEXT, key_id TEXT, key_cap INTEGER,
       account_cap INTEGER, ttl_ms BIGINT, amount BIGINT, upstream_ids TEXT[], created_at BIGINT) ORDER BY e.n
     LOOP
       n := r.n;
       SELECT t.lease, t.refused, t.available_nano, t.unbudgeted INTO lease, refused, available_nano, unbudgeted
         FROM ${admit}(r.id, r.replica, r.key_id, r.key_cap, r.account_cap, r.ttl_ms, r.amount, r.upstream_ids, r.created_at) t;
       RETURN NEXT;
     END LOOP;`

/** Migrations, applied in order, each once per database; schema_migrations records which ran. */
export const PG_MIGRATIONS: readonly string[] = [
  `CREATE TABLE account (
     id INTEGER PRIMARY KEY CHECK (id = 1),
     balance_nano BIGINT NOT NULL DEFAULT 0,
     reserved_nano BIGINT NOT NULL DEFAULT 0,
     concurrency INTEGER NOT NULL DEFAULT 5,
     applied_balance_nano BIGINT,
     budget_nano BIGINT
   );
   INSERT INTO account (id) VALUES (1);
   CREATE TABLE upstreams (
     id TEXT PRIMARY KEY,
     vendor TEXT NOT NULL,
     base_url TEXT NOT NULL,
     api_key_enc TEXT NOT NULL,
     models TEXT,
     priority DOUBLE PRECISION NOT NULL DEFAULT 0,
     budget_nano BIGINT,
     spent_nano BIGINT NOT NULL DEFAULT 0,
     seq BIGINT NOT NULL DEFAULT 0
   );
   CREATE TABLE groups (
     id TEXT PRIMARY KEY,
     name TEXT,
     protocol TEXT NOT NULL,
     models TEXT NOT NULL,
     upstreams TEXT NOT NULL,
     options TEXT,
     seq BIGINT NOT NULL DEFAULT 0
   );
   CREATE TABLE model_overrides (id TEXT PRIMARY KEY, data TEXT NOT NULL);
   CREATE TABLE api_keys (
     id TEXT PRIMARY KEY,
     hash TEXT NOT NULL UNIQUE,
     hint TEXT NOT NULL,
     group_id TEXT NOT NULL,
     name TEXT,
     concurrency INTEGER,
     quota_nano BIGINT,
     used_nano BIGINT NOT NULL DEFAULT 0,
     expires_at BIGINT,
     disabled INTEGER NOT NULL DEFAULT 0,
     created_at BIGINT NOT NULL,
     app_secret_enc TEXT,
     legacy_sha256 INTEGER NOT NULL DEFAULT 0
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
     input_tokens BIGINT,
     output_tokens BIGINT,
     usage TEXT,
     cost_nano BIGINT NOT NULL DEFAULT 0 CONSTRAINT requests_cost_not_negative CHECK (cost_nano >= 0),
     latency_ms DOUBLE PRECISION NOT NULL,
     created_at BIGINT NOT NULL
   );
   CREATE INDEX requests_key_created ON requests (key_id, created_at);
   CREATE INDEX requests_created ON requests (created_at);
   CREATE TABLE tasks (
     id TEXT PRIMARY KEY,
     kind TEXT NOT NULL,
     key_id TEXT NOT NULL,
     group_id TEXT NOT NULL,
     model TEXT NOT NULL,
     endpoint TEXT NOT NULL,
     upstream_id TEXT,
     vendor_task_id TEXT,
     status TEXT NOT NULL,
     progress DOUBLE PRECISION,
     request TEXT,
     result TEXT,
     error TEXT,
     reserved_nano BIGINT NOT NULL DEFAULT 0,
     cost_nano BIGINT NOT NULL DEFAULT 0 CONSTRAINT tasks_cost_not_negative CHECK (cost_nano >= 0),
     settled INTEGER NOT NULL DEFAULT 0,
     idempotency_key TEXT,
     created_at BIGINT NOT NULL,
     updated_at BIGINT NOT NULL,
     next_poll_at BIGINT,
     poll_attempts INTEGER NOT NULL DEFAULT 0,
     request_hash TEXT,
     vendor_status TEXT
   );
   CREATE INDEX tasks_status ON tasks (status);
   CREATE INDEX tasks_key_idem ON tasks (key_id, idempotency_key);
   CREATE INDEX tasks_due ON tasks (kind, next_poll_at) WHERE next_poll_at IS NOT NULL;
   CREATE INDEX tasks_key_hash ON tasks (key_id, request_hash, created_at);
   CREATE TABLE media (
     id TEXT PRIMARY KEY,
     request_id TEXT NOT NULL,
     kind TEXT NOT NULL,
     source_url TEXT,
     path TEXT NOT NULL,
     mime_type TEXT NOT NULL,
     created_at BIGINT NOT NULL
   );
   CREATE INDEX media_request ON media (request_id);
   CREATE INDEX groups_seq ON groups (seq);
   CREATE INDEX upstreams_seq ON upstreams (seq);
   CREATE TABLE app_state (name TEXT PRIMARY KEY, value TEXT NOT NULL, updated_at BIGINT NOT NULL);
   CREATE TABLE meta (name TEXT PRIMARY KEY, value TEXT NOT NULL);
   CREATE TABLE pending_requests (
     id TEXT PRIMARY KEY,
     key_id TEXT,
     group_id TEXT,
     model TEXT,
     endpoint TEXT NOT NULL,
     upstream_id TEXT,
     input_tokens BIGINT NOT NULL DEFAULT 0,
     output_tokens BIGINT NOT NULL DEFAULT 0,
     usage TEXT,
     cost_nano BIGINT NOT NULL DEFAULT 0,
     started_at BIGINT NOT NULL,
     checkpointed_at BIGINT NOT NULL
   );

   -- Money only flows one way: a key's spend never falls.
   CREATE FUNCTION api_keys_used_never_falls() RETURNS trigger LANGUAGE plpgsql AS $$
   BEGIN
     RAISE EXCEPTION 'used_nano must not fall' USING ERRCODE = 'check_violation';
   END $$;
   CREATE TRIGGER api_keys_used_never_falls BEFORE UPDATE OF used_nano ON api_keys
     FOR EACH ROW WHEN (NEW.used_nano < OLD.used_nano) EXECUTE FUNCTION api_keys_used_never_falls();

   -- Every ledger row that costs something adds to its upstream account's spend, whichever path wrote it.
   CREATE FUNCTION requests_charge_upstream() RETURNS trigger LANGUAGE plpgsql AS $$
   BEGIN
     UPDATE upstreams SET spent_nano = spent_nano + NEW.cost_nano WHERE id = NEW.upstream_id;
     RETURN NULL;
   END $$;
   CREATE TRIGGER requests_charge_upstream AFTER INSERT ON requests
     FOR EACH ROW WHEN (NEW.upstream_id IS NOT NULL AND NEW.cost_nano > 0) EXECUTE FUNCTION requests_charge_upstream();

   -- Team mode only. A lease is one request in flight on some replica; it lapses at expires_at unless renewed.
   CREATE TABLE leases (id TEXT PRIMARY KEY, replica TEXT NOT NULL, key_id TEXT, expires_at TIMESTAMPTZ NOT NULL);
   CREATE INDEX leases_key ON leases (key_id);
   CREATE INDEX leases_replica ON leases (replica);
   CREATE TABLE replicas (id TEXT PRIMARY KEY, seen_at TIMESTAMPTZ NOT NULL);
   -- Kept images and videos (media-files.ts), 1 MiB a row; stored as they are, since media is compressed already.
   CREATE TABLE media_chunks (path TEXT NOT NULL, seq INTEGER NOT NULL, bytes BYTEA NOT NULL, PRIMARY KEY (path, seq));
   ALTER TABLE media_chunks ALTER COLUMN bytes SET STORAGE EXTERNAL;

   -- Takes a concurrency slot for the account and the key, or says which cap is full (limits.ts's rule: the key's cap
   -- binds only when it is not above the account's). One lock orders every acquire, so the counts cannot race;
   -- times are the database's clock, shared by every replica.
   CREATE FUNCTION acquire_lease(p_id TEXT, p_replica TEXT, p_key_id TEXT, p_key_cap INTEGER, p_account_cap INTEGER, p_ttl_ms BIGINT)
   RETURNS TEXT LANGUAGE plpgsql AS $$
   DECLARE
     now_at TIMESTAMPTZ;
   BEGIN
     PERFORM pg_advisory_xact_lock(${LEASE_LOCK});
     now_at := clock_timestamp();
     DELETE FROM leases WHERE expires_at <= now_at;
     IF p_key_cap IS NOT NULL AND p_key_cap <= p_account_cap
        AND (SELECT count(*) FROM leases WHERE key_id = p_key_id) >= p_key_cap THEN
       RETURN 'key';
     END IF;
     IF (SELECT count(*) FROM leases) >= p_account_cap THEN
       RETURN 'account';
     END IF;
     INSERT INTO leases (id, replica, key_id, expires_at) VALUES (p_id, p_replica, p_key_id, now_at + p_ttl_ms * interval '1 millisecond');
     RETURN 'ok';
   END $$;`,
  // SQLite migration 12: the replica that owns a stream under way or an image task being made (team/sweeper.ts).
  `ALTER TABLE pending_requests ADD COLUMN replica TEXT;
   ALTER TABLE tasks ADD COLUMN replica TEXT;`,
  // SQLite migration 13: sign-in codes, hashed, until spent or expired; any replica takes a code any other issued.
  `CREATE TABLE login_codes (hash TEXT PRIMARY KEY, expires_at BIGINT NOT NULL);
   CREATE INDEX login_codes_expires ON login_codes (expires_at);`,
  // SQLite migration 14: every upstream attempt of a request, JSON (relay/failover.ts).
  `ALTER TABLE requests ADD COLUMN attempts TEXT;`,
  // SQLite migration 15: where a row's usage came from, and its priced breakdown (JSON).
  `ALTER TABLE requests ADD COLUMN usage_source TEXT;
   ALTER TABLE requests ADD COLUMN breakdown TEXT;`,
  // SQLite migration 16: holds, the worst case of each request under way (store/holds.ts), and what a row held.
  `CREATE TABLE holds (id TEXT PRIMARY KEY, replica TEXT, key_id TEXT NOT NULL, upstream_id TEXT,
     amount_nano BIGINT NOT NULL, created_at BIGINT NOT NULL);
   CREATE INDEX holds_key ON holds (key_id);
   CREATE INDEX holds_upstream ON holds (upstream_id);
   CREATE INDEX holds_replica ON holds (replica);
   ALTER TABLE requests ADD COLUMN reserved_nano BIGINT;`,
  // SQLite migration 17: a stream's checkpointed priced breakdown.
  `ALTER TABLE pending_requests ADD COLUMN breakdown TEXT;`,
  // SQLite migration 18: kept request and answer bodies, erased with their ledger row; replays and their originals.
  `CREATE TABLE request_bodies (request_id TEXT PRIMARY KEY, created_at BIGINT NOT NULL, bytes BIGINT NOT NULL,
     request TEXT NOT NULL, answer TEXT NOT NULL);
   CREATE INDEX request_bodies_created ON request_bodies (created_at);
   CREATE TABLE replays (request_id TEXT PRIMARY KEY, original_id TEXT NOT NULL, upstream_id TEXT, model TEXT);
   CREATE FUNCTION requests_erase_bodies() RETURNS trigger LANGUAGE plpgsql AS $$
   BEGIN
     DELETE FROM request_bodies WHERE request_id = OLD.id;
     RETURN OLD;
   END $$;
   CREATE TRIGGER requests_erase_bodies AFTER DELETE ON requests FOR EACH ROW EXECUTE FUNCTION requests_erase_bodies();`,
  // Team mode's admin sessions, shared by the replicas (store/admin-sessions.ts; the embedded store keeps them in memory).
  `CREATE TABLE admin_sessions (id_hash TEXT PRIMARY KEY, token_hash TEXT NOT NULL, media_sealed TEXT NOT NULL,
     created_at BIGINT NOT NULL, last_used_at BIGINT NOT NULL);
   CREATE INDEX admin_sessions_created ON admin_sessions (created_at);`,
  // SQLite migration 19: a video task's reservation is a hold under the task's id; the tasks under way get theirs.
  `INSERT INTO holds (id, replica, key_id, upstream_id, amount_nano, created_at)
     SELECT id, replica, key_id, upstream_id, reserved_nano, created_at FROM tasks
     WHERE kind = 'video' AND settled = 0 AND reserved_nano <> 0;`,
  // Team mode: concurrency slots without one lock for every acquire (take_lease; acquire_lease above is no longer
  // called). A lease holds one of the account's slots, 0 to its cap less one, and, when the key's cap binds, one of
  // the key's: unique indexes keep two requests out of one slot, so requests wait for each other only when they
  // reach for the same slot, and the caps stay exact. A lease taken without a slot (before this migration) or in a
  // slot beyond a cap since lowered sends acquires back to counting under the old lock until it ends.
  `ALTER TABLE leases ADD COLUMN slot INTEGER;
   ALTER TABLE leases ADD COLUMN key_slot INTEGER;
   CREATE UNIQUE INDEX leases_slot ON leases (slot);
   CREATE UNIQUE INDEX leases_key_slot ON leases (key_id, key_slot);
   CREATE INDEX leases_expires ON leases (expires_at);
   ${TAKE_LEASE_DECLARED}
     key_slot_no INTEGER;
     slot_no INTEGER;
   BEGIN
     -- Lapsed leases (a dead replica's) give their slots back; rows another acquire is deleting are left to it.
     DELETE FROM leases WHERE id IN (SELECT id FROM leases WHERE expires_at <= now_at FOR UPDATE SKIP LOCKED);
     IF EXISTS (SELECT 1 FROM leases WHERE slot IS NULL AND expires_at > now_at)
        OR EXISTS (SELECT 1 FROM leases WHERE slot >= p_account_cap AND expires_at > now_at)
        OR (key_binds AND EXISTS (SELECT 1 FROM leases WHERE key_id = p_key_id AND (key_slot IS NULL OR key_slot >= p_key_cap) AND expires_at > now_at)) THEN
       PERFORM pg_advisory_xact_lock(${LEASE_LOCK});
       IF key_binds AND (SELECT count(*) FROM leases WHERE key_id = p_key_id AND expires_at > now_at) >= p_key_cap THEN
         RETURN 'key';
       END IF;
       IF (SELECT count(*) FROM leases WHERE expires_at > now_at) >= p_account_cap THEN
         RETURN 'account';
       END IF;
     END IF;
     -- Bounded: each try that loses its slot to another acquire sees that slot taken on the next.
     FOR attempt IN 1..64 LOOP
       key_slot_no := NULL;
       IF key_binds THEN
         SELECT (key_from + g) % p_key_cap INTO key_slot_no FROM generate_series(0, p_key_cap - 1) g
           WHERE NOT EXISTS (SELECT 1 FROM leases l WHERE l.key_id = p_key_id AND l.key_slot = (key_from + g) % p_key_cap)
           LIMIT 1;
         IF NOT FOUND THEN
           RETURN 'key';
         END IF;
       END IF;
       SELECT (account_from + g) % p_account_cap INTO slot_no FROM generate_series(0, p_account_cap - 1) g
         WHERE NOT EXISTS (SELECT 1 FROM leases l WHERE l.slot = (account_from + g) % p_account_cap)
         LIMIT 1;
       IF NOT FOUND THEN
         RETURN 'account';
       END IF;
       INSERT INTO leases (id, replica, key_id, expires_at, slot, key_slot)
         VALUES (p_id, p_replica, p_key_id, now_at + p_ttl_ms * interval '1 millisecond', slot_no, key_slot_no)
         ON CONFLICT DO NOTHING;
       IF FOUND THEN
         RETURN 'ok';
       END IF;
     END LOOP;
     RETURN 'account';
   END $$;`,
  // Team mode: a request's hold taken, and moved onto an upstream account, each in one round trip (store/holds.ts
  // take and moveTo): the rows they lock (the account's, the key's, an upstream account's) are held for the length
  // of one call in the server, never across the network. The same rules as refusalIn and moveOnto there. take_hold
  // also answers which of the accounts that may serve the request have no budget: the hold goes onto such an account
  // with no further round trip (billing/holds.ts), as one process does from memory.
  `CREATE FUNCTION take_hold(p_id TEXT, p_replica TEXT, p_key_id TEXT, p_amount BIGINT, p_upstream_ids TEXT[], p_created_at BIGINT,
     OUT refused TEXT, OUT available_nano BIGINT, OUT unbudgeted TEXT[]) LANGUAGE plpgsql AS $$
   DECLARE
     a RECORD;
     k RECORD;
     u RECORD;
     left_nano BIGINT;
     room BIGINT;
     upstream_id_of TEXT;
   BEGIN
     SELECT budget_nano, balance_nano, reserved_nano INTO a FROM account WHERE id = 1 FOR UPDATE;
     IF a.budget_nano IS NOT NULL AND a.balance_nano - a.reserved_nano < p_amount THEN
       refused := 'balance';
       available_nano := a.balance_nano - a.reserved_nano;
       RETURN;
     END IF;
     SELECT ak.quota_nano, ak.used_nano, COALESCE((SELECT SUM(h.amount_nano) FROM holds h WHERE h.key_id = ak.id), 0) AS reserved_nano
       INTO k FROM api_keys ak WHERE ak.id = p_key_id FOR UPDATE;
     IF FOUND AND k.quota_nano IS NOT NULL AND k.quota_nano - k.used_nano - k.reserved_nano < p_amount THEN
       refused := 'key';
       available_nano := k.quota_nano - k.used_nano - k.reserved_nano;
       RETURN;
     END IF;
     -- Some account that may serve it must have room: one without a budget always has.
     IF cardinality(p_upstream_ids) > 0 THEN
       FOREACH upstream_id_of IN ARRAY p_upstream_ids LOOP
         SELECT budget_nano, spent_nano INTO u FROM upstreams WHERE id = upstream_id_of;
         IF NOT FOUND OR u.budget_nano IS NULL THEN
           room := NULL;
           EXIT;
         END IF;
         left_nano := u.budget_nano - u.spent_nano
           - COALESCE((SELECT SUM(h.amount_nano) FROM holds h WHERE h.upstream_id = upstream_id_of AND h.id <> p_id), 0);
         IF left_nano >= p_amount THEN
           room := NULL;
           EXIT;
         END IF;
         room := GREATEST(room, left_nano);
       END LOOP;
       IF room IS NOT NULL THEN
         refused := 'upstream';
         available_nano := room;
         RETURN;
       END IF;
     END IF;
     INSERT INTO holds (id, replica, key_id, upstream_id, amount_nano, created_at) VALUES (p_id, p_replica, p_key_id, NULL, p_amount, p_created_at);
     UPDATE account SET reserved_nano = reserved_nano + p_amount WHERE id = 1;
     unbudgeted := ARRAY(SELECT id FROM upstreams WHERE id = ANY(p_upstream_ids) AND budget_nano IS NULL);
   END $$;
   CREATE FUNCTION move_hold(p_id TEXT, p_upstream_id TEXT, p_amount BIGINT) RETURNS BIGINT LANGUAGE plpgsql AS $$
   DECLARE
     u RECORD;
     left_nano BIGINT;
   BEGIN
     IF p_upstream_id IS NOT NULL THEN
       SELECT budget_nano, spent_nano INTO u FROM upstreams WHERE id = p_upstream_id FOR UPDATE;
       IF FOUND AND u.budget_nano IS NOT NULL THEN
         left_nano := u.budget_nano - u.spent_nano
           - COALESCE((SELECT SUM(h.amount_nano) FROM holds h WHERE h.upstream_id = p_upstream_id AND h.id <> p_id), 0);
         IF left_nano < p_amount THEN
           RETURN left_nano;
         END IF;
       END IF;
     END IF;
     UPDATE holds SET upstream_id = p_upstream_id WHERE id = p_id;
     RETURN NULL;
   END $$;`,
  // Team mode: one group commit of the ledger in one round trip (store/ledger.ts writeAll, the same steps): the
  // streams' checkpoints, the final rows (each once; a hold settled with its row), the account and keys charged once
  // for the rows inserted, the pending rows the final rows replace; and the concurrency leases of the requests that
  // ended meanwhile, given back. Costs arrive already charged (money/chargeNano). A row carries what it held as it is
  // inserted, and the settled holds and the charges change the account's row once per commit.
  `CREATE FUNCTION write_ledger(p_rows JSONB, p_checkpoints JSONB, p_replaced TEXT[], p_replica TEXT, p_leases TEXT[]) RETURNS void LANGUAGE plpgsql AS $$
   DECLARE
     r RECORD;
     released BIGINT;
     released_total BIGINT := 0;
     inserted_ids TEXT[] := '{}';
     account_total BIGINT := 0;
   BEGIN
${WRITE_CHECKPOINTS}
     FOR r IN SELECT * FROM jsonb_to_recordset(p_rows) AS e(id TEXT, key_id TEXT, group_id TEXT, model TEXT, endpoint TEXT, status INTEGER,
       error_code TEXT, upstream_id TEXT, input_tokens BIGINT, output_tokens BIGINT, usage TEXT, cost_nano BIGINT,
       latency_ms DOUBLE PRECISION, created_at BIGINT, attempts TEXT, usage_source TEXT, breakdown TEXT, held BIGINT)
     LOOP
       INSERT INTO requests (id, key_id, group_id, model, endpoint, status, error_code, upstream_id, input_tokens, output_tokens,
         usage, cost_nano, latency_ms, created_at, attempts, usage_source, breakdown, reserved_nano)
       VALUES (r.id, r.key_id, r.group_id, r.model, r.endpoint, r.status, r.error_code, r.upstream_id, r.input_tokens,
         r.output_tokens, r.usage, r.cost_nano, r.latency_ms, r.created_at, r.attempts, r.usage_source, r.breakdown, r.held)
       ON CONFLICT DO NOTHING;
       IF FOUND THEN
         inserted_ids := inserted_ids || r.id;
         account_total := account_total + r.cost_nano;
       END IF;
       IF r.held IS NOT NULL THEN
         -- Settled with its charge: no moment where the hold is gone and the charge not yet counted.
         DELETE FROM holds WHERE id = r.id RETURNING amount_nano INTO released;
         IF FOUND THEN
           released_total := released_total + released;
         END IF;
       END IF;
     END LOOP;
     IF released_total <> 0 OR account_total > 0 THEN
       UPDATE account SET reserved_nano = reserved_nano - released_total, balance_nano = balance_nano - account_total WHERE id = 1;
     END IF;
${CHARGE_KEYS}
${GIVE_BACK}
   END $$;`,
  // Team mode: a request's admission in one round trip (team/lease-limiter.ts takeWithHold): its concurrency lease
  // (take_lease), then, when it got one, its hold (take_hold). A hold refused gives the lease back in the same call,
  // so a 402 leaves nothing taken; a lease refused takes no hold (the 429).
  `CREATE FUNCTION take_lease_and_hold(p_id TEXT, p_replica TEXT, p_key_id TEXT, p_key_cap INTEGER, p_account_cap INTEGER,
     p_ttl_ms BIGINT, p_amount BIGINT, p_upstream_ids TEXT[], p_created_at BIGINT,
     OUT lease TEXT, OUT refused TEXT, OUT available_nano BIGINT, OUT unbudgeted TEXT[]) LANGUAGE plpgsql AS $$
   BEGIN
     lease := take_lease(p_id, p_replica, p_key_id, p_key_cap, p_account_cap, p_ttl_ms);
     IF lease <> 'ok' THEN
       RETURN;
     END IF;
     SELECT h.refused, h.available_nano, h.unbudgeted INTO refused, available_nano, unbudgeted
       FROM take_hold(p_id, p_replica, p_key_id, p_amount, p_upstream_ids, p_created_at) h;
     IF refused IS NOT NULL THEN
       DELETE FROM leases WHERE id = p_id;
     END IF;
   END $$;`,
  // Team mode: admission's usual case in a few statements (a statement in plpgsql costs about 20 µs of the server's
  // time; take_lease and take_hold made about a dozen). take_lease first tries one INSERT of a free slot (and key
  // slot), while no lease sits outside the slots; take_hold first raises the account's reservations where the budget
  // covers the amount, reads the key and the accounts that may serve it at once, and writes the hold. Anything else
  // goes the thorough way, the functions as they were (renamed): lapsed leases swept, the lock when a lease sits
  // outside the slots, the exact refusal with what is left. A lapsed lease keeps its slot until a thorough acquire
  // sweeps it, which one does as soon as no slot is free, so neither cap is ever exceeded nor refused early.
  // leases_key is dropped: leases_key_slot (key_id, key_slot) serves its lookups.
  `ALTER FUNCTION take_lease(TEXT, TEXT, TEXT, INTEGER, INTEGER, BIGINT) RENAME TO take_lease_thorough;
   ALTER FUNCTION take_hold(TEXT, TEXT, TEXT, BIGINT, TEXT[], BIGINT) RENAME TO take_hold_thorough;
   DROP INDEX leases_key;
   ${TAKE_LEASE_DECLARED}
   BEGIN
     -- The slot drawn at random is tried first (usually free: no series to build), then the others in turn.
     INSERT INTO leases (id, replica, key_id, expires_at, slot, key_slot)
       SELECT p_id, p_replica, p_key_id, now_at + p_ttl_ms * interval '1 millisecond', free.slot, free.key_slot
       FROM (SELECT
           COALESCE(
             (SELECT account_from WHERE NOT EXISTS (SELECT 1 FROM leases l WHERE l.slot = account_from)),
             (SELECT (account_from + g) % p_account_cap FROM generate_series(1, p_account_cap - 1) g
                WHERE NOT EXISTS (SELECT 1 FROM leases l WHERE l.slot = (account_from + g) % p_account_cap) LIMIT 1)) AS slot,
           CASE WHEN key_binds THEN COALESCE(
             (SELECT key_from WHERE NOT EXISTS (SELECT 1 FROM leases l WHERE l.key_id = p_key_id AND l.key_slot = key_from)),
             (SELECT (key_from + g) % p_key_cap FROM generate_series(1, p_key_cap - 1) g
                WHERE NOT EXISTS (SELECT 1 FROM leases l WHERE l.key_id = p_key_id AND l.key_slot = (key_from + g) % p_key_cap) LIMIT 1))
           END AS key_slot) free
       WHERE p_account_cap > 0 AND free.slot IS NOT NULL AND (NOT key_binds OR (p_key_cap > 0 AND free.key_slot IS NOT NULL))
         AND NOT EXISTS (SELECT 1 FROM leases WHERE slot IS NULL AND expires_at > now_at)
         -- The highest slot in use, lapsed or not, read off the index's end: one beyond the cap goes the thorough way.
         AND COALESCE((SELECT max(slot) FROM leases), -1) < p_account_cap
         AND NOT (key_binds AND EXISTS (SELECT 1 FROM leases WHERE key_id = p_key_id AND (key_slot IS NULL OR key_slot >= p_key_cap) AND expires_at > now_at))
       ON CONFLICT DO NOTHING;
     IF FOUND THEN
       RETURN 'ok';
     END IF;
     RETURN take_lease_thorough(p_id, p_replica, p_key_id, p_key_cap, p_account_cap, p_ttl_ms);
   END $$;
   CREATE FUNCTION take_hold(p_id TEXT, p_replica TEXT, p_key_id TEXT, p_amount BIGINT, p_upstream_ids TEXT[], p_created_at BIGINT,
     OUT refused TEXT, OUT available_nano BIGINT, OUT unbudgeted TEXT[]) LANGUAGE plpgsql AS $$
   DECLARE
     k RECORD;
     u RECORD;
   BEGIN
     -- A key without a quota has nothing to check: the hold is written, then the account's row is locked and raised
     -- where its budget covers the amount, as the last statement (held until the commit, so briefly). A key with a
     -- quota, or a budget that does not cover it, goes the thorough way (the account's row first, then the key's).
     SELECT quota_nano INTO k FROM api_keys WHERE id = p_key_id;
     IF NOT FOUND OR k.quota_nano IS NULL THEN
       -- Room when no account may serve it, or one of them is unknown or has no budget.
       SELECT COALESCE(bool_or(up.id IS NULL OR up.budget_nano IS NULL), true) AS room,
           COALESCE(array_agg(DISTINCT up.id) FILTER (WHERE up.id IS NOT NULL AND up.budget_nano IS NULL), '{}') AS open_ids
         INTO u FROM unnest(p_upstream_ids) AS x(id) LEFT JOIN upstreams up ON up.id = x.id;
       IF u.room THEN
         INSERT INTO holds (id, replica, key_id, upstream_id, amount_nano, created_at) VALUES (p_id, p_replica, p_key_id, NULL, p_amount, p_created_at);
         UPDATE account SET reserved_nano = reserved_nano + p_amount
           WHERE id = 1 AND (budget_nano IS NULL OR balance_nano - reserved_nano >= p_amount);
         IF FOUND THEN
           unbudgeted := u.open_ids;
           RETURN;
         END IF;
         DELETE FROM holds WHERE id = p_id;
       END IF;
     END IF;
     SELECT t.refused, t.available_nano, t.unbudgeted INTO refused, available_nano, unbudgeted
       FROM take_hold_thorough(p_id, p_replica, p_key_id, p_amount, p_upstream_ids, p_created_at) t;
   END $$;`,
  // Team mode: a group commit's rows inserted, and their holds settled, in one statement for the whole batch rather
  // than two a row; the account's row, which every admission needs, changed as late as it can be, then the keys' (the
  // order admission locks them in). A repeated id inserts nothing and charges nothing.
  `CREATE OR REPLACE FUNCTION write_ledger(p_rows JSONB, p_checkpoints JSONB, p_replaced TEXT[], p_replica TEXT, p_leases TEXT[]) RETURNS void LANGUAGE plpgsql AS $$
   DECLARE
     released_total BIGINT := 0;
     inserted_ids TEXT[] := '{}';
     account_total BIGINT := 0;
   BEGIN
${WRITE_CHECKPOINTS}
     IF jsonb_array_length(p_rows) > 0 THEN
       -- Settled with its charge: no moment where the hold is gone and the charge not yet counted.
${insertRows('id, cost_nano')}
       )
       SELECT COALESCE((SELECT array_agg(id) FROM inserted), '{}'), COALESCE((SELECT SUM(cost_nano) FROM inserted), 0),
           COALESCE((SELECT SUM(amount_nano) FROM released), 0)
         INTO inserted_ids, account_total, released_total;
     END IF;
${GIVE_BACK}
${SETTLE_ACCOUNT}
${CHARGE_KEYS}
   END $$;`,
  // Team mode: the admissions a replica asks for while its previous ones are under way, in one round trip and one
  // transaction (team/lease-limiter.ts): each as take_lease_and_hold takes it, one after the other, in the order
  // asked (n); an error takes none of them. The account's row is locked first: a batch that held it only from its
  // first hold on could wait for a slot another replica's batch had taken and not committed, while that batch
  // waited for the row (a deadlock, broken by the server after a second). Locked first, the batches take turns.
  takeLeasesAndHolds('CREATE', 'take_lease_and_hold'),
  // Team mode: a ledger row that costs something still adds to its upstream account's spend whichever path wrote it,
  // but once per statement rather than once per row: a group commit's rows charge each account in one UPDATE (the
  // row trigger ran a function and an UPDATE for every row: 29.5 µs a row in a commit of 50, 24 µs now). The
  // accounts' rows are locked in the order of their ids first, so two replicas' commits never wait for each other in a
  // circle over them.
  `DROP TRIGGER requests_charge_upstream ON requests;
   CREATE OR REPLACE FUNCTION requests_charge_upstream() RETURNS trigger LANGUAGE plpgsql AS $$
   BEGIN
     PERFORM 1 FROM upstreams WHERE id IN (SELECT upstream_id FROM inserted WHERE cost_nano > 0) ORDER BY id FOR UPDATE;
     UPDATE upstreams u SET spent_nano = u.spent_nano + t.total
       FROM (SELECT upstream_id, SUM(cost_nano) AS total FROM inserted WHERE upstream_id IS NOT NULL AND cost_nano > 0 GROUP BY upstream_id) t
       WHERE u.id = t.upstream_id;
     RETURN NULL;
   END $$;
   CREATE TRIGGER requests_charge_upstream AFTER INSERT ON requests REFERENCING NEW TABLE AS inserted
     FOR EACH STATEMENT EXECUTE FUNCTION requests_charge_upstream();`,
  // Team mode: write_ledger charges the keys from the rows its INSERT returned. It looked them up again in requests
  // by id, and the plan a connection kept from when the table was small scanned the whole ledger: each commit took
  // longer as the ledger grew (12 ms for 50 rows at 20,000 rows stored).
  `CREATE OR REPLACE FUNCTION write_ledger(p_rows JSONB, p_checkpoints JSONB, p_replaced TEXT[], p_replica TEXT, p_leases TEXT[]) RETURNS void LANGUAGE plpgsql AS $$
   DECLARE
     released_total BIGINT := 0;
     account_total BIGINT := 0;
     key_ids TEXT[] := '{}';
     key_totals BIGINT[] := '{}';
   BEGIN
${WRITE_CHECKPOINTS}
     IF jsonb_array_length(p_rows) > 0 THEN
       -- Settled with its charge: no moment where the hold is gone and the charge not yet counted.
${insertRows('key_id, cost_nano')}
       ), by_key AS (
         SELECT key_id, SUM(cost_nano) AS total FROM inserted WHERE key_id IS NOT NULL AND cost_nano > 0 GROUP BY key_id
       )
       SELECT COALESCE((SELECT SUM(cost_nano) FROM inserted), 0), COALESCE((SELECT SUM(amount_nano) FROM released), 0),
           COALESCE((SELECT array_agg(key_id ORDER BY key_id) FROM by_key), '{}'), COALESCE((SELECT array_agg(total ORDER BY key_id) FROM by_key), '{}')
         INTO account_total, released_total, key_ids, key_totals;
     END IF;
${GIVE_BACK}
${SETTLE_ACCOUNT}
     IF cardinality(key_ids) > 0 THEN
       UPDATE api_keys k SET used_nano = k.used_nano + t.total FROM unnest(key_ids, key_totals) AS t(key_id, total) WHERE k.id = t.key_id;
     END IF;
   END $$;`,
  // Team mode: one request's admission called on its own, without the batch's JSON and loop (a batch of one cost about
  // 70 µs more in the server), and each of a batch's admissions in fewer statements. Its usual case raises the
  // account's reservations first, which also makes the account's row the first it locks, as a batch does, so single
  // admissions and batches never wait for each other in a circle; then the lease (take_lease), then the hold's row. A
  // lease refused lowers the reservations again (the 429 takes nothing). Anything else (a key with a quota, a budget
  // that does not cover the amount, an account that may serve it with a budget) goes the way take_lease_and_hold goes.
  `CREATE FUNCTION admit_request(p_id TEXT, p_replica TEXT, p_key_id TEXT, p_key_cap INTEGER, p_account_cap INTEGER,
     p_ttl_ms BIGINT, p_amount BIGINT, p_upstream_ids TEXT[], p_created_at BIGINT,
     OUT lease TEXT, OUT refused TEXT, OUT available_nano BIGINT, OUT unbudgeted TEXT[]) LANGUAGE plpgsql AS $$
   BEGIN
     -- take_hold's usual case: the key has no quota; no account may serve it, or one of them is unknown or has no
     -- budget; the account's budget covers the amount. The accounts without a budget are answered.
     UPDATE account SET reserved_nano = reserved_nano + p_amount
       WHERE id = 1 AND (budget_nano IS NULL OR balance_nano - reserved_nano >= p_amount)
         AND NOT EXISTS (SELECT 1 FROM api_keys WHERE id = p_key_id AND quota_nano IS NOT NULL)
         AND COALESCE((SELECT bool_or(up.id IS NULL OR up.budget_nano IS NULL) FROM unnest(p_upstream_ids) AS x(id) LEFT JOIN upstreams up ON up.id = x.id), true)
       RETURNING (SELECT COALESCE(array_agg(DISTINCT up.id), '{}') FROM upstreams up WHERE up.id = ANY(p_upstream_ids) AND up.budget_nano IS NULL)
       INTO unbudgeted;
     IF NOT FOUND THEN
       PERFORM 1 FROM account WHERE id = 1 FOR UPDATE;
       SELECT t.lease, t.refused, t.available_nano, t.unbudgeted INTO lease, refused, available_nano, unbudgeted
         FROM take_lease_and_hold(p_id, p_replica, p_key_id, p_key_cap, p_account_cap, p_ttl_ms, p_amount, p_upstream_ids, p_created_at) t;
       RETURN;
     END IF;
     lease := take_lease(p_id, p_replica, p_key_id, p_key_cap, p_account_cap, p_ttl_ms);
     IF lease <> 'ok' THEN
       UPDATE account SET reserved_nano = reserved_nano - p_amount WHERE id = 1;
       unbudgeted := NULL;
       RETURN;
     END IF;
     INSERT INTO holds (id, replica, key_id, upstream_id, amount_nano, created_at) VALUES (p_id, p_replica, p_key_id, NULL, p_amount, p_created_at);
   END $$;
   ${takeLeasesAndHolds('CREATE OR REPLACE', 'admit_request')}`,
  // Team mode: admit_request is take_lease_and_hold after the account's row is locked (as a batch locks it, so single
  // admissions and batches never wait for each other in a circle). Its own copy of the hold's usual case, above,
  // measured no faster than the rules it copied (446–498 against 467–501 µs in the same loop), so they live once again;
  // a batch admits each request through take_lease_and_hold, as it did before admit_request.
  `CREATE OR REPLACE FUNCTION admit_request(p_id TEXT, p_replica TEXT, p_key_id TEXT, p_key_cap INTEGER, p_account_cap INTEGER,
     p_ttl_ms BIGINT, p_amount BIGINT, p_upstream_ids TEXT[], p_created_at BIGINT,
     OUT lease TEXT, OUT refused TEXT, OUT available_nano BIGINT, OUT unbudgeted TEXT[]) LANGUAGE plpgsql AS $$
   BEGIN
     PERFORM 1 FROM account WHERE id = 1 FOR UPDATE;
     SELECT t.lease, t.refused, t.available_nano, t.unbudgeted INTO lease, refused, available_nano, unbudgeted
       FROM take_lease_and_hold(p_id, p_replica, p_key_id, p_key_cap, p_account_cap, p_ttl_ms, p_amount, p_upstream_ids, p_created_at) t;
   END $$;
   ${takeLeasesAndHolds('CREATE OR REPLACE', 'take_lease_and_hold')}`,
  // Team mode: a batch's usual case in a few statements for the whole batch, not about eight a request (each cost about
  // 15 µs of the server's time: admission was most of the database's work per request). Usual: one account cap for
  // all; no key's cap binds; no key has a quota; each request may be served by an account without a budget (or by
  // none); the account's budget covers all of their amounts; enough free slots. Then the reservations are raised by
  // the sum, a free slot is taken for each (drawn from a random start, as take_lease draws), and the holds are
  // written: what taking them one after the other would have done. Anything else, or a slot taken meanwhile by an
  // acquire that does not lock the account's row, is undone and goes as before, each in turn in the order asked.
  `CREATE OR REPLACE FUNCTION take_leases_and_holds(p_requests JSONB)
     RETURNS TABLE (n INTEGER, lease TEXT, refused TEXT, available_nano BIGINT, unbudgeted TEXT[]) LANGUAGE plpgsql AS $$
   DECLARE
     r RECORD;
     asked INTEGER;
     total BIGINT;
     cap INTEGER;
     usual BOOLEAN;
     now_at TIMESTAMPTZ := clock_timestamp();
     placed TEXT[];
   BEGIN
     PERFORM 1 FROM account WHERE id = 1 FOR UPDATE;
     SELECT count(*)::INTEGER, COALESCE(sum(e.amount), 0), min(e.account_cap),
         count(DISTINCT e.account_cap) = 1 AND bool_and((e.key_cap IS NULL OR e.key_cap > e.account_cap)
           AND NOT EXISTS (SELECT 1 FROM api_keys k WHERE k.id = e.key_id AND k.quota_nano IS NOT NULL)
           AND COALESCE((SELECT bool_or(up.id IS NULL OR up.budget_nano IS NULL) FROM unnest(e.upstream_ids) AS x(id)
             LEFT JOIN upstreams up ON up.id = x.id), true))
       INTO asked, total, cap, usual
       FROM jsonb_to_recordset(p_requests) AS e(key_id TEXT, key_cap INTEGER, account_cap INTEGER, amount BIGINT, upstream_ids TEXT[]);
     IF usual THEN
       UPDATE account SET reserved_nano = reserved_nano + total
         WHERE id = 1 AND (budget_nano IS NULL OR balance_nano - reserved_nano >= total);
       usual := FOUND;
     END IF;
     IF usual THEN
       WITH taken AS (
         INSERT INTO leases (id, replica, key_id, expires_at, slot, key_slot)
           SELECT e.id, e.replica, e.key_id, now_at + e.ttl_ms * interval '1 millisecond', free.slot, NULL
           FROM (SELECT e.id, e.replica, e.key_id, e.ttl_ms, row_number() OVER (ORDER BY e.n) AS i
               FROM jsonb_to_recordset(p_requests) AS e(n INTEGER, id TEXT, replica TEXT, key_id TEXT, ttl_ms BIGINT)) e
             JOIN (SELECT f.slot, row_number() OVER () AS i
               FROM (SELECT (s.first + g) % cap AS slot
                   FROM (SELECT floor(random() * cap)::INTEGER AS first) s, generate_series(0, cap - 1) g
                   WHERE NOT EXISTS (SELECT 1 FROM leases l WHERE l.slot = (s.first + g) % cap) LIMIT asked) f) free ON free.i = e.i
           WHERE NOT EXISTS (SELECT 1 FROM leases WHERE slot IS NULL AND expires_at > now_at)
             AND COALESCE((SELECT max(slot) FROM leases), -1) < cap
           ON CONFLICT DO NOTHING
           RETURNING id
       )
       SELECT COALESCE(array_agg(taken.id), '{}') INTO placed FROM taken;
       IF cardinality(placed) < asked THEN
         DELETE FROM leases WHERE id = ANY(placed);
         UPDATE account SET reserved_nano = reserved_nano - total WHERE id = 1;
         usual := false;
       END IF;
     END IF;
     IF usual THEN
       INSERT INTO holds (id, replica, key_id, upstream_id, amount_nano, created_at)
         SELECT e.id, e.replica, e.key_id, NULL, e.amount, e.created_at
         FROM jsonb_to_recordset(p_requests) AS e(id TEXT, replica TEXT, key_id TEXT, amount BIGINT, created_at BIGINT);
       RETURN QUERY SELECT e.n, 'ok'::TEXT, NULL::TEXT, NULL::BIGINT,
           ARRAY(SELECT up.id FROM upstreams up WHERE up.id = ANY(e.upstream_ids) AND up.budget_nano IS NULL ORDER BY up.id)
         FROM jsonb_to_recordset(p_requests) AS e(n INTEGER, upstream_ids TEXT[]) ORDER BY e.n;
       RETURN;
     END IF;
${admitEachInTurn('take_lease_and_hold')}
   END $$;`,
]

/**
 * Brings the database's schema up to date. Each migration runs in its own transaction under an advisory lock:
 * replicas that start together wait for each other, and the later ones find the work done.
 */
export async function migratePg(pool: pg.Pool): Promise<void> {
  const client = await pool.connect()
  let broken: Error | undefined
  try {
    for (let version = 1; version <= PG_MIGRATIONS.length; version++) {
      await client.query('BEGIN')
      try {
        await client.query(`SELECT pg_advisory_xact_lock(${MIGRATION_LOCK})`)
        await client.query('CREATE TABLE IF NOT EXISTS schema_migrations (version INTEGER PRIMARY KEY, applied_at TIMESTAMPTZ NOT NULL DEFAULT now())')
        const done = await client.query('SELECT 1 FROM schema_migrations WHERE version = $1', [version])
        if (done.rowCount === 0) {
          await client.query(PG_MIGRATIONS[version - 1])
          await client.query('INSERT INTO schema_migrations (version) VALUES ($1)', [version])
        }
        await client.query('COMMIT')
      } catch (err) {
        await client.query('ROLLBACK').catch((rollbackError: Error) => (broken = rollbackError))
        throw err
      }
    }
  } finally {
    client.release(broken)
  }
}
