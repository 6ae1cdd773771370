import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fixtureToolList } from "./fleet-tools";
import { cpuSeconds } from "./proc-stats";

// N fixture servers for the product to watch: Streamable HTTP endpoints spread over a few
// fixture processes (fixture-fleet.ts, up to `perProcess` each), a share over stdio
// (stdio-fixture.js, one process per session, spawned by the worker itself).
export type FleetOptions = { n: number; dir: string; pushEvery?: number; stdioEvery?: number; perProcess?: number };
export type ServerCounts = { initialize: number; discover: number; list: number; listen: number; other: number; get: number; mostOpenListens: number };
export type Fleet = {
  n: number;
  isPush(i: number): boolean;
  isStdio(i: number): boolean;
  url(i: number): string;
  body(i: number, prefix?: string): Record<string, unknown>;
  counts(): Promise<ServerCounts[]>;
  /** tools/list requests each HTTP server received until `ms` (undefined for stdio servers, which keep no times). */
  listedBefore(ms: number): Promise<(number | undefined)[]>;
  /** The first requests an HTTP endpoint received: "<ms> <method> [client name]" each. */
  trail(i: number): Promise<string[]>;
  reset(): Promise<void>;
  /** CPU seconds the HTTP fixture processes have used (utime + stime; the stdio ones are the worker's children). */
  cpuSeconds(): number;
  change(i: number): Promise<{ t0: number; notified: boolean }>;
  stop(): Promise<void>;
};

const FIXTURE = path.join(import.meta.dirname, "fixture-fleet.ts");
const STDIO_FIXTURE = path.join(import.meta.dirname, "stdio-fixture.js");

export async function startFleet(opts: FleetOptions): Promise<Fleet> {
  const { n, dir } = opts;
  const pushEvery = opts.pushEvery ?? 20;
  const stdioEvery = opts.stdioEvery ?? 50;
  const per = opts.perProcess ?? 1000;
  fs.mkdirSync(dir, { recursive: true });
  const isPush = (i: number) => pushEvery > 0 && i % pushEvery === 0;
  const isStdio = (i: number) => stdioEvery > 0 && i % stdioEvery === stdioEvery - 1;
  const procs: { child: ChildProcess; port: number; from: number; count: number }[] = [];
  const log = fs.openSync(path.join(dir, "fixture.log"), "a");
  await Promise.all(
    Array.from({ length: Math.ceil(n / per) }, async (_, k) => {
      const from = k * per;
      const count = Math.min(per, n - from);
      const child = spawn(process.execPath, ["--import", "tsx", FIXTURE], {
        env: { ...process.env, FLEET_FROM: String(from), FLEET_COUNT: String(count), FLEET_PUSH_EVERY: String(pushEvery), PORT: "0" },
        stdio: ["ignore", "pipe", log],
      });
      const port = await new Promise<number>((resolve, reject) => {
        child.stdout!.on("data", (d) => {
          const m = /READY (\d+)/.exec(String(d));
          if (m) resolve(Number(m[1]));
        });
        child.once("exit", (code) => reject(new Error(`fleet fixture exited (${code}); see ${dir}/fixture.log`)));
      });
      procs.push({ child, port, from, count });
    }),
  );
  const procOf = (i: number) => procs.find((p) => i >= p.from && i < p.from + p.count)!;
  const toolsFile = (i: number) => path.join(dir, `tools-${i}.json`);
  const countsFile = (i: number) => path.join(dir, `counts-${i}.json`);
  for (let i = 0; i < n; i++) if (isStdio(i)) fs.writeFileSync(toolsFile(i), JSON.stringify(fixtureToolList(i)));

  const zero = (): ServerCounts => ({ initialize: 0, discover: 0, list: 0, listen: 0, other: 0, get: 0, mostOpenListens: 0 });
  const fleetCounts = async (): Promise<ServerCounts[]> => {
    const out = Array.from({ length: n }, zero);
    for (const p of procs) {
      const answer = (await (await fetch(`http://127.0.0.1:${p.port}/control/counts`)).json()) as { counts: number[][] };
      answer.counts.forEach(([initialize, discover, list, listen, other, get, mostOpenListens], k) => {
        if (!isStdio(p.from + k)) out[p.from + k] = { initialize: initialize!, discover: discover!, list: list!, listen: listen!, other: other!, get: get!, mostOpenListens: mostOpenListens! };
      });
    }
    const files = fs.readdirSync(dir);
    for (let i = 0; i < n; i++) {
      if (!isStdio(i)) continue;
      for (const f of files.filter((f) => f.startsWith(`counts-${i}.json.`))) {
        const c = JSON.parse(fs.readFileSync(path.join(dir, f), "utf8")) as Record<string, number>;
        out[i]!.initialize += c.initialize ?? 0;
        out[i]!.discover += c["server/discover"] ?? 0;
        out[i]!.list += c["tools/list"] ?? 0;
        out[i]!.other += c.other ?? 0;
      }
    }
    return out;
  };
  return {
    n,
    isPush,
    isStdio,
    url: (i) => `http://127.0.0.1:${procOf(i).port}/s/${i}/mcp`,
    body: (i, prefix = "svc") =>
      isStdio(i)
        ? { name: `${prefix}${i}`, transport: "stdio", command: process.execPath, args: [STDIO_FIXTURE, toolsFile(i), countsFile(i)] }
        : { name: `${prefix}${i}`, transport: "streamable-http", url: `http://127.0.0.1:${procOf(i).port}/s/${i}/mcp` },
    counts: fleetCounts,
    listedBefore: async (ms) => {
      const out: (number | undefined)[] = Array.from({ length: n }, () => undefined);
      for (const p of procs) {
        const answer = (await (await fetch(`http://127.0.0.1:${p.port}/control/listed-before/${Math.round(ms)}`)).json()) as number[];
        answer.forEach((listed, k) => {
          if (!isStdio(p.from + k)) out[p.from + k] = listed;
        });
      }
      return out;
    },
    trail: async (i) => (isStdio(i) ? [] : ((await (await fetch(`http://127.0.0.1:${procOf(i).port}/control/trail/${i}`)).json()) as string[])),
    reset: async () => {
      await Promise.all(procs.map((p) => fetch(`http://127.0.0.1:${p.port}/control/reset`, { method: "POST" }).then((r) => r.text())));
      for (const f of fs.readdirSync(dir)) if (f.startsWith("counts-")) fs.rmSync(path.join(dir, f));
    },
    cpuSeconds: () => procs.reduce((sum, p) => sum + (p.child.pid ? cpuSeconds(p.child.pid) : 0), 0),
    change: async (i) => (await (await fetch(`http://127.0.0.1:${procOf(i).port}/control/change/${i}`, { method: "POST" })).json()) as { t0: number; notified: boolean },
    stop: async () => {
      await Promise.all(procs.map((p) => new Promise<void>((resolve) => (p.child.exitCode !== null ? resolve() : (p.child.once("exit", () => resolve()), p.child.kill("SIGTERM"))))));
      fs.closeSync(log);
    },
  };
}

/** min / max / total of one counter over the servers selected. */
export function summarize(counts: ServerCounts[], key: keyof ServerCounts, pick: (i: number) => boolean = () => true) {
  const values = counts.filter((_, i) => pick(i)).map((c) => c[key]);
  return { min: Math.min(...values), max: Math.max(...values), total: values.reduce((a, b) => a + b, 0) };
}
