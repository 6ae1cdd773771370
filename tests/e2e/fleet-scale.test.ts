import type { BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, createTeam, signedUpContext, type Account } from "@/tests/helpers/e2e-accounts";
import { screenshotPath, startProduct, type Product } from "@/tests/helpers/e2e-product";

// Issue 12, the fleet page at fleet size: 2,000 servers registered through the batch API in two
// calls, then the page shows the first 100 with counts for all 2,000 from the API, loads the next
// page as the list scrolls, and filters and sorts on the server.
const N = 2_000;
const pad = (i: number) => String(i).padStart(4, "0");
const ENVS = ["prod", "staging", "dev"] as const;
const rows = (page: Page) => page.locator('tbody tr[data-testid^="server-row-"]');
const summary = (page: Page) => page.getByTestId("fleet-summary").innerText();

describe("a fleet of 2,000 servers in Chromium", () => {
  let product: Product;
  let context: BrowserContext;
  let owner: Account;
  let page: Page;

  beforeAll(async () => {
    product = await startProduct();
    ({ context, account: owner } = await signedUpContext(product.browser, product.baseUrl, "fleetowner"));
    await createTeam(owner, "fleet", "Fleet team");
    // Disabled (stopped) so the worker does not dial 2,000 addresses nobody listens on.
    const body = (from: number) => ({
      servers: Array.from({ length: 1_000 }, (_, k) => {
        const i = from + k;
        return { name: `svc-${pad(i)}`, transport: "streamable-http", url: `http://127.0.0.1:9/mcp/${i}`, tags: [`env:${ENVS[i % 3]}`, `team:${i % 20}`], enabled: false, headers: { Authorization: `Bearer t-${i}` } };
      }),
    });
    const started = Date.now();
    for (const from of [0, 1_000]) {
      const res = await call(owner, "POST", "/api/v1/servers/batch", body(from));
      expect(res.status, JSON.stringify(res.json).slice(0, 500)).toBe(201);
    }
    console.log(`[fleet-scale] registered ${N} servers in two batch calls in ${Date.now() - started} ms`);
    page = await context.newPage();
  });
  afterAll(async () => {
    await context?.close();
    await product?.stop();
  });

  it("shows the first page with the whole fleet's counts, and loads more on scroll", async () => {
    await page.goto("/servers");
    await expect.poll(() => summary(page), { timeout: 30_000 }).toContain(`${N} servers`);
    expect(await summary(page)).toContain(`${N} stopped`);
    expect(await rows(page).count()).toBe(100);
    expect(await rows(page).first().getAttribute("data-testid")).toBe("server-row-svc-0000");
    await page.getByTestId("load-more").scrollIntoViewIfNeeded();
    await expect.poll(() => rows(page).count(), { timeout: 20_000 }).toBe(200);
    expect(await rows(page).nth(199).getAttribute("data-testid")).toBe("server-row-svc-0199");
    await page.screenshot({ path: screenshotPath("fleet-2000"), fullPage: false });
  });

  it("filters by tag and sorts on the server: counts cover every page", async () => {
    await page.goto("/?tag=env:prod,team:0&sort=name&dir=desc"); // an old fleet bookmark: `/` hands it to /servers
    await page.waitForURL((url) => url.pathname === "/servers" && url.searchParams.get("tag") === "env:prod,team:0");
    // i % 3 = 0 and i % 20 = 0 → multiples of 60 below 2,000: 0, 60, …, 1980 (34 servers)
    await expect.poll(() => summary(page), { timeout: 30_000 }).toContain(`34 of ${N} servers`);
    expect(await rows(page).count()).toBe(34);
    expect(await rows(page).first().getAttribute("data-testid")).toBe("server-row-svc-1980");
    expect(await rows(page).last().getAttribute("data-testid")).toBe("server-row-svc-0000");
    await page.screenshot({ path: screenshotPath("fleet-2000-filtered"), fullPage: false });
  });

  it("a filter that matches nothing says how many servers each condition hides, counted by the API", async () => {
    await page.goto("/servers?tag=env:prod&q=svc-0001");
    const noMatch = page.getByTestId("no-match");
    await noMatch.waitFor({ timeout: 30_000 });
    // without the tag: svc-0001 alone; without the name: every prod server (i % 3 = 0 below 2,000: 667)
    await noMatch.getByText("without it: 1 server", { exact: false }).waitFor({ timeout: 20_000 });
    await noMatch.getByText("without it: 667 servers", { exact: false }).waitFor({ timeout: 20_000 });
  });
});
