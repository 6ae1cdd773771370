import path from "node:path";
import type { BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startHttpFixture, writeFixtureState, type HttpFixture } from "@/tests/fixtures/spawn-fixture";
import { addHttpServer, createTeam, ok, signedUpContext, type Account } from "@/tests/helpers/e2e-accounts";
import { screenshotPath, startProduct, waitLive, type Product } from "@/tests/helpers/e2e-product";

// Issue 17's overview in Chromium against the production build, web + worker: the empty state
// says what to do, the cards count what the worker recorded, and a change the worker records
// moves the counts, the chart's table and the feed without a reload (socket.io → refetch).
const tool = (name: string) => ({ name, description: `The ${name} tool`, inputSchema: { type: "object", properties: {} } });
const text = (page: Page, testId: string) => page.getByTestId(testId).innerText();

describe("overview page in Chromium", () => {
  let product: Product;
  let fixture: HttpFixture;
  let context: BrowserContext;
  let owner: Account;
  let page: Page;
  let serverId: string;
  const statePath = () => path.join(product.dir, "overview-tools.json");

  beforeAll(async () => {
    product = await startProduct();
    writeFixtureState(statePath(), { tools: [tool("alpha"), tool("beta")] });
    fixture = await startHttpFixture(statePath());
    ({ context, account: owner } = await signedUpContext(product.browser, product.baseUrl, "overview"));
    await createTeam(owner, "overview", "Overview team");
    page = await context.newPage();
  });
  afterAll(async () => {
    await context?.close();
    await fixture?.stop();
    await product?.stop();
  });

  let tokensBefore = 0;
  const tokensOf = (shown: string) => Number(shown.replace(/[^\d]/g, ""));
  /** The last number of the token chart's caption ("…: 120 → 180 over 2 days"). */
  const latestTrendTokens = async (p: Page) => {
    const caption = await p.getByTestId("overview-token-trend").getByTestId("token-trend").locator("figcaption").innerText();
    const match = /→ ([\d,]+)/.exec(caption);
    return match ? tokensOf(match[1]!) : null;
  };

  it("is the team's home; with no servers it says how to add or import them", async () => {
    await page.goto("/");
    const empty = page.getByTestId("overview-empty");
    await empty.waitFor({ timeout: 20_000 });
    expect(await empty.getByRole("link", { name: "Add a server" }).getAttribute("href")).toBe("/servers/new");
    expect(await empty.getByRole("link", { name: /import them/ }).getAttribute("href")).toBe("/servers/import");
    expect(await text(page, "overview-servers-total")).toBe("0");
    expect(await text(page, "overview-context-tokens")).toBe("—");
    expect(await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Overview" }).getAttribute("aria-current")).toBe("page");
  });

  it("counts the server, its tools and its first listing (which is not a change)", async () => {
    serverId = await addHttpServer(owner, "watched-mcp", fixture.url);
    await waitLive(page);
    // Added over the API while the page is open: the socket brings it in.
    await expect.poll(() => text(page, "overview-servers-total"), { timeout: 30_000 }).toBe("1");
    await expect.poll(() => text(page, "overview-tools-total"), { timeout: 30_000 }).toBe("2");
    await expect.poll(async () => (await page.getByTestId("overview-status-live").count()) + (await page.getByTestId("overview-status-polling").count()), { timeout: 30_000 }).toBe(1);
    expect(await text(page, "overview-changes-24h")).toBe("0");
    expect(await text(page, "overview-changes-7d")).toBe("0");
    expect(await page.getByTestId("overview-empty").count()).toBe(0);
    // The tokens card and the token chart's latest day agree (two reads: the overview's sum and
    // the budget report's trend).
    await expect.poll(() => text(page, "overview-context-tokens"), { timeout: 30_000 }).toMatch(/^[\d,]+$/);
    tokensBefore = tokensOf(await text(page, "overview-context-tokens"));
    expect(tokensBefore).toBeGreaterThan(0);
    await expect.poll(() => latestTrendTokens(page), { timeout: 30_000 }).toBe(tokensBefore);
  });

  it("moves the counts, the chart's table and the feed without a reload when the worker records a change", async () => {
    await page.evaluate(() => ((window as unknown as { __noReload: boolean }).__noReload = true));
    writeFixtureState(statePath(), { tools: [tool("alpha"), tool("beta"), tool("gamma")] });
    await expect.poll(() => text(page, "overview-changes-24h"), { timeout: 30_000 }).toBe("1");
    await expect.poll(() => text(page, "overview-tools-total"), { timeout: 30_000 }).toBe("3");
    expect(await text(page, "overview-changes-7d")).toBe("1");
    const change = page.getByTestId("feed-change").first();
    expect(await change.innerText()).toContain("watched-mcp");
    expect(await change.getByTestId("change-counts").getAttribute("aria-label")).toBe("1 added, 0 removed, 0 changed");
    // Today is the chart's last day: one change.
    await page.getByText("As a table").click();
    const today = page.getByTestId("activity-table").locator("tbody tr").last();
    expect(await today.getByRole("cell").first().innerText()).toBe("1");
    // Open alerts as the alerts API counts them (whatever the policy raised for the new tool).
    const openInApi = async () => String(((await ok(owner, "GET", `/api/v1/alerts?status=open&serverId=${serverId}&limit=100`)) as { items: unknown[] }).items.length);
    await expect.poll(async () => (await text(page, "overview-alerts-open")) === (await openInApi()), { timeout: 20_000 }).toBe(true);
    // A third tool costs tokens: the card and the chart's last point both rise, still without a reload.
    await expect.poll(async () => tokensOf(await text(page, "overview-context-tokens")), { timeout: 30_000 }).toBeGreaterThan(tokensBefore);
    const tokensAfter = tokensOf(await text(page, "overview-context-tokens"));
    await expect.poll(() => latestTrendTokens(page), { timeout: 30_000 }).toBe(tokensAfter);
    expect(await page.evaluate(() => (window as unknown as { __noReload?: boolean }).__noReload)).toBe(true);
    await page.screenshot({ path: screenshotPath("overview"), fullPage: true });
  });

  it("the fleet table shows the server's status strip with words for screen readers", async () => {
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Fleet" }).click();
    await page.waitForURL((url) => url.pathname === "/servers");
    const strip = page.getByTestId("server-row-watched-mcp").getByTestId("status-strip");
    await strip.waitFor({ timeout: 15_000 });
    // First connected minutes ago: the current hour (and the one before, just after a full hour) is
    // live or polling, the earlier hours have no record.
    expect(await strip.getAttribute("aria-label")).toMatch(/^Last 24 h: 2[23] h no record, .*1 h (live|polling)/);
    expect(await strip.locator(".bucket").count()).toBe(24);
    await page.screenshot({ path: screenshotPath("fleet-strips"), fullPage: true });
  });
});
