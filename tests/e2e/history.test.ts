import path from "node:path";
import type { BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startHttpFixture, writeFixtureState, type FixtureTool, type HttpFixture } from "@/tests/fixtures/spawn-fixture";
import { addHttpServer, createTeam, ok, signedUpContext, type Account } from "@/tests/helpers/e2e-accounts";
import { describePagesOnFailure, screenshotPath, startProduct, waitLive, type Product } from "@/tests/helpers/e2e-product";

// The must-show, end to end: a fixture server whose tool gains a required input property
// produces one ERR at that property's JSON Pointer, in the API and live in the browser; a
// description-only change is INFO with word-level highlights; diffs are shareable by URL and the
// tool page lists every version.
const readFile = (over: Partial<FixtureTool> = {}, properties: Record<string, unknown> = {}, required: string[] = []): FixtureTool => ({
  name: "read_file",
  description: "Read a file from the workspace.",
  inputSchema: { type: "object", properties: { path: { type: "string" }, ...properties }, required: ["path", ...required] },
  ...over,
});
const listDir: FixtureTool = { name: "list_dir", description: "List a directory.", inputSchema: { type: "object", properties: { path: { type: "string" } } } };
// A name holding a space and a literal "%20": the tool page must neither miss nor double-decode it.
const ODD_NAME = "rate%20limit check";
const oddName: FixtureTool = { name: ODD_NAME, description: "Name with a space and a percent escape.", inputSchema: { type: "object" } };
const ENCODING = { encoding: { type: "string", enum: ["utf-8", "latin1"] } };
const V1 = [readFile(), listDir, oddName];
const V2 = [readFile({}, ENCODING, ["encoding"]), listDir, oddName];
const V3 = [readFile({ description: "Read a text file from the workspace." }, ENCODING, ["encoding"]), listDir, oddName];

const noReload = (page: Page) => page.evaluate(() => ((window as unknown as { __noReload: boolean }).__noReload = true));
const stillSamePage = (page: Page) => page.evaluate(() => (window as unknown as { __noReload?: boolean }).__noReload === true);

type Finding = { ruleId: string; level: string; pointer: string };
type ApiDiff = {
  from: { id: string } | null;
  to: { id: string };
  diff: { summary: { highest: string | null; levels: Record<string, number> }; changed: { name: string; findings: Finding[] }[]; added: { findings: Finding[] }[]; removed: { findings: Finding[] }[] };
};
const allFindings = (d: ApiDiff["diff"]) => [...d.changed, ...d.added, ...d.removed].flatMap((t) => t.findings);

describe("history and diffs in Chromium", () => {
  let product: Product;
  let fixture: HttpFixture;
  let context: BrowserContext;
  let account: Account;
  let page: Page;
  let serverId: string;
  let errDiffUrl: string;
  const statePath = () => path.join(product.dir, "history.json");
  describePagesOnFailure(() => context?.pages() ?? []);

  beforeAll(async () => {
    product = await startProduct();
    writeFixtureState(statePath(), { tools: V1 });
    fixture = await startHttpFixture(statePath());
    ({ context, account } = await signedUpContext(product.browser, product.baseUrl, "historian"));
    await createTeam(account, "history", "History team");
    serverId = await addHttpServer(account, "files-mcp", fixture.url);
    page = await context.newPage();
  });
  afterAll(async () => {
    await context?.close();
    await fixture?.stop();
    await product?.stop();
  });

  it("shows the first snapshot as the initial one, every tool added", async () => {
    await page.goto(`/servers/${serverId}`);
    const items = page.getByTestId("timeline-item");
    await expect.poll(() => items.count(), { timeout: 30_000 }).toBe(1);
    await expect.poll(() => items.first().getByTestId("timeline-diff-link").innerText()).toBe("initial");
    await items.first().getByTestId("timeline-diff-link").click();
    await page.waitForURL(/\/diff\?to=[0-9a-f-]+$/);
    const added = page.locator('[data-testid="diff-tool"][data-kind="added"]');
    await expect.poll(() => added.count(), { timeout: 15_000 }).toBe(3);
    expect(await page.getByTestId("diff-summary").innerText()).toContain("every tool is new");
    await page.screenshot({ path: screenshotPath("history-diff-initial"), fullPage: true });
    await page.goBack();
    await page.getByTestId("timeline-item").first().waitFor();
    await waitLive(page);
  });

  it("a new required input property shows as ERR on the timeline without a reload", async () => {
    await noReload(page);
    writeFixtureState(statePath(), { tools: V2 });
    const items = page.getByTestId("timeline-item");
    await expect.poll(() => items.count(), { timeout: 20_000 }).toBe(2);
    const newest = items.first();
    await expect.poll(() => newest.getByTestId("level-badge").innerText(), { timeout: 10_000 }).toBe("ERR");
    expect(await newest.getByTestId("change-counts").innerText()).toMatch(/\+0\s+−0\s+~1/);
    expect(await newest.innerText()).toMatch(/notified|silent/);
    expect(await stillSamePage(page)).toBe(true);
    await page.getByRole("heading", { name: "Snapshot timeline" }).scrollIntoViewIfNeeded();
    await page.screenshot({ path: screenshotPath("history-timeline"), fullPage: true });
  });

  it("the timeline's diff link shows the ERR finding with its rule and JSON Pointer", async () => {
    await page.getByTestId("timeline-item").first().getByTestId("timeline-diff-link").click();
    await page.waitForURL(/\/diff\?from=[0-9a-f-]+&to=[0-9a-f-]+$/);
    errDiffUrl = page.url();
    const finding = page.getByTestId("finding").filter({ hasText: "new-required-request-property" });
    await finding.waitFor({ timeout: 15_000 });
    expect(await finding.getAttribute("data-level")).toBe("ERR");
    expect(await finding.getByTestId("level-badge").innerText()).toBe("ERR");
    expect(await finding.getByTestId("finding-pointer").innerText()).toBe("/inputSchema/properties/encoding");
    expect(await page.getByTestId("diff-summary").getAttribute("data-highest")).toBe("ERR");
    const tool = page.getByTestId("diff-tool").filter({ has: page.getByRole("link", { name: "read_file" }) });
    expect(await tool.getAttribute("data-level")).toBe("ERR");
    // Side by side: the new property appears on the right, nothing on the left.
    expect(await tool.getByTestId("field-pointer").allInnerTexts()).toContain("/inputSchema/properties/encoding");
    await page.screenshot({ path: screenshotPath("history-diff-err"), fullPage: true });
  });

  it("the API's diff has exactly one ERR, at that pointer", async () => {
    const body = (await ok(account, "GET", `/api/v1/servers/${serverId}/diff`)) as ApiDiff;
    expect(body.from).not.toBeNull();
    expect(body.diff.summary.highest).toBe("ERR");
    expect(body.diff.summary.levels.ERR).toBe(1);
    const errs = allFindings(body.diff).filter((f) => f.level === "ERR");
    expect(errs).toEqual([expect.objectContaining({ ruleId: "new-required-request-property", pointer: "/inputSchema/properties/encoding" })]);
    // The page's explicit range is the same diff.
    const [, query] = errDiffUrl.split("?");
    const explicit = (await ok(account, "GET", `/api/v1/servers/${serverId}/diff?${query}`)) as ApiDiff;
    expect(explicit.diff.summary).toEqual(body.diff.summary);
  });

  it("a description-only change is INFO with word highlights, live on the latest diff page", async () => {
    await page.goto(`/servers/${serverId}/diff`);
    await page.getByTestId("diff-summary").and(page.locator('[data-highest="ERR"]')).waitFor({ timeout: 15_000 });
    await noReload(page);
    writeFixtureState(statePath(), { tools: V3 });
    const summary = page.getByTestId("diff-summary");
    await expect.poll(() => summary.getAttribute("data-highest"), { timeout: 20_000 }).toBe("INFO");
    const finding = page.getByTestId("finding").filter({ hasText: "tool-description-changed" });
    expect(await finding.getByTestId("level-badge").innerText()).toBe("INFO");
    expect(await finding.getByTestId("finding-pointer").innerText()).toBe("/description");
    const inserted = page.locator("ins.word-ins");
    expect((await inserted.allInnerTexts()).join("|")).toContain("text");
    expect(await page.locator("del.word-del").count()).toBe(0);
    expect(await page.getByTestId("finding").filter({ hasText: "ERR" }).count()).toBe(0);
    expect(await stillSamePage(page)).toBe(true);
    await page.screenshot({ path: screenshotPath("history-diff-words"), fullPage: true });
  });

  it("a diff URL opened in a fresh page shows the same diff, and the pickers rewrite the URL", async () => {
    const fresh = await context.newPage();
    await fresh.goto(errDiffUrl);
    const finding = fresh.getByTestId("finding").filter({ hasText: "new-required-request-property" });
    await finding.waitFor({ timeout: 15_000 });
    expect(await finding.getByTestId("finding-pointer").innerText()).toBe("/inputSchema/properties/encoding");
    expect(await fresh.getByTestId("diff-summary").getAttribute("data-highest")).toBe("ERR");
    // Widen the range to the very first snapshot → latest: both changes at once.
    const firstSnapshot = await fresh.locator("#diff-from option").last().getAttribute("value");
    await fresh.selectOption("#diff-to", "");
    await fresh.waitForURL((url) => !url.searchParams.has("to"));
    await fresh.selectOption("#diff-from", firstSnapshot!);
    await fresh.waitForURL((url) => url.searchParams.get("from") === firstSnapshot && !url.searchParams.has("to"));
    await fresh.getByTestId("finding").filter({ hasText: "tool-description-changed" }).waitFor({ timeout: 15_000 });
    expect(await fresh.getByTestId("finding").filter({ hasText: "new-required-request-property" }).count()).toBe(1);
    await fresh.close();
  });

  it("the tool page, reached from the server's tool list, lists all three versions", async () => {
    await page.goto(`/servers/${serverId}`);
    // Click only once the page is hydrated (live comes after): a click on a Next.js link while React
    // hydrates can be lost, and waitForURL then times out (seen once in npm test, 2026-12-06).
    await waitLive(page);
    await page.getByRole("link", { name: "read_file", exact: true }).click();
    await page.waitForURL(new RegExp(`/servers/${serverId}/tools/read_file$`));
    const versions = page.getByTestId("tool-version");
    await expect.poll(() => versions.count(), { timeout: 15_000 }).toBe(3);
    expect(await page.getByTestId("version-count").innerText()).toMatch(/^3 versions/);
    // Newest first: v3 (description, INFO) is current, v2 brought the ERR, v1 was the first.
    expect(await versions.nth(0).getAttribute("data-status")).toBe("current");
    expect(await versions.nth(0).getByTestId("finding-rule").allInnerTexts()).toEqual(["tool-description-changed"]);
    expect(await versions.nth(0).locator("ins.word-ins").first().innerText()).toContain("text");
    expect(await versions.nth(1).getByTestId("finding-pointer").allInnerTexts()).toContain("/inputSchema/properties/encoding");
    expect(await versions.nth(2).innerText()).toContain("The first version");
    await page.screenshot({ path: screenshotPath("history-tool"), fullPage: true });
    // Where v2 appeared: the diff with the ERR.
    await versions.nth(1).getByRole("link", { name: /diff where it appeared/ }).click();
    await page.getByTestId("finding").filter({ hasText: "new-required-request-property" }).waitFor({ timeout: 15_000 });
  });

  it("a tool name with a space and a literal %20 round-trips through its page URL", async () => {
    await page.goto(`/servers/${serverId}`);
    await page.getByRole("link", { name: ODD_NAME, exact: true }).click();
    await page.getByTestId("tool-version").first().waitFor({ timeout: 15_000 });
    expect(await page.getByRole("heading", { level: 1 }).innerText()).toContain(ODD_NAME);
    expect(await page.getByTestId("tool-version").count()).toBe(1);
    // The same URL loaded from scratch (server-rendered params, not a client navigation).
    await page.reload();
    await page.getByTestId("tool-version").first().waitFor({ timeout: 15_000 });
    expect(await page.getByRole("heading", { level: 1 }).innerText()).toContain(ODD_NAME);
  });

  it("unknown or foreign ids say “not found”; a server without snapshots says so", async () => {
    await page.goto(`/servers/${serverId}/diff?from=not-a-snapshot`);
    await page.getByRole("alert").filter({ hasText: /not found/i }).waitFor({ timeout: 15_000 });
    await page.goto(`/servers/00000000-0000-4000-8000-000000000000/diff`);
    await page.getByRole("alert").filter({ hasText: "Server not found in this team." }).waitFor({ timeout: 15_000 });
    await page.goto(`/servers/${serverId}/tools/never_offered`);
    await page.getByRole("alert").filter({ hasText: /not found/i }).waitFor({ timeout: 15_000 });
    // Nothing listens on port 9: this server never gets a snapshot.
    const silentId = await addHttpServer(account, "unreachable-mcp", "http://127.0.0.1:9/mcp");
    await page.goto(`/servers/${silentId}/diff`);
    await page.getByTestId("no-snapshots").waitFor({ timeout: 15_000 });
  });

  // The race behind a CI failure: the page read the server before its first snapshot, and the
  // snapshot's event went out before the socket was in the team's room. The socket is held off
  // (its requests aborted) until the snapshot exists, so the event is certainly missed; the page
  // must still catch up once the server says the rooms are joined (toolwatch:ready).
  it("a page whose socket joins after the first snapshot still shows it, and its diff", async () => {
    const late = await context.newPage();
    await late.route("**/socket.io/**", (route) => route.abort());
    const lateId = await addHttpServer(account, "late-joiner", fixture.url, { enabled: false });
    await late.goto(`/servers/${lateId}`);
    await expect.poll(() => late.getByTestId("server-tool-count").innerText(), { timeout: 15_000 }).toBe("—");
    expect(await late.getByTestId("live-indicator").innerText()).toBe("offline");
    await ok(account, "PATCH", `/api/v1/servers/${lateId}`, { enabled: true });
    await expect
      .poll(async () => ((await ok(account, "GET", `/api/v1/servers/${lateId}/snapshots`)) as { items: unknown[] }).items.length, { timeout: 30_000 })
      .toBe(1);
    expect(await late.getByTestId("server-tool-count").innerText()).toBe("—"); // nothing told the page yet
    await late.unroute("**/socket.io/**");
    await waitLive(late, 20_000);
    await expect.poll(() => late.getByTestId("server-tool-count").innerText(), { timeout: 10_000 }).toBe("3");
    await late.getByTestId("timeline-item").first().getByTestId("timeline-diff-link").click();
    await expect.poll(() => late.locator('[data-testid="diff-tool"][data-kind="added"]').count(), { timeout: 15_000 }).toBe(3);
    await late.close();
  });
});
