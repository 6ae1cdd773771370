// The official MCP conformance suite (@modelcontextprotocol/conformance 0.1.16) against the
// Toolwatch CLI, through scripts/conformance-client.mjs. The suite's CLI wants Node ≥ 22 for one
// import (fs.globSync); scripts/conformance/node20-globsync.mjs supplies it on Node 20.
// Scenarios run one at a time (each starts its own servers and a CLI process, ~10 s).
import { execFile } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const ROOT = path.resolve(import.meta.dirname, "../..");
const SUITE = ["--import", "./scripts/conformance/node20-globsync.mjs", "node_modules/@modelcontextprotocol/conformance/dist/index.js"];

// Hand-written: initialize plus every auth/* client scenario of the 2025-11-25, 2025-03-26 and
// extension sets in 0.1.16 (drafts are optional and not run).
const SCENARIOS = [
  "initialize",
  "auth/metadata-default",
  "auth/metadata-var1",
  "auth/metadata-var2",
  "auth/metadata-var3",
  "auth/basic-cimd",
  "auth/scope-from-www-authenticate",
  "auth/scope-from-scopes-supported",
  "auth/scope-omitted-when-undefined",
  "auth/scope-step-up",
  "auth/scope-retry-limit",
  "auth/token-endpoint-auth-basic",
  "auth/token-endpoint-auth-post",
  "auth/token-endpoint-auth-none",
  "auth/pre-registration",
  "auth/2025-03-26-oauth-metadata-backcompat",
  "auth/2025-03-26-oauth-endpoint-fallback",
  "auth/client-credentials-jwt",
  "auth/client-credentials-basic",
  "auth/cross-app-access-complete-flow",
];

type Run = { code: number; stdout: string; stderr: string };
const suite = (args: string[]): Promise<Run> =>
  promisify(execFile)(process.execPath, [...SUITE, ...args], { cwd: ROOT, timeout: 90_000, maxBuffer: 16 * 1024 * 1024 }).then(
    (r) => ({ code: 0, stdout: r.stdout, stderr: r.stderr }),
    (e: { code: number; stdout: string; stderr: string }) => ({ code: e.code, stdout: e.stdout, stderr: e.stderr }),
  );

type Check = { id: string; status: string; details?: unknown };

/** Credentials and tokens of a run: the context the runner handed over, and tokens the servers issued. */
function secretsOf(runnerStderr: string, checks: Check[]): string[] {
  const secrets: string[] = [];
  const context = /With context: (\{.*\})/.exec(runnerStderr)?.[1];
  if (context) {
    const c = JSON.parse(context) as Record<string, string>;
    for (const key of ["client_secret", "private_key_pem", "idp_id_token"]) if (c[key]) secrets.push(c[key]);
  }
  for (const m of JSON.stringify(checks).matchAll(/\\?"(access_token|refresh_token)\\?":\s*\\?"([^"\\]{8,})/g)) secrets.push(m[2]!);
  return secrets;
}

describe("MCP conformance suite 0.1.16, client side (toolwatch snapshot)", () => {
  let out: string;
  const started = Date.now();
  beforeAll(() => {
    out = fs.mkdtempSync(path.join(os.tmpdir(), "toolwatch-conformance-"));
  });
  afterAll(() => {
    fs.rmSync(out, { recursive: true, force: true });
    console.log(`conformance: ${SCENARIOS.length} scenarios in ${Math.round((Date.now() - started) / 1000)} s`);
  });

  it("the suite still offers every scenario we expect (none disappeared or moved to drafts)", async () => {
    const listed = await suite(["list", "--client"]);
    expect(listed.code).toBe(0);
    const offered = new Map([...listed.stdout.matchAll(/^\s+- (\S+) \[([^\]]+)\]/gm)].map((m) => [m[1]!, m[2]!]));
    for (const name of SCENARIOS) expect(offered.get(name), name).toBeDefined();
    const required = [...offered].filter(([name, sets]) => name.startsWith("auth/") && sets.split(",").some((s) => ["2025-11-25", "2025-03-26", "extension"].includes(s)));
    expect(required.map(([name]) => name).sort()).toEqual(SCENARIOS.filter((s) => s.startsWith("auth/")).sort());
  });

  it.each(SCENARIOS)("%s passes, and no secret or token reaches the CLI's output", async (scenario) => {
    const dir = path.join(out, scenario.replace("/", "_"));
    const run = await suite(["client", "--command", "node scripts/conformance-client.mjs", "--scenario", scenario, "-o", dir, "--timeout", "60000"]);
    const summary = /Passed: (\d+)\/(\d+), (\d+) failed, (\d+) warnings/.exec(run.stderr);
    expect(summary, run.stderr.slice(-3000)).not.toBeNull();
    expect({ exit: run.code, failed: Number(summary![3]), warnings: Number(summary![4]), verdict: run.stderr.includes("OVERALL: PASSED") }, run.stderr.slice(-3000)).toEqual({
      exit: 0,
      failed: 0,
      warnings: 0,
      verdict: true,
    });
    expect(Number(summary![1])).toBeGreaterThan(0);

    const [resultDir] = fs.readdirSync(path.join(dir, path.dirname(scenario) === "." ? "" : path.dirname(scenario)), { withFileTypes: true })
      .filter((d) => d.isDirectory() && d.name.startsWith(path.basename(scenario) + "-"))
      .map((d) => path.join(d.parentPath, d.name));
    expect(resultDir, "runner output directory").toBeDefined();
    const checks = JSON.parse(fs.readFileSync(path.join(resultDir!, "checks.json"), "utf8")) as Check[];
    expect(checks.filter((c) => c.status === "FAILURE" || c.status === "WARNING")).toEqual([]);
    const clientOutput = fs.readFileSync(path.join(resultDir!, "stdout.txt"), "utf8") + fs.readFileSync(path.join(resultDir!, "stderr.txt"), "utf8");
    for (const secret of secretsOf(run.stderr, checks)) expect(clientOutput.includes(secret), "a secret or token in the CLI's output").toBe(false);
  }, 90_000);
});
