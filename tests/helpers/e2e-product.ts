import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { chromium, type Browser, type Page } from "playwright-core";
import { beforeEach, expect, inject } from "vitest";
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
  const started = await Promise.allSettled([startProcess("server.ts", env, /Toolwatch is ready at/), startProcess("worker/main.ts", env, /watching \d+ server/)]);
  // One that failed must not leave the other running: no afterAll stops a product that never started
  // (a worker orphaned this way kept its demo servers alive for an hour beside later runs).
  const failed = started.find((r) => r.status === "rejected");
  if (failed) {
    await Promise.all(started.map((r) => (r.status === "fulfilled" ? r.value.stop() : undefined)));
    throw failed.reason;
  }
  const [web, worker] = started.map((r) => (r as PromiseFulfilledResult<Proc>).value) as [Proc, Proc];
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

/**
 * Until the page's header says "live": React has hydrated the page (a click on a link before that
 * can be lost) and its socket is in its team's rooms (toolwatch:ready), so no event is missed.
 */
export const waitLive = (page: Page, timeout = 15_000) => page.getByTestId("live-indicator").filter({ hasText: "live" }).waitFor({ timeout });

/** Where the e2e tests leave screenshots for people to look at. */
export function screenshotPath(name: string): string {
  const dir = path.resolve(import.meta.dirname, "../../.scratch/screens");
  fs.mkdirSync(dir, { recursive: true });
  return path.join(dir, `${name}.png`);
}

/**
 * After a failed test, print what each page showed (its URL and visible text) and keep a
 * screenshot: on CI the log is all there is to read, and a timeout alone does not say whether the
 * page was empty, loading or showing an error.
 */
export function describePagesOnFailure(pages: () => (Page | undefined)[]): void {
  beforeEach(({ onTestFailed, task }) => {
    onTestFailed(async () => {
      for (const [i, page] of pages().entries()) {
        if (!page || page.isClosed()) continue;
        const text = await page.evaluate(() => (document.querySelector("main") ?? document.body).innerText).catch((error: Error) => `(unreadable: ${error.message})`);
        const shot = screenshotPath(`failed-${task.name.slice(0, 40).replace(/[^a-z0-9]+/gi, "-")}-${i}`);
        await page.screenshot({ path: shot, fullPage: true }).catch(() => undefined);
        console.log(`[page ${i} after the failure] ${page.url()}\n${text.slice(0, 1_500)}\n[screenshot] ${shot}`);
      }
    });
  });
}
