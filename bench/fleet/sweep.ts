import os from "node:os";
import path from "node:path";
import { bareClientLoop } from "./bare-client";
import { startFleet, summarize, type Fleet } from "./fleet";
import { cpuSeconds, clusterCpuSeconds, RssSampler } from "./proc-stats";
import { startProduct, type Product } from "./product";
import { createTeamWithKey, percentile, registerServers, signUp, type Team } from "./product-api";
import { firstSnapshots, openDb, topStatements, waitForSnapshots } from "./snapshot-watch";

// The fleet sweep, measured from outside like a user: start the product (`npm start`, demo off),
// register N fixture servers through the API, wait until each has a complete snapshot.
export type SweepOptions = { n: number; capMs: number; fairness?: boolean; bare?: boolean; pushEvery?: number; extraEnv?: Record<string, string>; budgetTokens?: number };
export type SweepResult = Record<string, unknown>;
export type Running = { product: Product; fleet: Fleet; teamA: Team; ids: string[]; snapshotted: Set<string>; sampler: RssSampler; result: SweepResult; stop(): Promise<void> };

const s = (ms: number) => Number((ms / 1000).toFixed(1));
const log = (line: string) => console.log(`  [fleet] ${line}`);

/** Runs one sweep and leaves the product running (for the scenarios that follow); call stop(). */
export async function runSweep(opts: SweepOptions): Promise<Running> {
  const { n, capMs } = opts;
  const dir = path.join(os.tmpdir(), `toolwatch-fleet-${process.pid}-${n}-${Date.now()}`);
  const fleet = await startFleet({ n: n + 1, dir, pushEvery: opts.pushEvery }); // the last one is team B's
  const product = await startProduct(opts.extraEnv);
  const sampler = new RssSampler(() => ({ worker: product.workerPid, web: product.webPid }));
  const db = await openDb(product.databaseUrl);
  const result: SweepResult = { n, pushServers: Array.from({ length: n }, (_, i) => i).filter((i) => fleet.isPush(i)).length, debounceMs: Number(product.env.TOOLWATCH_DEBOUNCE_MS ?? 300), loadAvgAtStart: os.loadavg()[0]!.toFixed(1) };
  try {
    const cookie = await signUp(product.baseUrl, "fleet");
    const teamA = await createTeamWithKey(product.baseUrl, cookie, "fleet-a");
    const teamB = opts.fairness ? await createTeamWithKey(product.baseUrl, cookie, "fleet-b") : undefined;
    await fleet.reset();
    if (opts.budgetTokens) {
      // A team context budget (docs/context-budget.md): every judged snapshot then re-checks the team's total.
      const res = await fetch(`${product.baseUrl}/api/v1/team/context-budget`, { method: "PATCH", headers: { authorization: `Bearer ${teamA.key}`, "content-type": "application/json" }, body: JSON.stringify({ budgetTokens: opts.budgetTokens }) });
      if (!res.ok) throw new Error(`setting the context budget: ${res.status} ${await res.text()}`);
      result.budgetTokens = opts.budgetTokens;
    }
    if (product.env.TOOLWATCH_PG_STAT_STATEMENTS === "1") {
      await db.query("CREATE EXTENSION IF NOT EXISTS pg_stat_statements");
      await db.query("SELECT pg_stat_statements_reset()");
    }
    const cpu0 = { worker: cpuSeconds(product.workerPid), web: cpuSeconds(product.webPid), pg: clusterCpuSeconds(product.postgresPid), fleet: fleet.cpuSeconds() };
    const t0 = Date.now();
    const reg = await registerServers(product.baseUrl, teamA, Array.from({ length: n }, (_, i) => fleet.body(i)));
    const registeredAt = Date.now();
    Object.assign(result, { registration: reg.mode, registrationS: s(reg.ms), postP50Ms: Math.round(percentile(reg.postMs, 50)), postP95Ms: Math.round(percentile(reg.postMs, 95)), registration5xxRetried: reg.errors5xx });
    // The cap counts from the end of registration (registration itself is bounded by N).
    log(`N=${n}: registered in ${s(reg.ms)} s (${reg.mode}); waiting for snapshots (cap ${s(capMs)} s)`);

    let fairness: Promise<void> | undefined;
    if (teamB) {
      // Mid-sweep: once a tenth of team A's servers have a snapshot (or 5 s passed), team B adds one.
      fairness = (async () => {
        const until = Date.now() + 5_000;
        while (Date.now() < until && (await firstSnapshots(db, teamA.id)).size < n / 10) await new Promise((r) => setTimeout(r, 250));
        const aDone = (await firstSnapshots(db, teamA.id)).size;
        const b = await registerServers(product.baseUrl, teamB, [fleet.body(n, "team-b-svc")]);
        const bAt = Date.now();
        const seen = await waitForSnapshots(db, teamB.id, b.ids, Math.max(10_000, capMs - (Date.now() - registeredAt)));
        const first = seen.firsts.get(b.ids[0]!);
        Object.assign(result, { fairnessADoneWhenBAdded: aDone, teamBFirstSnapshotS: first ? s(first - bAt) : `none after ${s(Date.now() - bAt)} s` });
      })();
    }

    const seen = await waitForSnapshots(db, teamA.id, reg.ids, capMs, (done) => {
      if (done && done % Math.max(1, Math.round(n / 5)) === 0) log(`N=${n}: ${done}/${n} snapshotted after ${s(Date.now() - t0)} s`);
    });
    const firsts = reg.ids.map((id) => seen.firsts.get(id)).filter((t): t is number => t !== undefined);
    const last = firsts.length ? Math.max(...firsts) : Date.now();
    await fairness;
    sampler.sample();
    Object.assign(result, {
      complete: `${firsts.length}/${n}`,
      lastSnapshotAfterRegistrationS: seen.complete ? s(last - registeredAt) : `>${s(Date.now() - registeredAt)}`,
      lastSnapshotFromStartS: seen.complete ? s(last - t0) : `>${s(Date.now() - t0)}`,
      productMsPerSnapshot: firsts.length ? Math.round((last - t0) / firsts.length) : null,
      workerCpuS: Number((cpuSeconds(product.workerPid) - cpu0.worker).toFixed(1)),
      webCpuS: Number((cpuSeconds(product.webPid) - cpu0.web).toFixed(1)),
      postgresCpuS: Number((clusterCpuSeconds(product.postgresPid) - cpu0.pg).toFixed(1)),
      fixtureCpuS: Number((fleet.cpuSeconds() - cpu0.fleet).toFixed(1)),
      workerPeakRssMiB: Math.round(sampler.peak("worker")),
      webPeakRssMiB: Math.round(sampler.peak("web")),
    });
    if (product.env.TOOLWATCH_PG_STAT_STATEMENTS === "1") result.pgTopStatements = await topStatements(db);
    const counts = (await fleet.counts()).slice(0, n);
    const init = summarize(counts, "initialize");
    const list = summarize(counts, "list");
    // The sweep's own listings: those the fixture received up to the last snapshot. Identity probes
    // (docs/identity-probes.md) start once no listing waits, i.e. right after a sweep, and list again
    // as other clients: they are counted in toolsListMinMaxTotal, read a moment later.
    // Stdio servers keep no times: their count is all of it (they are not probed by default).
    const inSweep = (await fleet.listedBefore(last)).slice(0, n).map((listed, i) => listed ?? counts[i]!.list);
    Object.assign(result, {
      initializeMinMaxTotal: `${init.min}/${init.max}/${init.total}`,
      toolsListInSweepMinMaxTotal: `${Math.min(...inSweep)}/${Math.max(...inSweep)}/${inSweep.reduce((a, b) => a + b, 0)}`,
      toolsListMinMaxTotal: `${list.min}/${list.max}/${list.total}`,
      discoverTotal: summarize(counts, "discover").total,
      listedMoreThanOnceInSweep: await listedMoreThanOnce(fleet, inSweep, registeredAt),
      listenTotal: summarize(counts, "listen").total,
      getTotal: summarize(counts, "get").total,
      workerLog: workerLogCounts(product.output()),
      loadAvgAtEnd: os.loadavg()[0]!.toFixed(1),
      productLog: product.logFile,
    });
    // First looks are judged (audit, alerts, name index) in their own lane after the listing: the
    // time until every snapshot of the sweep is judged is watched in the background and reported
    // when the run stops (the scenarios that follow run meanwhile, as they would for a user).
    const judged = watchJudgements(product.databaseUrl, teamA.id, registeredAt);
    const running: Running = {
      product,
      fleet,
      teamA,
      ids: reg.ids,
      snapshotted: new Set(reg.ids.filter((id) => seen.firsts.has(id))),
      sampler,
      result,
      stop: async () => {
        result.allJudgedAfterRegistrationS = await judged.stop();
        sampler.stop();
        await db.end().catch(() => undefined);
        await product.stop();
        if (opts.bare) {
          // The bare client over the same HTTP endpoints, with the product stopped.
          const urls = Array.from({ length: n }, (_, i) => i).filter((i) => !fleet.isStdio(i)).map((i) => fleet.url(i));
          const fleetCpu0 = fleet.cpuSeconds();
          const bare = await bareClientLoop(urls);
          const product = result.productMsPerSnapshot as number | null;
          // Where the sweep's time could go at best: every CPU second the sweep used (product and
          // fixtures) spread evenly over the machine's cores. A sweep cannot be shorter than this
          // without using less CPU, whatever its threads; productVsBare cannot go below floorVsBare.
          const productCpuS = Number(result.workerCpuS) + Number(result.webCpuS) + Number(result.postgresCpuS);
          const floorMs = ((productCpuS + Number(result.fixtureCpuS)) * 1000) / os.availableParallelism() / n;
          const productCpuMs = (productCpuS * 1000) / n;
          Object.assign(result, {
            bareMsPerSnapshot: Number(bare.perSnapshotMs.toFixed(1)),
            productVsBare: product ? Number((product / bare.perSnapshotMs).toFixed(1)) : null,
            bareClientCpuMsPerSnapshot: Number(bare.cpuMsPerSnapshot.toFixed(2)),
            bareFixtureCpuMsPerSnapshot: Number((((fleet.cpuSeconds() - fleetCpu0) * 1000) / urls.length).toFixed(2)),
            productCpuMsPerSnapshot: Number(productCpuMs.toFixed(2)),
            cpuFloorMsPerSnapshot: Number(floorMs.toFixed(1)),
            floorVsBare: Number((floorMs / bare.perSnapshotMs).toFixed(1)),
          });
        }
        await fleet.stop();
      },
    };
    return running;
  } catch (error) {
    sampler.stop();
    await db.end().catch(() => undefined);
    await product.stop().catch(() => undefined);
    await fleet.stop().catch(() => undefined);
    throw error;
  }
}

/**
 * The servers the sweep listed more than once, with what each received (ms after registration,
 * method, client): tells an identity probe from a retry or a second session.
 */
async function listedMoreThanOnce(fleet: Fleet, listings: number[], since: number): Promise<string[]> {
  const extra = listings.flatMap((count, i) => (count > 1 ? [i] : []));
  const lines: string[] = [];
  for (const i of extra.slice(0, 10)) {
    const kind = fleet.isStdio(i) ? "stdio" : fleet.isPush(i) ? "push" : "plain";
    const trail = (await fleet.trail(i)).map((line) => line.replace(/^(\d+)/, (ms) => `+${s(Number(ms) - since)}s`));
    lines.push(`svc${i} (${kind}, ${listings[i]} listings): ${trail.join(", ")}`);
  }
  if (extra.length > 10) lines.push(`…and ${extra.length - 10} more`);
  return lines;
}

/** What the worker's log says about trouble (the symptoms). */
export function workerLogCounts(output: string): Record<string, number> {
  const count = (re: RegExp) => (output.match(re) ?? []).length;
  return {
    transactionTimeouts: count(/Unable to start a transaction/g),
    leaseLossEvents: count(/lost \d+ lease/g),
    errorsLogged: count(/\[worker\][^\n]*(error|failed)/gi),
  };
}

/** Polls once a second until no snapshot of the team awaits its judgement; stop() says when that was. */
function watchJudgements(url: string, tenantId: string, since: number): { stop(): Promise<number | string> } {
  let doneAt: number | null = null;
  let stopped = false;
  const loop = (async () => {
    const db = await openDb(url);
    try {
      while (!stopped && doneAt === null) {
        const { rows } = await db.query<{ n: string }>("SELECT count(*) AS n FROM snapshot WHERE tenant_id = $1 AND NOT evaluated", [tenantId]);
        if (Number(rows[0]!.n) === 0) doneAt = Date.now();
        else await new Promise((r) => setTimeout(r, 1000));
      }
    } finally {
      await db.end().catch(() => undefined);
    }
  })().catch(() => undefined);
  return {
    async stop() {
      stopped = true;
      await loop;
      return doneAt !== null ? s(doneAt - since) : `not all after ${s(Date.now() - since)} s`;
    },
  };
}
