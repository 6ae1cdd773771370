import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { chromium, type Browser } from "playwright-core";
import { expect, inject } from "vitest";
import { createDb, type Db } from "@/lib/db";
import { freshDatabaseUrl } from "./fresh-database";
import { CHROMIUM_ARGS } from "./chromium";
import { TEST_KEY } from "./factories";
import { freePort, startProcess, type Proc } from "./processes";

// The product as `npm start` runs it (production build, web + worker processes, a real
// Postgres), plus a Chromium to drive it. One per test file, so rate-limit buckets, the worker's
// sessions and the browser start fresh.
export type Product = {
  baseUrl: string;
  /** The product's own database (tests/helpers/fresh-database.ts), for a test that must reach in. */
  db: Db;
  /** The environment both processes run with (a test may start a variant of one). */
  env: Record<string, string>;
  dir: string;
  web: Proc;
  worker: Proc;
  browser: Browser;
  stop(): Promise<void>;
};

export async function startProduct(extraEnv: Record<string, string> = {}): Promise<Product> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "toolwatch-e2e-"));
  const [port, databaseUrl] = await Promise.all([freePort(), freshDatabaseUrl()]);
  const env = {
    DATABASE_URL: databaseUrl,
    NODE_ENV: "production",
    PORT: String(port),
    HOST: "127.0.0.1",
    TOOLWATCH_DATA_DIR: dir,
    TOOLWATCH_SECRET_KEY: TEST_KEY.toString("base64"),
    TOOLWATCH_DEMO: "0",
    TOOLWATCH_HEARTBEAT_MS: "1000",
    TOOLWATCH_DEBOUNCE_MS: "100",
    ...extraEnv,
  };
  const [web, worker] = await Promise.all([startProcess("server.ts", env, /Toolwatch is ready at/), startProcess("worker/main.ts", env, /watching \d+ server/)]);
  const browser = await chromium.launch({ executablePath: inject("chromiumPath"), headless: true, args: CHROMIUM_ARGS });
  const db = createDb(databaseUrl, 2);
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    db,
    env,
    dir,
    web,
    worker,
    browser,
    stop: async () => {
      await browser.close().catch(() => undefined);
      await Promise.all([web.stop(), worker.stop(), db.$disconnect()]);
      keepLogs(port, { web, worker });
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The processes' output, kept for a look after a failure (gitignored .scratch/e2e-logs/). */
function keepLogs(port: number, procs: Record<string, Proc>): void {
  const dir = path.resolve(import.meta.dirname, "../../.scratch/e2e-logs");
  fs.mkdirSync(dir, { recursive: true });
  const test = path.basename(expect.getState().testPath ?? "unknown", ".test.ts");
  for (const [name, proc] of Object.entries(procs)) fs.writeFileSync(path.join(dir, `${test}-${port}-${name}.log`), proc.output());
}

/** Where the e2e tests leave screenshots for people to look at. */
export function screenshotPath(name: string): string {
  const dir = path.resolve(import.meta.dirname, "../../.scratch/screens");
  fs.mkdirSync(dir, { recursive: true });
  return path.join(dir, `${name}.png`);
}
