// `npm run bench`: every benchmark in turn; each prints numbers and asserts nothing.
await import("./snapshot-store");
console.log("");
await import("./discovery");
console.log("");
const { runDiffBench } = await import("./diff");
await runDiffBench();
export {};
console.log("");
const { runAuditBench } = await import("./audit");
await runAuditBench();
console.log("");
await import("./cache");
console.log("");
await import("./fleet-api");
console.log("");
const { runCrossRulesBench } = await import("./cross-rules");
await runCrossRulesBench();
