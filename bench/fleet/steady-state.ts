import { cpuSeconds, clusterCpuSeconds, rssMiB } from "./proc-stats";
import { snapshotCount, openDb } from "./snapshot-watch";
import type { Running } from "./sweep";

// After the sweep: every session live, 1 % of the servers changing per minute (spread evenly,
// chosen at random), for `minutes`. Plain servers' changes are only seen at their next poll.
export async function measureSteadyState(run: Running, minutes: number): Promise<Record<string, unknown>> {
  const { product, fleet, teamA, ids } = run;
  const db = await openDb(product.databaseUrl);
  const perMinute = Math.max(1, Math.round(ids.length / 100));
  const rss: number[] = [];
  const cpu0 = { worker: cpuSeconds(product.workerPid), pg: clusterCpuSeconds(product.postgresPid) };
  const snaps0 = await snapshotCount(db, teamA.id);
  const started = Date.now();
  const end = started + minutes * 60_000;
  const gap = 60_000 / perMinute;
  let changed = 0;
  let nextChange = started;
  while (Date.now() < end) {
    if (Date.now() >= nextChange) {
      const i = Math.floor(Math.random() * ids.length);
      if (!fleet.isStdio(i)) {
        await fleet.change(i);
        changed++;
      }
      nextChange += gap;
    }
    rss.push(rssMiB(product.workerPid));
    await new Promise((r) => setTimeout(r, 250));
  }
  const seconds = (Date.now() - started) / 1000;
  const workerCpu = cpuSeconds(product.workerPid) - cpu0.worker;
  const result = {
    minutes,
    changesPerMinute: perMinute,
    changesMade: changed,
    snapshotsRecorded: (await snapshotCount(db, teamA.id)) - snaps0,
    workerCpuS: Number(workerCpu.toFixed(1)),
    workerCpuPct: Math.round((workerCpu / seconds) * 100),
    postgresCpuS: Number((clusterCpuSeconds(product.postgresPid) - cpu0.pg).toFixed(1)),
    workerRssMiBStartEndPeak: `${Math.round(rss[0] ?? 0)} / ${Math.round(rss.at(-1) ?? 0)} / ${Math.round(Math.max(...rss))}`,
  };
  await db.end();
  return result;
}
