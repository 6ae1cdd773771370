import os from "node:os";
import path from "node:path";
import type pg from "pg";
import { startFleet, summarize } from "./fleet";
import { startExtraWorker, startProduct } from "./product";
import { createTeamWithKey, registerServers, signUp } from "./product-api";
import { openDb, waitForSnapshots } from "./snapshot-watch";

// Scale-out: the product plus `workers - 1` more workers (`npm run worker`) on its database.
// Sweep time; then `kill -9` of one extra worker, a change on each push server it owned, and:
// takeover time (its leases held by live workers again), changes lost (a changed server whose
// latest snapshot misses the new tool), servers owned twice (two listen streams open at once at
// the fixture, or two snapshots with one content hash — two first listings).
const s = (ms: number) => Number((ms / 1000).toFixed(1));

async function leases(db: pg.Client, tenantId: string): Promise<Map<string, string>> {
  const { rows } = await db.query<{ server_id: string; worker_id: string }>("SELECT server_id, worker_id FROM server_lease WHERE tenant_id = $1 AND expires_at > now()", [tenantId]);
  return new Map(rows.map((r) => [r.server_id, r.worker_id]));
}

export async function measureScaleOut(n: number, workers: number, capMs: number): Promise<Record<string, unknown>> {
  const dir = path.join(os.tmpdir(), `toolwatch-fleet-scale-${process.pid}-${workers}-${Date.now()}`);
  const fleet = await startFleet({ n, dir, pushEvery: 10 });
  const product = await startProduct({ TOOLWATCH_LEASE_TTL_MS: "6000", TOOLWATCH_HEARTBEAT_MS: "1000" });
  const extras = Array.from({ length: workers - 1 }, (_, k) => startExtraWorker(product, `bench-extra-${k + 1}`));
  const db = await openDb(product.databaseUrl);
  const result: Record<string, unknown> = { scaleOut: `${n} servers, ${workers} workers (lease TTL 6 s, heartbeat 1 s)` };
  try {
    await Promise.all(extras.map((e) => e.ready));
    const team = await createTeamWithKey(product.baseUrl, await signUp(product.baseUrl, "scale"), "scale");
    const t0 = Date.now();
    const reg = await registerServers(product.baseUrl, team, Array.from({ length: n }, (_, i) => fleet.body(i)));
    const owners = new Map<string, Set<string>>();
    const sampleOwners = async () => {
      for (const [server, worker] of await leases(db, team.id)) owners.set(server, (owners.get(server) ?? new Set()).add(worker));
    };
    const sampler = setInterval(() => void sampleOwners().catch(() => undefined), 250);
    const seen = await waitForSnapshots(db, team.id, reg.ids, capMs);
    const firsts = [...seen.firsts.values()];
    result.sweep = seen.complete ? `${n}/${n} in ${s(Math.max(...firsts) - t0)} s` : `${seen.firsts.size}/${n} after ${s(Date.now() - t0)} s (cap)`;
    const held = await leases(db, team.id);
    const perWorker: Record<string, number> = {};
    for (const w of held.values()) perWorker[w] = (perWorker[w] ?? 0) + 1;
    result.leasesPerWorker = perWorker;

    const victim = extras.at(-1)!;
    const victimId = `bench-extra-${workers - 1}`;
    const victimServers = reg.ids.map((id, i) => ({ id, i })).filter(({ id }) => held.get(id) === victimId);
    const killedAt = Date.now();
    victim.child.kill("SIGKILL");
    const changed = victimServers.filter(({ i }) => fleet.isPush(i)).slice(0, 10);
    for (const { i } of changed) await fleet.change(i);
    let takeoverMs: number | undefined;
    while (Date.now() - killedAt < 60_000) {
      const now = await leases(db, team.id);
      if (victimServers.every(({ id }) => now.has(id) && now.get(id) !== victimId)) {
        takeoverMs = Date.now() - killedAt;
        break;
      }
      await new Promise((r) => setTimeout(r, 100));
    }
    result.takeover = takeoverMs === undefined ? `not complete after 60 s (${victimServers.length} servers)` : `${victimServers.length} servers in ${s(takeoverMs)} s`;
    // Every change made while the owner was dead must show up once someone owns the server again.
    const until = Date.now() + 60_000;
    let lost = changed.length;
    while (Date.now() < until) {
      const { rows } = await db.query<{ n: string }>(
        "SELECT count(DISTINCT server_id) AS n FROM snapshot WHERE server_id = ANY($1::uuid[]) AND tool_count > 50",
        [changed.map((c) => c.id)],
      );
      lost = changed.length - Number(rows[0]!.n);
      if (lost === 0) break;
      await new Promise((r) => setTimeout(r, 250));
    }
    result.changesLost = `${lost} of ${changed.length}`;
    clearInterval(sampler);
    const counts = await fleet.counts();
    const { rows: dup } = await db.query<{ n: string }>(
      "SELECT count(*) AS n FROM (SELECT server_id FROM snapshot WHERE tenant_id = $1 GROUP BY server_id, content_hash HAVING count(*) > 1) d",
      [team.id],
    );
    result.ownedTwice = {
      mostListenStreamsAtOnce: summarize(counts, "mostOpenListens", fleet.isPush).max,
      serversWithDuplicateSnapshots: Number(dup[0]!.n),
      serversThatChangedOwner: [...owners.values()].filter((o) => o.size > 1).length,
    };
    return result;
  } finally {
    await db.end().catch(() => undefined);
    for (const e of extras) if (e.child.exitCode === null && e.child.signalCode === null) e.child.kill("SIGTERM");
    await Promise.all(extras.map((e) => new Promise((r) => (e.child.exitCode !== null || e.child.signalCode !== null ? r(null) : e.child.once("exit", r)))));
    await product.stop();
    await fleet.stop();
  }
}
