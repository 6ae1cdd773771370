import type { Db, Tx } from "@/lib/db";
import { LeaseLostError } from "@/lib/errors";

// Server ownership across worker processes. All times come from the database clock, so workers
// on machines with skewed clocks still agree on who holds what.
//
// The lease table is system-scope (workers act for every tenant); its rows still carry tenantId.

export const LEASE_TTL_MS = 15_000;

export { LeaseLostError };

/**
 * Takes up to `limit` enabled servers that nobody holds (or whose holder let the lease expire).
 * SKIP LOCKED plus the conditional upsert make two workers racing for one server safe: exactly
 * one of them gets a row back.
 */
export async function acquireLeases(db: Db, workerId: string, limit: number, ttlMs = LEASE_TTL_MS): Promise<string[]> {
  if (limit <= 0) return [];
  const rows = await db.$queryRaw<Array<{ server_id: string }>>`
    WITH candidates AS (
      SELECT s.id, s.tenant_id FROM mcp_server s
      LEFT JOIN server_lease l ON l.server_id = s.id
      WHERE s.enabled AND (l.server_id IS NULL OR l.expires_at < now())
      ORDER BY random()
      LIMIT ${limit}
      FOR UPDATE OF s SKIP LOCKED
    )
    INSERT INTO server_lease (server_id, tenant_id, worker_id, expires_at, taken_at)
    SELECT id, tenant_id, ${workerId}, now() + ${ttlMs} * interval '1 millisecond', now() FROM candidates
    ON CONFLICT (server_id) DO UPDATE
      SET worker_id = EXCLUDED.worker_id, expires_at = EXCLUDED.expires_at, taken_at = now()
      WHERE server_lease.expires_at < now()
    RETURNING server_id::text`;
  return rows.map((r) => r.server_id);
}

/**
 * Extends every lease this worker holds, in one statement; returns the servers it still holds.
 * A lease that expired while the database was unreachable is still ours as long as no other
 * worker took it (taking one rewrites worker_id), so it is renewed too: an outage never costs
 * ownership by itself. Writes stay fenced meanwhile (they need an unexpired lease).
 * Rows that one of our own writes holds FOR SHARE right now are skipped, never waited for (a
 * renewal that queued behind a slow write would let every other lease lapse); they are still
 * ours and are renewed on the next round, long before they expire.
 */
export async function renewLeases(db: Db, workerId: string, ttlMs = LEASE_TTL_MS): Promise<string[]> {
  const rows = await db.$queryRaw<Array<{ server_id: string }>>`
    WITH mine AS (
      SELECT server_id FROM server_lease WHERE worker_id = ${workerId}
    ), renewed AS (
      UPDATE server_lease SET expires_at = now() + ${ttlMs} * interval '1 millisecond'
      WHERE server_id IN (SELECT server_id FROM server_lease WHERE worker_id = ${workerId} FOR UPDATE SKIP LOCKED)
        AND worker_id = ${workerId}
      RETURNING server_id
    )
    SELECT server_id::text FROM mine`;
  return rows.map((r) => r.server_id);
}

/** Gives leases back (all of them when no ids are given) so another worker can take over at once. */
// internal-writer: the worker's session leases
export async function releaseLeases(db: Db, workerId: string, serverIds?: string[]): Promise<void> {
  if (serverIds && serverIds.length === 0) return;
  if (serverIds) await db.$executeRaw`DELETE FROM server_lease WHERE worker_id = ${workerId} AND server_id::text = ANY(${serverIds})`;
  else await db.$executeRaw`DELETE FROM server_lease WHERE worker_id = ${workerId}`;
}

/**
 * Fencing inside a write transaction: refuse if the lease has moved on or expired. No row lock:
 * these transactions (alert evaluation) can run for seconds, and a lock would hold up the renewal
 * of every lease. Writers of one server are serialised by its advisory lock instead, so even a
 * takeover during the transaction cannot produce two interleaved writers.
 */
export async function assertLeaseHeld(tx: Tx, serverId: string, workerId: string): Promise<void> {
  const rows = await tx.$queryRaw<Array<{ ok: number }>>`
    SELECT 1 AS ok FROM server_lease
    WHERE server_id = ${serverId}::uuid AND worker_id = ${workerId} AND expires_at > now()`;
  if (rows.length === 0) throw new LeaseLostError(serverId);
}

/** How many servers this worker should own: enabled servers spread over live workers. */
export async function fairShare(db: Db, liveWithinMs: number): Promise<{ enabled: number; liveWorkers: number; share: number }> {
  const [row] = await db.$queryRaw<Array<{ enabled: bigint; live: bigint }>>`
    SELECT (SELECT count(*) FROM mcp_server WHERE enabled) AS enabled,
           (SELECT count(*) FROM worker_heartbeat WHERE beat_at > now() - ${liveWithinMs} * interval '1 millisecond') AS live`;
  const enabled = Number(row?.enabled ?? 0);
  const liveWorkers = Math.max(1, Number(row?.live ?? 1));
  return { enabled, liveWorkers, share: Math.ceil(enabled / liveWorkers) };
}
