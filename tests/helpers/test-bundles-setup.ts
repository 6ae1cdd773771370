import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import type { TestProject } from "vitest/node";
import { BUNDLES_ENV, buildTestBundles } from "./test-bundles";

const PARENT = path.resolve(import.meta.dirname, "../..", ".tmp", "test-bundles");
const STALE_MS = 24 * 3600_000;
// The integration and e2e setups run in one process (`npm test`): the first builds, the last
// teardown removes. Kept on globalThis because each project may load this module afresh.
const state = globalThis as typeof globalThis & { __toolwatchTestBundleUsers?: number };

/** Folders a killed run left behind (a run's teardown removes its own). */
function removeStale(): void {
  for (const name of fs.existsSync(PARENT) ? fs.readdirSync(PARENT) : []) {
    const dir = path.join(PARENT, name);
    if (Date.now() - fs.statSync(dir).mtimeMs > STALE_MS) fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** Global setup: the test bundles (test-bundles.ts) for this run, in a folder of the project's ignored .tmp/. */
export default async function setup(project: TestProject) {
  // Watch mode reruns files after an edit but not this setup: its bundles would go stale, so
  // spawns there go through tsx (nodeArgsFor's fallback), which compiles the sources as they are.
  if (project.globalConfig.watch) return;
  const existing = process.env[BUNDLES_ENV];
  if (!existing || !fs.existsSync(existing)) {
    removeStale();
    const dir = path.join(PARENT, `${process.pid}-${randomBytes(4).toString("hex")}`);
    const started = Date.now();
    await buildTestBundles(dir);
    process.env[BUNDLES_ENV] = dir;
    console.log(`test bundles built in ${Date.now() - started} ms`);
  }
  state.__toolwatchTestBundleUsers = (state.__toolwatchTestBundleUsers ?? 0) + 1;
  return () => {
    state.__toolwatchTestBundleUsers = (state.__toolwatchTestBundleUsers ?? 1) - 1;
    if (state.__toolwatchTestBundleUsers > 0) return;
    const dir = process.env[BUNDLES_ENV];
    delete process.env[BUNDLES_ENV];
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  };
}
