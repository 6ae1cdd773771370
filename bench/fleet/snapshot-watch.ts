import pg from "pg";

// Reads the product's database from outside (like `psql` would) to see when each server got its
// first complete snapshot. A snapshot row only ever holds a complete list.
export type FirstSnapshots = Map<string, number>; // server id → first snapshot's takenAt (epoch ms)

export async function openDb(url: string): Promise<pg.Client> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  return client;
}

/** The statements Postgres spent most time in since the reset (pg_stat_statements), one line each. */
export async function topStatements(db: pg.Client, limit = 12): Promise<Record<string, string>> {
  const { rows } = await db.query<{ total_ms: number; calls: string; mean_ms: number; rows: string; query: string }>(
    `SELECT total_exec_time::float8 AS total_ms, calls::text, mean_exec_time::float8 AS mean_ms, rows::text, query
       FROM pg_stat_statements ORDER BY total_exec_time DESC LIMIT $1`,
    [limit],
  );
  const total = (await db.query<{ t: number }>("SELECT sum(total_exec_time)::float8 AS t FROM pg_stat_statements")).rows[0]!.t;
  return Object.fromEntries(
    rows.map((r, i) => [
      `#${i + 1} ${Math.round(r.total_ms)} ms (${((100 * r.total_ms) / total).toFixed(0)} %), ${r.calls} calls, ${r.mean_ms.toFixed(2)} ms each, ${r.rows} rows`,
      r.query.replace(/\s+/g, " ").slice(0, 220),
    ]),
  );
}

export async function firstSnapshots(db: pg.Client, tenantId: string): Promise<FirstSnapshots> {
  const { rows } = await db.query<{ server_id: string; first: string }>(
    "SELECT server_id, (extract(epoch FROM min(taken_at)) * 1000)::float8 AS first FROM snapshot WHERE tenant_id = $1 GROUP BY server_id",
    [tenantId],
  );
  return new Map(rows.map((r) => [r.server_id, Number(r.first)]));
}

export async function snapshotCount(db: pg.Client, tenantId: string): Promise<number> {
  const { rows } = await db.query<{ n: string }>("SELECT count(*) AS n FROM snapshot WHERE tenant_id = $1", [tenantId]);
  return Number(rows[0]!.n);
}

/** Polls until every id in `ids` has a snapshot or `capMs` passes; returns what it saw. */
export async function waitForSnapshots(db: pg.Client, tenantId: string, ids: string[], capMs: number, onTick?: (done: number) => void): Promise<{ firsts: FirstSnapshots; complete: boolean }> {
  const deadline = Date.now() + capMs;
  for (;;) {
    const firsts = await firstSnapshots(db, tenantId);
    const done = ids.filter((id) => firsts.has(id)).length;
    onTick?.(done);
    if (done === ids.length) return { firsts, complete: true };
    if (Date.now() > deadline) return { firsts, complete: false };
    await new Promise((r) => setTimeout(r, 500));
  }
}
