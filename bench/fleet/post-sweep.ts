import { openDb } from "./snapshot-watch";
import type { Running } from "./sweep";

// What the worker does after a sweep, in its low-priority lanes: judging the sweep's first looks
// (audit, name index, baselines) and the first identity probe of each server (docs/identity-probes.md;
// stdio servers are not probed by default). Polls every 10 s until both are done or `capMs` passed.
export async function measurePostSweep(run: Running, capMs: number): Promise<Record<string, unknown>> {
  const db = await openDb(run.product.databaseUrl);
  const tenant = run.teamA.id;
  const t0 = Date.now();
  const s = (ms: number) => Number((ms / 1000).toFixed(0));
  const probeable = run.ids.filter((_, i) => !run.fleet.isStdio(i)).length; // stdio servers are not probed by default
  let judgedAt: number | null = null;
  let probedAt: number | null = null;
  const timeline: string[] = [];
  try {
    while (Date.now() - t0 < capMs && (judgedAt === null || probedAt === null)) {
      const { rows } = await db.query<{ probed: string; unjudged: string }>(
        `SELECT (SELECT count(DISTINCT server_id) FROM identity_probe WHERE tenant_id = $1) AS probed,
                (SELECT count(*) FROM snapshot WHERE tenant_id = $1 AND NOT evaluated) AS unjudged`,
        [tenant],
      );
      const probed = Number(rows[0]!.probed);
      const unjudged = Number(rows[0]!.unjudged);
      if (unjudged === 0) judgedAt ??= Date.now();
      if (probed >= probeable) probedAt ??= Date.now();
      if (timeline.length < 60) timeline.push(`+${s(Date.now() - t0)} s: ${probed} probed, ${unjudged} unjudged`);
      await new Promise((r) => setTimeout(r, 10_000));
    }
    const { rows } = await db.query<{ q: number[] | null }>(
      `SELECT percentile_cont(ARRAY[0.5, 0.95, 1]) WITHIN GROUP (ORDER BY extract(epoch FROM p.first - f.first)) AS q
         FROM (SELECT server_id, min(probed_at) AS first FROM identity_probe WHERE tenant_id = $1 GROUP BY server_id) p
         JOIN (SELECT server_id, min(taken_at) AS first FROM snapshot WHERE tenant_id = $1 GROUP BY server_id) f USING (server_id)`,
      [tenant],
    );
    return {
      allJudgedAfterSweepS: judgedAt !== null ? s(judgedAt - t0) : `not after ${s(capMs)} s`,
      allProbedAfterSweepS: probedAt !== null ? s(probedAt - t0) : `not after ${s(capMs)} s`,
      firstProbeAfterFirstSnapshotP50P95MaxS: rows[0]?.q ? rows[0].q.map((x) => x.toFixed(0)).join(" / ") : "none",
      timeline: timeline.filter((_, i) => i % 3 === 0).join("; "),
    };
  } finally {
    await db.end().catch(() => undefined);
  }
}
