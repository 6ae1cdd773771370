import { Pool } from "undici";
import { openDb } from "./snapshot-watch";
import { clusterCpuSeconds, cpuSeconds } from "./proc-stats";
import { percentile } from "./product-api";
import type { Running } from "./sweep";

// The fleet API as users meet it: through the real `npm start` web process (Next's router, auth,
// the route, the page cache), right after a sweep, with the team's history grown to
// `snapshotsPerServer` snapshots a server (older rows added straight into the product's database:
// 2,000 × 50 = 100,000) and the worker still running. CLIENTS closed loops (undici, keep-alive),
// each sending its next request as soon as the last answered, SECONDS per endpoint.
export type ApiLoadOptions = { clients: number; seconds: number; snapshotsPerServer: number };
type Result = { requests: number; errors: number; rps: number; p50: number; p95: number; p99: number };

export async function measureFleetApi(run: Running, opts: ApiLoadOptions): Promise<Record<string, unknown>> {
  const { product, teamA } = run;
  const db = await openDb(product.databaseUrl);
  try {
    const extra = Math.max(0, opts.snapshotsPerServer - 1);
    const t0 = Date.now();
    if (extra > 0) {
      await db.query(
        `INSERT INTO snapshot (id, tenant_id, server_id, content_hash, tool_count, trigger, taken_at, tool_version_ids, evaluated)
         SELECT gen_random_uuid(), s.tenant_id, s.server_id, md5(s.id::text || g), s.tool_count, 'poll', s.taken_at - g * interval '1 hour', s.tool_version_ids, true
           FROM snapshot s, generate_series(1, $2::int) g WHERE s.tenant_id = $1::uuid`,
        [teamA.id, extra],
      );
      await db.query("VACUUM ANALYZE snapshot");
    }
    // The seeding wrote ~200 MB of rows in half a minute, which no user does: its dirty buffers are
    // flushed here, before the measurement, rather than by a checkpoint in the middle of it.
    const c0 = Date.now();
    await db.query("CHECKPOINT");
    const checkpointS = Number(((Date.now() - c0) / 1000).toFixed(1));
    const { rows } = await db.query<{ n: string }>("SELECT count(*) AS n FROM snapshot WHERE tenant_id = $1", [teamA.id]);
    const out: Record<string, unknown> = { snapshots: Number(rows[0]!.n), seededS: Number(((Date.now() - t0) / 1000).toFixed(1)), checkpointS, clients: opts.clients, secondsEach: opts.seconds };
    for (const [label, path, gzip] of [
      ["servers first page", "/api/v1/servers"],
      ["servers first page, a second time", "/api/v1/servers"],
      ["servers ?status=live&sort=toolCount", "/api/v1/servers?status=live&sort=toolCount&dir=desc"],
      ["servers page 5 (cursor)", await cursorPath(product.baseUrl, teamA.key, 5)],
      ["alerts first page", "/api/v1/alerts"],
      // As browsers ask: gzip (the direct routes compress a cached fleet page once).
      ["servers first page, gzip", "/api/v1/servers", true],
      ["alerts first page, gzip", "/api/v1/alerts", true],
      // The first endpoint also carries the web process's warm-up and the moments right after the
      // sweep (the worker's judgements, the seeded history): the same page again, last.
      ["servers first page, again at the end", "/api/v1/servers"],
    ] as [string, string, boolean?][]) {
      const cpu0 = cpuSeconds(product.webPid);
      const pg0 = clusterCpuSeconds(product.postgresPid);
      const tx0 = await transactions(db);
      const worker0 = cpuSeconds(product.workerPid);
      const started = Date.now();
      const r = await load(product.baseUrl, path, teamA.key, opts, gzip === true);
      // The web process's CPU per request: what bounds latency once 50 clients queue on it.
      const cpuMs = ((cpuSeconds(product.webPid) - cpu0) * 1000) / Math.max(1, r.requests);
      // Postgres's side, load-insensitive too: its CPU and its transactions (one per statement
      // outside explicit transactions) per request, the worker's included (idle in the probe).
      const pgMs = ((clusterCpuSeconds(product.postgresPid) - pg0) * 1000) / Math.max(1, r.requests);
      // What the worker takes meanwhile (judging the sweep's first looks, identity probes), in % of a core.
      const workerPct = ((cpuSeconds(product.workerPid) - worker0) * 100000) / (Date.now() - started);
      const txPerRequest = ((await transactions(db)) - tx0) / Math.max(1, r.requests);
      out[label] = `${r.rps.toFixed(0)} req/s, p50 ${r.p50.toFixed(0)} ms, p95 ${r.p95.toFixed(0)} ms, p99 ${r.p99.toFixed(0)} ms, web CPU ${cpuMs.toFixed(2)} ms/request, Postgres CPU ${pgMs.toFixed(2)} ms/request, ${txPerRequest.toFixed(2)} transactions/request, worker ${workerPct.toFixed(0)} % of a core (n=${r.requests}${r.errors ? `, ${r.errors} errors` : ""})`;
    }
    return out;
  } finally {
    await db.end().catch(() => undefined);
  }
}

/** Committed + rolled-back transactions of the product's database so far (backends flush these at most once a second). */
async function transactions(db: Awaited<ReturnType<typeof openDb>>): Promise<number> {
  await new Promise((r) => setTimeout(r, 1200));
  const { rows } = await db.query<{ n: string }>("SELECT xact_commit + xact_rollback AS n FROM pg_stat_database WHERE datname = current_database()");
  return Number(rows[0]!.n);
}

/** The path of page `n` of the fleet list (following nextCursor), so a deep page is measured too. */
async function cursorPath(baseUrl: string, key: string, n: number): Promise<string> {
  let path = "/api/v1/servers";
  for (let i = 1; i < n; i++) {
    const res = await fetch(`${baseUrl}${path}`, { headers: { authorization: `Bearer ${key}` } });
    const body = (await res.json()) as { nextCursor?: string | null };
    if (!body.nextCursor) break;
    path = `/api/v1/servers?cursor=${encodeURIComponent(body.nextCursor)}`;
  }
  return path;
}

async function load(origin: string, path: string, key: string, opts: ApiLoadOptions, gzip: boolean): Promise<Result> {
  const pool = new Pool(origin, { connections: opts.clients, pipelining: 1 });
  const latencies: number[] = [];
  let errors = 0;
  const one = async () => {
    const t0 = performance.now();
    const res = await pool.request({ method: "GET", path, headers: { authorization: `Bearer ${key}`, ...(gzip ? { "accept-encoding": "gzip" } : {}) } });
    await res.body.arrayBuffer();
    if (res.statusCode !== 200) errors++;
    return performance.now() - t0;
  };
  await Promise.all(Array.from({ length: opts.clients }, one)); // warm-up: connections open
  const end = performance.now() + opts.seconds * 1000;
  const started = performance.now();
  await Promise.all(Array.from({ length: opts.clients }, async () => {
    while (performance.now() < end) latencies.push(await one());
  }));
  const elapsed = (performance.now() - started) / 1000;
  await pool.close();
  return { requests: latencies.length, errors, rps: latencies.length / elapsed, p50: percentile(latencies, 50), p95: percentile(latencies, 95), p99: percentile(latencies, 99) };
}
