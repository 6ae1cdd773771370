// `npm run bench`: every benchmark in turn; each prints numbers and asserts nothing.
// `npm run bench -- fleet` runs only the fleet harness (bench/fleet); `--quick` keeps the whole
// run under 5 minutes (the fleet harness at 100 servers).
const quick = process.argv.includes("--quick");
if (!process.argv.includes("fleet")) {
  await import("./snapshot-store");
  console.log("");
  await import("./discovery");
  console.log("");
  const { runDiffBench } = await import("./diff");
  await runDiffBench();
  console.log("");
  const { runAuditBench } = await import("./audit");
  await runAuditBench();
  console.log("");
  await import("./cache");
  console.log("");
}
const { runFleetBench } = await import("./fleet/run-fleet");
await runFleetBench(quick);
export {};
