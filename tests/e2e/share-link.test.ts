import path from "node:path";
import type { BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startHttpFixture, writeFixtureState, type FixtureTool, type HttpFixture } from "@/tests/fixtures/spawn-fixture";
import { addHttpServer, call, createTeam, newBrowserContext, ok, signedUpContext, type Account } from "@/tests/helpers/e2e-accounts";
import { screenshotPath, startProduct, waitLive, type Product } from "@/tests/helpers/e2e-product";

// Issue 7's must-show, end to end: a share link opened in a private window (a browser context
// without cookies) shows the view — its server and tools, not the team's other server — updates
// live when the fixture's tool list changes, and switches to "gone" the moment the link is
// revoked, without a reload; a fresh load is gone too.

const tool = (name: string, description: string): FixtureTool => ({
  name,
  description,
  inputSchema: { type: "object", properties: { query: { type: "string", description: "What to look for." } }, required: ["query"] },
});
const SEARCH = tool("search_docs", "Search the public documentation.");
// Untrusted text: a zero-width space must show as a marker, and markup must stay text.
const FETCH = tool("fetch_page", "Fetch a page\u200b of the docs. <b>bold</b>");
const SUMMARIZE = tool("summarize_page", "Summarize one page of the docs.");
const PAYROLL = tool("payroll_export", "Export the payroll ledger.");
/** A new required parameter: a breaking change, which opens an alert. */
const withRequiredLang = (t: FixtureTool): FixtureTool => ({
  ...t,
  inputSchema: { type: "object", properties: { query: { type: "string" }, lang: { type: "string" } }, required: ["query", "lang"] },
});

const noReload = (page: Page) => page.evaluate(() => ((window as unknown as { __noReload: boolean }).__noReload = true));
const stillSamePage = (page: Page) => page.evaluate(() => (window as unknown as { __noReload?: boolean }).__noReload === true);

describe("share links in Chromium", () => {
  let product: Product;
  let shared: HttpFixture;
  let internal: HttpFixture;
  let memberContext: BrowserContext;
  let member: Account;
  let privateWindow: BrowserContext;
  let page: Page;
  let viewId: string;
  let link: { id: string; token: string; url: string; path: string };
  const requests: string[] = [];
  const sharedState = () => path.join(product.dir, "shared.json");
  const internalState = () => path.join(product.dir, "internal.json");
  const toolCount = async (id: string) => (await ok(member, "GET", `/api/v1/servers/${id}`)).server.toolCount as number | null;

  beforeAll(async () => {
    product = await startProduct();
    writeFixtureState(sharedState(), { tools: [SEARCH, FETCH] });
    writeFixtureState(internalState(), { tools: [PAYROLL] });
    shared = await startHttpFixture(sharedState());
    internal = await startHttpFixture(internalState());
    ({ context: memberContext, account: member } = await signedUpContext(product.browser, product.baseUrl, "sharer"));
    await createTeam(member, "share", "Share team");
    const sharedId = await addHttpServer(member, "docs-mcp", shared.url, { tags: ["public"] });
    const internalId = await addHttpServer(member, "payroll-mcp", internal.url, { tags: ["internal"] });
    const deadline = Date.now() + 30_000; // (expect.poll works only inside a test)
    while ((await toolCount(sharedId)) !== 2 || (await toolCount(internalId)) !== 1) {
      if (Date.now() > deadline) throw new Error("the worker did not list both fixtures within 30 s");
      await new Promise((r) => setTimeout(r, 250));
    }
    viewId = (await ok(member, "POST", "/api/v1/views", { name: "Public docs servers", filters: { servers: { tags: ["public"] } } })).id;
    const created = await ok(member, "POST", `/api/v1/views/${viewId}/share`, {});
    link = { ...created, path: new URL(created.url).pathname };
    expect(created.url).toBe(`${product.baseUrl}/share/${created.token}`);

    privateWindow = await newBrowserContext(product.browser, product.baseUrl);
    expect(await privateWindow.cookies()).toEqual([]);
    page = await privateWindow.newPage();
    page.on("request", (request) => void requests.push(request.url()));
  });
  afterAll(async () => {
    await privateWindow?.close();
    await memberContext?.close();
    await shared?.stop();
    await internal?.stop();
    await product?.stop();
  });

  it("a private window sees the view's server and its tools — not the team's other server — read-only and live", async () => {
    const response = await page.goto(link.path);
    expect(response?.status()).toBe(200);
    expect(response?.headers()["referrer-policy"]).toBe("no-referrer");
    expect(response?.headers()["x-robots-tag"]).toContain("noindex");
    const row = page.getByTestId("shared-server");
    await row.first().waitFor({ timeout: 15_000 });
    expect(new URL(page.url()).pathname).toBe(link.path); // no sign-in redirect
    expect(await page.getByRole("heading", { level: 1 }).innerText()).toBe("Public docs servers");
    expect(await row.count()).toBe(1);
    expect(await row.getAttribute("data-server-name")).toBe("docs-mcp");
    expect(await row.getByTestId("tool-count").innerText()).toBe("2");
    await waitLive(page);

    await row.getByTestId("tools-toggle").click();
    const tools = page.getByTestId("shared-tool");
    expect(await tools.evaluateAll((els) => els.map((e) => e.getAttribute("data-tool-name")))).toEqual(["search_docs", "fetch_page"]);
    const fetchTool = tools.filter({ hasText: "fetch_page" });
    expect(await fetchTool.locator("mark.hidden-char").innerText()).toContain("ZERO WIDTH SPACE");
    expect(await fetchTool.innerText()).toContain("<b>bold</b>");
    expect(await fetchTool.locator("b").count()).toBe(0);
    await fetchTool.getByText("Input schema").click();
    expect(await fetchTool.locator("pre.schema").innerText()).toContain('"required": [\n    "query"\n  ]');

    const text = await page.locator("body").innerText();
    for (const hidden of ["payroll-mcp", "payroll_export", "internal", shared.url, internal.url]) expect(text).not.toContain(hidden);
    // Read-only: the only buttons expand tool lists; no link leads into the team's pages.
    const buttons = await page.getByRole("button").allInnerTexts();
    expect(buttons.every((b) => /^(Show \d+ tools?|Hide tools)$/.test(b))).toBe(true);
    expect(await page.locator("main a, header a").count()).toBe(0);
    expect(await page.locator('meta[name="robots"]').getAttribute("content")).toContain("noindex");
    expect(await page.locator('meta[name="referrer"]').getAttribute("content")).toBe("no-referrer");
  });

  it("the fixture's new tool and its alert appear without a reload; live refetches are not counted as accesses", async () => {
    await noReload(page);
    // The other server's change (and its alert) comes first and must never show here.
    writeFixtureState(internalState(), { tools: [withRequiredLang(PAYROLL)] });
    writeFixtureState(sharedState(), { tools: [withRequiredLang(SEARCH), FETCH, SUMMARIZE] });
    const added = page.getByTestId("shared-tool").and(page.locator('[data-tool-name="summarize_page"]'));
    await added.waitFor({ timeout: 30_000 });
    expect(await page.getByTestId("shared-server").getByTestId("tool-count").innerText()).toBe("3");
    expect(await added.innerText()).toContain("Summarize one page of the docs.");
    expect(await stillSamePage(page)).toBe(true);
    // The breaking change to search_docs opens an alert for the shared server: live here too.
    const alert = page.getByTestId("shared-alert");
    await alert.first().waitFor({ timeout: 20_000 });
    expect(await alert.count()).toBe(1);
    expect(await alert.innerText()).toMatch(/docs-mcp[\s\S]*search_docs/);
    const teamAlerts = (await ok(member, "GET", "/api/v1/alerts?limit=50")).items as { toolName: string | null }[];
    expect(teamAlerts.map((a) => a.toolName).sort()).toEqual(["payroll_export", "search_docs"]);
    expect(await page.locator("body").innerText()).not.toContain("payroll");
    await page.screenshot({ path: screenshotPath("share-link-live"), fullPage: true });

    const [listing] = (await ok(member, "GET", `/api/v1/views/${viewId}/shares`)).items as { id: string; accessCount: number }[];
    expect(listing).toMatchObject({ id: link.id, accessCount: 1 });
    // The page talked to this site only: the token never went anywhere else.
    expect(requests.every((url) => new URL(url).origin === product.baseUrl)).toBe(true);
  });

  it("revoking the link switches the page to gone without a reload; a fresh load is gone too", async () => {
    expect((await call(member, "DELETE", `/api/v1/shares/${link.token}`)).status).toBe(204);
    await page.getByTestId("share-gone").waitFor({ timeout: 10_000 });
    expect(await stillSamePage(page)).toBe(true);
    expect(await page.getByTestId("share-gone").getByRole("alert").innerText()).toBe("This share link does not exist, has expired or was revoked.");
    expect(await page.getByTestId("shared-tool").count()).toBe(0);
    expect(await page.locator("body").innerText()).not.toContain("docs-mcp");
    await page.screenshot({ path: screenshotPath("share-link-revoked"), fullPage: true });

    const fresh = await privateWindow.newPage();
    // Issue 17: a revoked link answers HTTP 404, as an unknown one does, with the same words.
    expect((await fresh.goto(link.path))?.status()).toBe(404);
    await fresh.getByTestId("share-gone").waitFor({ timeout: 15_000 });
    expect((await fresh.goto(`/share/${"A".repeat(43)}`))?.status()).toBe(404);
    await fresh.getByTestId("share-gone").waitFor({ timeout: 15_000 });
    expect((await call({ request: privateWindow.request, baseUrl: product.baseUrl }, "GET", `/api/v1/share/${link.token}`)).status).toBe(404);
    await fresh.close();
  });
});
