import { preparedCall } from './pg-sql.js'
import type { Sql } from './sql.js'

/**
 * Concurrency slots shared by every replica on one PostgreSQL database (team mode). A slot is a row in `leases`
 * that lapses at its expiry unless its replica's heartbeat renews it, so a replica that dies gives its slots back
 * within one lease time. Times come from the database's clock, never a replica's.
 */

export interface LeaseRequest {
  /** unique per request (the request id); releasing it ends the lease */
  leaseId: string
  replica: string
  keyId: string
  /** the key's own cap, or null for none */
  keyCap: number | null
  accountCap: number
  /** how long the lease lives without a renewal */
  ttlMs: number
}

/** 'ok': the slot is taken; 'key' / 'account': that cap is full, nothing was taken. */
export type LeaseOutcome = 'ok' | 'key' | 'account'

/**
 * One round trip; atomic across replicas (pg-schema.ts take_lease): the lease takes a free slot of the account's cap
 * (and of the key's, when it binds), so acquires of different slots do not wait for each other.
 */
export async function acquireLease(sql: Sql, request: LeaseRequest): Promise<LeaseOutcome> {
  return (await acquireLeaseSeeingLimits(sql, request)).outcome
}

const TAKE_LEASE_SEEING_LIMITS = preparedCall(
  `SELECT take_lease(@leaseId, @replica, @keyId, @keyCap, @accountCap, @ttlMs) AS outcome,
     (EXISTS (SELECT 1 FROM account WHERE id = 1 AND budget_nano IS NOT NULL)
       OR EXISTS (SELECT 1 FROM api_keys WHERE id = @keyId AND quota_nano IS NOT NULL)
       OR EXISTS (SELECT 1 FROM upstreams WHERE budget_nano IS NOT NULL)) AS limited`,
)

/**
 * `acquireLease`, and in the same round trip whether the database has any spending limit that could apply to the
 * key's requests: the account's budget, the key's quota, or any upstream account's budget (billing/holds.ts reads
 * this to hold nothing, at no further round trip, when none is set anywhere).
 */
export async function acquireLeaseSeeingLimits(sql: Sql, request: LeaseRequest): Promise<{ outcome: LeaseOutcome; limited: boolean }> {
  const row = await sql.get<{ outcome: LeaseOutcome; limited: boolean }>(TAKE_LEASE_SEEING_LIMITS, { ...request })
  return { outcome: row!.outcome, limited: row!.limited === true }
}

/** Requests in flight across every replica: the live leases (a dead replica's lapse with their expiry). */
export async function liveLeases(sql: Sql): Promise<number> {
  const row = await sql.get<{ n: number }>('SELECT count(*)::int AS n FROM leases WHERE expires_at > clock_timestamp()')
  return row!.n
}

/** Gives the slot back; releasing a lease already released (or lapsed) does nothing. */
export async function releaseLease(sql: Sql, leaseId: string): Promise<void> {
  await releaseLeases(sql, [leaseId])
}

/** Gives several slots back in one round trip (the releases of requests that ended together). */
export async function releaseLeases(sql: Sql, leaseIds: readonly string[]): Promise<void> {
  await sql.run('DELETE FROM leases WHERE id = ANY(CAST(? AS TEXT[]))', [leaseIds])
}

/**
 * The replica's heartbeat: extends every live lease it holds by `ttlMs` from now and records that it was seen.
 * A lease that already lapsed stays lapsed (its slot may be another request's by now). Answers how many were renewed.
 */
export async function renewLeases(sql: Sql, replica: string, ttlMs: number): Promise<number> {
  const row = await sql.get<{ renewed: number }>(
    `WITH renewed AS (
       UPDATE leases SET expires_at = clock_timestamp() + @ttlMs::double precision * interval '1 millisecond'
       WHERE replica = @replica AND expires_at > clock_timestamp()
       RETURNING 1
     )
     INSERT INTO replicas (id, seen_at) VALUES (@replica, clock_timestamp())
     ON CONFLICT (id) DO UPDATE SET seen_at = EXCLUDED.seen_at
     RETURNING (SELECT count(*) FROM renewed) AS renewed`,
    { replica, ttlMs },
  )
  return row!.renewed
}

/**
 * A condition on a row whose owner is named by `column` (its `replica`): that replica has not been seen for
 * `@ttlMs` (or never was), so the work it recorded is a dead replica's. The statement binds `@ttlMs` by name.
 */
export const ownerGone = (column: string): string =>
  `NOT EXISTS (SELECT 1 FROM replicas r WHERE r.id = ${column}
     AND r.seen_at > clock_timestamp() - @ttlMs::double precision * interval '1 millisecond')`
