// `npm run bench`: every benchmark in turn; each prints numbers and asserts nothing.
// `npm run bench -- fleet` runs only the fleet harness (bench/fleet); `--quick` keeps the whole
// run under 5 minutes (the fleet harness at 100 servers). A bench that throws is reported and the
// next one still runs.
const quick = process.argv.includes("--quick");
if (quick) {
  // Same measurements, fewer repetitions (explicit BENCH_* settings still win).
  const fewer: Record<string, string> = { BENCH_ROUNDS: "20", BENCH_SNAPSHOTS: "100", BENCH_AUDIT_RUNS: "3", BENCH_DIFF_RUNS: "5", BENCH_TEAMS: "5" };
  for (const [key, value] of Object.entries(fewer)) process.env[key] ??= value;
}
const step = async (name: string, run: () => Promise<unknown>) => {
  try {
    await run();
  } catch (error) {
    console.log(`${name} bench failed: ${(error as Error).message.split("\n").slice(-3).join(" ").slice(0, 400)}`);
    process.exitCode = 1;
  }
  console.log("");
};
if (!process.argv.includes("fleet")) {
  await step("snapshot-store", () => import("./snapshot-store"));
  await step("discovery", () => import("./discovery"));
  await step("diff", async () => (await import("./diff")).runDiffBench());
  await step("audit", async () => (await import("@/bench/audit")).runAuditBench());
  await step("cache", () => import("./cache"));
  await step("fleet-api", () => import("./fleet-api"));
  await step("cross-rules", async () => (await import("./cross-rules")).runCrossRulesBench());
  await step("rate-limit", () => import("./rate-limit"));
  await step("context-tokens", async () => (await import("./context-tokens")).runContextTokensBench());
}
await step("fleet", async () => (await import("./fleet/run-fleet")).runFleetBench(quick));
export {};
