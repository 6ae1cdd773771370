/**
 * The scripts tests spawn again and again — fixture MCP servers, helper web processes, the CLI, the worker —
 * compiled once per test run by esbuild and run by plain node. Through tsx each spawn cost ~1.2 s
 * of CPU (the loader's hooks thread sees and compiles every import) against ~0.4 s from a bundle;
 * a full integration run spawns them hundreds of times (docs/testing.md). The sources are the
 * same: tsx itself compiles with esbuild. tests/helpers/test-bundles-setup.ts builds them in the
 * integration and e2e global setups and names the folder in TOOLWATCH_TEST_BUNDLES; `nodeArgsFor`
 * falls back to tsx when there is no bundle (a script outside a test run, e.g. bench/).
 */
import fs from "node:fs";
import path from "node:path";
import { PROJECT_ROOT as ROOT } from "@/lib/project-root";
import { tsxArgs } from "@/worker/demo-fleet/spawn-ready";

/** The `toolwatch` command (package.json "bin"): loads cli/main.ts through tsx. */
export const TOOLWATCH_BIN = path.join(ROOT, "bin/toolwatch.js");
export const BUNDLES_ENV = "TOOLWATCH_TEST_BUNDLES";

// Bundle name → source (relative to the project root). "toolwatch" stands for bin/toolwatch.js.
const SOURCES: Record<string, string> = {
  "state-server": "tests/fixtures/state-server.ts",
  "misbehaving-server": "tests/fixtures/misbehaving-server.ts",
  "v1-legacy-server": "tests/fixtures/v1-legacy-server.ts",
  "auth-web-process": "tests/fixtures/auth-web-process.ts",
  "api-key-web-process": "tests/fixtures/api-key-web-process.ts",
  // The worker outside production mode (tests/helpers/processes.ts); in production mode it runs
  // from .next/toolwatch-worker.mjs, as under `npm start`.
  worker: "worker/main.ts",
};
const bundleNameOf = new Map<string, string>([...Object.entries(SOURCES).map(([name, rel]) => [path.join(ROOT, rel), name] as const), [TOOLWATCH_BIN, "toolwatch"]]);

// What bin/toolwatch.js does once tsx is registered.
const CLI_ENTRY = `import { main } from ${JSON.stringify(path.join(ROOT, "cli/main.ts"))};\nprocess.exitCode = await main(process.argv.slice(2));\n`;

/**
 * Builds every bundle into `dir`, which must lie inside the project (the bundles import their
 * packages from its node_modules/). Code-split ESM: the CLI's commands stay lazily loaded.
 */
export async function buildTestBundles(dir: string): Promise<void> {
  const { build } = await import("esbuild");
  fs.mkdirSync(dir, { recursive: true });
  // .mjs: outside what tsc checks (tsconfig.json "include"); eslint ignores .tmp/.
  const cliEntry = path.join(dir, "toolwatch-entry.mjs");
  fs.writeFileSync(cliEntry, CLI_ENTRY);
  await build({
    entryPoints: { ...Object.fromEntries(Object.entries(SOURCES).map(([name, rel]) => [name, path.join(ROOT, rel)])), toolwatch: cliEntry },
    outdir: dir,
    outExtension: { ".js": ".mjs" },
    bundle: true,
    splitting: true,
    platform: "node",
    format: "esm",
    target: "node20",
    packages: "external",
    tsconfig: path.join(ROOT, "tsconfig.json"),
    // As scripts/build-if-needed.ts: lib/project-root.ts reads the project root from this constant.
    banner: { js: `const __toolwatchRoot = ${JSON.stringify(ROOT)};` },
    logLevel: "warning",
  });
}

/** The bundle of `scriptPath` this run built, if any. */
export function bundleOf(scriptPath: string): string | undefined {
  const dir = process.env[BUNDLES_ENV];
  const name = bundleNameOf.get(path.resolve(scriptPath));
  if (!dir || !name) return undefined;
  const bundle = path.join(dir, `${name}.mjs`);
  return fs.existsSync(bundle) ? bundle : undefined;
}

/** argv after the node binary that runs `scriptPath`: its bundle, else the script (through tsx if TypeScript). */
export function nodeArgsFor(scriptPath: string): string[] {
  const bundle = bundleOf(scriptPath);
  if (bundle) return [bundle];
  return scriptPath.endsWith(".ts") ? tsxArgs(scriptPath) : [scriptPath];
}

/** argv after the node binary for the `toolwatch` command (see TOOLWATCH_BIN). */
export const toolwatchArgs = (args: string[]): string[] => [...nodeArgsFor(TOOLWATCH_BIN), ...args];
