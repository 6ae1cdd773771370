import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { DiscoverySession } from "@/lib/discovery/discovery-session";
import { takeSnapshot } from "@/lib/discovery/take-snapshot";
import { createGuardedFetch } from "@/lib/discovery/node/guarded-fetch";
import v8 from "node:v8";
import vm from "node:vm";
import { startHttpFixture, writeFixtureState } from "@/tests/fixtures/spawn-fixture";

v8.setFlagsFromString("--expose-gc");
const gc = vm.runInNewContext("gc") as () => void;
const collectGarbage = () => {
  gc();
  gc();
};

// Discovery engine numbers over real HTTP to a real MCP server (the state-file fixture).
const TOOLS = Number(process.env.BENCH_WALK_TOOLS ?? 1000);
const PAGE = Number(process.env.BENCH_WALK_PAGE ?? 10);
const SESSIONS = Number(process.env.BENCH_SESSIONS ?? 50);
const tool = (i: number) => ({ name: `tool_${i}`, description: `Tool ${i} does a thing.`, inputSchema: { type: "object", properties: { id: { type: "string" } }, required: ["id"] } });
// The fixture runs on loopback: the worker's guard with private targets allowed, as for an administrator's team.
const opts = { connectTimeoutMs: 30_000, requestTimeoutMs: 30_000, maxPages: 10_000, fetch: createGuardedFetch({ blockPrivate: false, maxResponseBytes: 16 * 1024 * 1024 }) };

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "toolwatch-bench-discovery-"));
try {
  writeFixtureState(path.join(dir, "walk.json"), { tools: Array.from({ length: TOOLS }, (_, i) => tool(i)), pageSize: PAGE });
  const walkServer = await startHttpFixture(path.join(dir, "walk.json"));
  try {
    await takeSnapshot({ transport: "streamable_http", url: walkServer.url, headers: {} }, opts); // warm-up
    const runs: number[] = [];
    for (let i = 0; i < 5; i++) {
      const t = performance.now();
      const snap = await takeSnapshot({ transport: "streamable_http", url: walkServer.url, headers: {} }, opts);
      runs.push(performance.now() - t);
      if (snap.tools.length !== TOOLS) throw new Error(`walk returned ${snap.tools.length} tools`);
    }
    runs.sort((a, b) => a - b);
    const median = runs[2]!;
    console.log(`walk ${TOOLS} tools in ${TOOLS / PAGE} pages over HTTP (connect + walk + close): median ${median.toFixed(0)} ms, ${((TOOLS / PAGE / median) * 1000).toFixed(0)} pages/s`);
  } finally {
    await walkServer.stop();
  }

  // Client CPU of one first listing (connect, initialize, list 50 tools, close) over the guarded
  // fetch, with its direct path (undici's dispatcher API) and with every request through undici's
  // fetch, alternating, in one run (issue 12: the listing path's HTTP cost).
  writeFixtureState(path.join(dir, "fifty.json"), { tools: Array.from({ length: 50 }, (_, i) => tool(i)), listChanged: false });
  const fifty = await startHttpFixture(path.join(dir, "fifty.json"));
  try {
    const LISTINGS = Number(process.env.BENCH_LISTINGS ?? 400);
    const paths = { direct: createGuardedFetch({ blockPrivate: false, maxResponseBytes: 16 * 1024 * 1024 }), fetch: createGuardedFetch({ blockPrivate: false, maxResponseBytes: 16 * 1024 * 1024, directRequests: false }) };
    const cpu: Record<string, number[]> = { direct: [], fetch: [] };
    for (let round = 0; round < 4; round++) {
      for (const name of ["direct", "fetch"] as const) {
        const o = { ...opts, fetch: paths[name] };
        for (let i = 0; i < 20; i++) await takeSnapshot({ transport: "streamable_http", url: fifty.url, headers: {} }, o); // warm
        const c0 = process.cpuUsage();
        for (let i = 0; i < LISTINGS; i++) await takeSnapshot({ transport: "streamable_http", url: fifty.url, headers: {} }, o);
        const c = process.cpuUsage(c0);
        cpu[name]!.push((c.user + c.system) / 1000 / LISTINGS);
      }
    }
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
    console.log(`first listing of 50 tools, client CPU (median of 4 × ${LISTINGS}): direct path ${median(cpu.direct!).toFixed(2)} ms, undici fetch ${median(cpu.fetch!).toFixed(2)} ms (rounds: ${cpu.direct!.map((x) => x.toFixed(2)).join("/")} vs ${cpu.fetch!.map((x) => x.toFixed(2)).join("/")})`);
    await Promise.all([paths.direct.close(), paths.fetch.close()]);
  } finally {
    await fifty.stop();
  }

  // Memory per live session, by kind (issue 12): a server that pushes (2026 listen stream or a
  // legacy GET stream) holds an SDK client and a socket; one that pushes nothing holds neither
  // between polls (connect, list, close).
  writeFixtureState(path.join(dir, "push.json"), { tools: Array.from({ length: 20 }, (_, i) => tool(i)) });
  writeFixtureState(path.join(dir, "quiet.json"), { tools: Array.from({ length: 20 }, (_, i) => tool(i)), listChanged: false });
  const push = await startHttpFixture(path.join(dir, "push.json"));
  const quiet = await startHttpFixture(path.join(dir, "quiet.json"));
  try {
    for (const [kind, url] of [["no push (connect-list-close)", quiet.url], ["push (2026 listen stream)", push.url]] as const) {
      collectGarbage();
      const rssBefore = process.memoryUsage().rss;
      const heapBefore = process.memoryUsage().heapUsed;
      let firsts = 0;
      const started = performance.now();
      let allListed!: () => void;
      const done = new Promise<void>((r) => (allListed = r));
      const sessions = Array.from(
        { length: SESSIONS },
        () =>
          new DiscoverySession(
            { transport: "streamable_http", url, headers: {} },
            { ...opts, debounceMs: 300, pollIntervalMs: 600_000, backoffMaxMs: 5_000 },
            {
              log: () => undefined,
              state: async () => undefined,
              listing: async () => {
                if (++firsts === SESSIONS) allListed();
              },
            },
          ),
      );
      sessions.forEach((s) => s.start());
      await done;
      const elapsed = performance.now() - started;
      await new Promise((r) => setTimeout(r, 1_000));
      collectGarbage();
      const open = sessions.filter((s) => s.connected).length;
      const rssPer = (process.memoryUsage().rss - rssBefore) / SESSIONS / 1024;
      const heapPer = (process.memoryUsage().heapUsed - heapBefore) / SESSIONS / 1024;
      console.log(`${SESSIONS} sessions, ${kind}: first snapshots in ${elapsed.toFixed(0)} ms; ${open} hold a connection; ~${heapPer.toFixed(0)} KiB heap, ~${rssPer.toFixed(0)} KiB RSS per session`);
      await Promise.all(sessions.map((s) => s.stop()));
    }
  } finally {
    await Promise.all([push.stop(), quiet.stop()]);
  }
} finally {
  await opts.fetch.close();
  fs.rmSync(dir, { recursive: true, force: true });
}
