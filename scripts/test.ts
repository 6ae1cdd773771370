import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

// `npm test [unit|integration|e2e]`: runs vitest and ends with the one line CI reads,
// "N passed, N failed", taken from vitest's JSON report.
const ROOT = path.resolve(import.meta.dirname, "..");
const tiers = process.argv.slice(2);
const report = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "toolwatch-vitest-")), "report.json");
const args = [
  path.join(ROOT, "node_modules/vitest/vitest.mjs"),
  "run",
  ...tiers.flatMap((t) => ["--project", t]),
  "--reporter=default",
  "--reporter=json",
  `--outputFile.json=${report}`,
];
const started = Date.now();
const child = spawn(process.execPath, args, { cwd: ROOT, stdio: "inherit", env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1", CHECKPOINT_DISABLE: "1" } });
const code: number = await new Promise((resolve) => child.on("exit", (c, signal) => resolve(c ?? (signal ? 1 : 0))));

let passed = 0;
let failed = 0;
let skipped = 0;
if (fs.existsSync(report)) {
  const json = JSON.parse(fs.readFileSync(report, "utf8")) as {
    success: boolean;
    numTotalTests: number;
    numPassedTests: number;
    numFailedTests: number;
    numPendingTests: number;
    numTodoTests: number;
  };
  passed = json.numPassedTests;
  failed = json.numFailedTests;
  // A crashed global setup can leave vitest with zero tests run and even exit 0: that is a failure.
  if (!json.success || json.numTotalTests === 0) failed = Math.max(1, failed);
  skipped = json.numPendingTests + json.numTodoTests;
  fs.rmSync(path.dirname(report), { recursive: true, force: true });
} else {
  failed = Math.max(1, failed);
}
// A run that failed outside any test (setup error, crash) must not read as green.
if (code !== 0 && failed === 0) failed = 1;
console.log(`\ntests: ${tiers.length ? tiers.join(", ") : "static, unit, integration, e2e"} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ""}`);
process.exit(code !== 0 ? code : failed > 0 ? 1 : 0);
