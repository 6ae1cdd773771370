import path from "node:path";
import { measureFleetApi } from "./api-load";
import { measureChangeLatency } from "./change-latency";
import { measurePostSweep } from "./post-sweep";
import { measureScaleOut } from "./scale-out";
import { measureSteadyState } from "./steady-state";
import { runSweep } from "./sweep";

// `npm run bench -- fleet [--quick] [--sizes=100,500,2000] [--cap=180] [--changes=50]
//  [--steady-min=3] [--steady-at=500] [--fairness-at=2000] [--push-every=20] [--scale-out=500]
//  [--api-at=2000] [--api-clients=50] [--api-seconds=10] [--api-snapshots=50] [--pg-statements] [--budget=<tokens>]
//  [--post-sweep-at=2000] [--cpu-prof=<dir>]`
// Every run starts a fresh product (`npm start`, demo off, new data dir) and fixture fleet.
const arg = (name: string, fallback: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3) ?? fallback;

export async function runFleetBench(quick: boolean): Promise<void> {
  const sizes = arg("sizes", quick ? "100" : "100,500,2000").split(",").map(Number);
  const capMs = Number(arg("cap", quick ? "60" : "180")) * 1000;
  const changes = Number(arg("changes", quick ? "10" : "50"));
  const steadyMin = Number(arg("steady-min", quick ? "0" : "3"));
  const steadyAt = Number(arg("steady-at", quick ? "0" : "500"));
  const fairnessAt = Number(arg("fairness-at", quick ? "100" : "2000"));
  const scaleOutAt = Number(arg("scale-out", "0"));
  // At this size, first watch the worker's lanes after the sweep (judgements, first identity probes) until they drain.
  const postSweepAt = Number(arg("post-sweep-at", "0"));
  const pushEvery = Number(arg("push-every", "20")); // 1 in 20 servers keeps a listen stream
  // The fleet API through the real web process after the sweep at this size (0: skip).
  const apiAt = Number(arg("api-at", quick ? "0" : "2000"));
  const api = { clients: Number(arg("api-clients", "50")), seconds: Number(arg("api-seconds", "10")), snapshotsPerServer: Number(arg("api-snapshots", "50")) };
  const all: Record<string, unknown>[] = [];
  console.log(`fleet: sweeps of ${sizes.join(", ")} servers (cap ${capMs / 1000} s each), ${changes} changes for latency, steady state ${steadyMin} min at ${steadyAt || "—"}`);
  for (const n of sizes) {
    const cpuProf = arg("cpu-prof", "");
    const extraEnv = {
      ...(process.argv.includes("--pg-statements") ? { TOOLWATCH_PG_STAT_STATEMENTS: "1" } : {}),
      // The web and worker processes write V8 CPU profiles there when the product stops.
      ...(cpuProf ? { TOOLWATCH_CPU_PROFILE_DIR: path.resolve(cpuProf, String(n)) } : {}),
    };
    const budget = Number(arg("budget", "0")); // a team context budget in tokens (0: none)
    const run = await runSweep({ n, capMs, fairness: n === fairnessAt, bare: true, pushEvery, extraEnv, budgetTokens: budget || undefined });
    try {
      if (n === postSweepAt) run.result.postSweep = await measurePostSweep(run, 900_000);
      if (changes > 0) run.result.changeLatency = await measureChangeLatency(run, changes, quick ? 30_000 : 180_000);
      if (steadyMin > 0 && n === steadyAt) run.result.steadyState = await measureSteadyState(run, steadyMin);
      if (n === apiAt) run.result.fleetApi = await measureFleetApi(run, api);
    } finally {
      await run.stop();
    }
    print(run.result);
    all.push(run.result);
  }
  if (scaleOutAt > 0) {
    for (const workers of [2, 3]) {
      const result = await measureScaleOut(scaleOutAt, workers, capMs);
      print(result);
      all.push(result);
    }
  }
  console.log(`fleet results (json): ${JSON.stringify(all)}`);
}

function print(result: Record<string, unknown>, indent = "  "): void {
  for (const [key, value] of Object.entries(result)) {
    if (value && typeof value === "object") {
      console.log(`${indent}${key}:`);
      print(value as Record<string, unknown>, `${indent}  `);
    } else console.log(`${indent}${key}: ${String(value)}`);
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await runFleetBench(process.argv.includes("--quick"));
