import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { chromium, type Browser, type BrowserContext, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { DEMO_TENANT_SLUG, ensureTenant } from "@/lib/tenants/ensure-tenant";
import { startHttpFixture, writeFixtureState } from "@/tests/fixtures/spawn-fixture";
import { CHROMIUM_ARGS } from "@/tests/helpers/chromium";
import { signedUpContext } from "@/tests/helpers/e2e-accounts";
import { screenshotPath, waitLive } from "@/tests/helpers/e2e-product";
import { insertServerRow, TEST_KEY } from "@/tests/helpers/factories";
import { freshDatabaseUrl } from "@/tests/helpers/fresh-database";
import { createDb, type Db } from "@/lib/db";
import { freePort, startProcess, type Proc } from "@/tests/helpers/processes";

// The product as a user meets it: production build, web + worker processes, the demo fleet,
// real Chromium. A fixture server in the demo team lets the test change tools on cue; the test's
// own user (signed up over HTTP) is made a viewer of the demo team.
const tool = (name: string) => ({ name, description: `The ${name} tool`, inputSchema: { type: "object", properties: {} } });

describe("fleet page in Chromium", () => {
  let dir: string;
  let web: Proc;
  let worker: Proc;
  let fixture: { url: string; stop(): Promise<void> };
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let baseUrl: string;
  let demoTenantId: string;
  let databaseUrl: string;
  let db: Db;
  const statePath = () => path.join(dir, "fixture.json");

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "toolwatch-e2e-"));
    databaseUrl = await freshDatabaseUrl();
    db = createDb(databaseUrl, 2);
    writeFixtureState(statePath(), { tools: [tool("alpha"), tool("beta")] });
    fixture = await startHttpFixture(statePath());
    const demo = await ensureTenant(db, DEMO_TENANT_SLUG, "Demo team");
    demoTenantId = demo.id;
    await insertServerRow({ tenantId: demo.id, actor: { kind: "system", id: "e2e" }, db: db }, "e2e-fixture", { transport: "streamable_http", url: fixture.url, headers: {} });

    const port = await freePort();
    baseUrl = `http://127.0.0.1:${port}`;
    const env = {
      DATABASE_URL: databaseUrl,
      NODE_ENV: "production",
      PORT: String(port),
      HOST: "127.0.0.1",
      TOOLWATCH_DATA_DIR: dir,
      TOOLWATCH_SECRET_KEY: TEST_KEY.toString("base64"),
      TOOLWATCH_DEMO: "1",
      TOOLWATCH_DEMO_CHANGE_MS: "4000",
      TOOLWATCH_HEARTBEAT_MS: "1000",
      TOOLWATCH_DEBOUNCE_MS: "100",
    };
    [web, worker] = await Promise.all([
      startProcess("server.ts", env, /Toolwatch is ready at/),
      startProcess("worker/main.ts", env, /watching \d+ server/),
    ]);
    browser = await chromium.launch({ executablePath: inject("chromiumPath"), headless: true, args: CHROMIUM_ARGS });
    ({ context } = await signedUpContext(browser, baseUrl, "watcher"));
    const me = (await (await context.request.get(`${baseUrl}/api/auth/get-session`)).json()) as { user: { id: string } };
    await db.member.create({ data: { tenantId: demoTenantId, userId: me.user.id, role: "viewer" } });
    page = await context.newPage();
  });

  afterAll(async () => {
    await context?.close();
    await browser?.close();
    await Promise.all([web?.stop(), worker?.stop()]);
    await db?.$disconnect();
    await fixture?.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it("GET /api/health reports the database and a live worker (to anyone: the status only)", async () => {
    const res = await fetch(`${baseUrl}/api/health`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: "ok" });
  });

  it("lists the demo fleet with status, protocol and tool counts", async () => {
    await page.goto(`${baseUrl}/servers`);
    await waitLive(page, 30_000);
    for (const name of ["e2e-fixture"]) await page.getByTestId(`server-row-${name}`).waitFor({ timeout: 30_000 });
    const rows = page.locator("tbody tr");
    await expect.poll(() => rows.count(), { timeout: 60_000 }).toBeGreaterThanOrEqual(4);
    // Every server eventually has a tool count (a number, not "—").
    await expect
      .poll(async () => (await page.getByTestId("tool-count").allInnerTexts()).filter((t) => /^\d+$/.test(t.trim())).length, { timeout: 60_000 })
      .toBeGreaterThanOrEqual(4);
    await page.screenshot({ path: screenshotPath("fleet-demo"), fullPage: true });
  });

  it("shows a server's new tool count without a reload when its tools change", async () => {
    const row = page.getByTestId("server-row-e2e-fixture");
    await expect.poll(() => row.getByTestId("tool-count").innerText(), { timeout: 30_000 }).toBe("2");
    await page.evaluate(() => ((window as unknown as { __noReload: boolean }).__noReload = true));
    writeFixtureState(statePath(), { tools: [tool("alpha"), tool("beta"), tool("gamma")] });
    await expect.poll(() => row.getByTestId("tool-count").innerText(), { timeout: 20_000 }).toBe("3");
    expect(await page.evaluate(() => (window as unknown as { __noReload?: boolean }).__noReload)).toBe(true);
  });

  it("the demo fleet's timer server gains snapshots while the page stays open", async () => {
    await page.goto(`${baseUrl}/servers`);
    await page.evaluate(() => ((window as unknown as { __noReload: boolean }).__noReload = true));
    const row = page.getByTestId("server-row-Release Train (demo)");
    const count = async () => Number((await row.getByTestId("last-change").innerText()).match(/(\d+) snapshot/)?.[1] ?? 0);
    const first = await count();
    // TOOLWATCH_DEMO_CHANGE_MS=4000 here: the server changes its tools every 4 s by itself.
    await expect.poll(count, { timeout: 30_000 }).toBeGreaterThan(first);
    expect(await page.evaluate(() => (window as unknown as { __noReload?: boolean }).__noReload)).toBe(true);
  });

  it("opens a server page with its tools and a timeline that grows live", async () => {
    await page.getByTestId("server-row-e2e-fixture").getByRole("link").click();
    await page.getByRole("heading", { name: /Current tools \(3\)/ }).waitFor({ timeout: 20_000 });
    await page.getByRole("heading", { name: /^gamma/ }).waitFor({ timeout: 5_000 });
    const items = page.getByTestId("timeline-item");
    await expect.poll(() => items.count(), { timeout: 20_000 }).toBe(2);
    writeFixtureState(statePath(), { tools: [tool("alpha"), { ...tool("beta"), description: "The beta tool\u200b now with a hidden character" }, tool("gamma")] });
    await expect.poll(() => items.count(), { timeout: 20_000 }).toBe(3);
    await expect.poll(() => page.locator("mark.hidden-char").first().innerText(), { timeout: 20_000 }).toContain("ZERO WIDTH SPACE");
    await page.screenshot({ path: screenshotPath("server-page"), fullPage: true });
  });
});
