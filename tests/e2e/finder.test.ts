import AxeBuilder from "@axe-core/playwright";
import path from "node:path";
import type { BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startHttpFixture, writeFixtureState, type FixtureTool, type HttpFixture } from "@/tests/fixtures/spawn-fixture";
import { addHttpServer, createTeam, ok, signedUpContext, type Account } from "@/tests/helpers/e2e-accounts";
import { screenshotPath, startProduct, waitLive, type Product } from "@/tests/helpers/e2e-product";

// Issue 17 in Chromium: the Ctrl-K palette, a toast when an alert opens, a refetch of everything
// after the socket reconnects, the theme toggle that survives a reload, and axe on the collisions
// page in both themes.

const tool = (name: string, description: string): FixtureTool => ({ name, description, inputSchema: { type: "object", properties: { to: { type: "string" } } } });
const SEND = tool("send_email", "Send an email to a recipient.");
const INBOX = tool("list_inbox", "List the messages of the inbox.");

async function waitUntil(condition: () => Promise<boolean>, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

describe("search palette, toasts, reconnect and themes in Chromium", () => {
  let product: Product;
  let prod: HttpFixture;
  let backup: HttpFixture;
  let context: BrowserContext;
  let admin: Account;
  let page: Page;
  let backupId: string;
  const state = (name: string) => path.join(product.dir, `${name}.json`);

  beforeAll(async () => {
    product = await startProduct();
    writeFixtureState(state("prod"), { tools: [SEND, INBOX] });
    writeFixtureState(state("backup"), { tools: [SEND] });
    [prod, backup] = await Promise.all([startHttpFixture(state("prod")), startHttpFixture(state("backup"))]);
    ({ context, account: admin } = await signedUpContext(product.browser, product.baseUrl, "finder"));
    await createTeam(admin, "finder", "Finder team");
    const prodId = await addHttpServer(admin, "mail-prod", prod.url);
    // mail-prod lists first, so it is first in every collision list (the order servers started to offer a name).
    await waitUntil(async () => (await ok(admin, "GET", `/api/v1/servers/${prodId}`)).server.toolCount === 2, 30_000);
    backupId = await addHttpServer(admin, "mail-backup", backup.url);
    await waitUntil(async () => (await ok(admin, "GET", "/api/v1/collisions")).items.length === 1, 30_000);
    page = await context.newPage();
  });
  afterAll(async () => {
    await context?.close();
    await Promise.all([prod?.stop(), backup?.stop()]);
    await product?.stop();
  });

  it("Ctrl-K opens the palette from any page; typing, arrows and Enter go to the result; Esc closes it", async () => {
    await page.goto("/alerts");
    await waitLive(page);
    await page.keyboard.press("Control+k");
    const dialog = page.getByRole("dialog", { name: "Search" });
    await dialog.waitFor();
    const box = dialog.getByRole("combobox", { name: "Search servers, tools and alerts" });
    expect(await box.evaluate((el) => el === document.activeElement)).toBe(true);
    await page.keyboard.press("Escape");
    await dialog.waitFor({ state: "hidden" });

    await page.keyboard.press("Control+k");
    await box.fill("mail-");
    const options = dialog.getByRole("option");
    await expect.poll(() => options.allInnerTexts(), { timeout: 10_000 }).toEqual(expect.arrayContaining([expect.stringContaining("mail-backup"), expect.stringContaining("mail-prod")]));
    // Servers come sorted by name: mail-backup first; the first option is active.
    expect(await options.first().getAttribute("aria-selected")).toBe("true");
    await page.keyboard.press("ArrowDown");
    expect(await options.nth(1).getAttribute("aria-selected")).toBe("true");
    expect(await box.getAttribute("aria-activedescendant")).toBe(await options.nth(1).getAttribute("id"));
    await page.keyboard.press("ArrowUp");
    await page.screenshot({ path: screenshotPath("search-palette") });
    await page.keyboard.press("Enter");
    await page.waitForURL(`**/servers/${backupId}`);
    await dialog.waitFor({ state: "hidden" });

    // A tool by its description.
    await page.keyboard.press("Control+k");
    await box.fill("messages of the inbox");
    await dialog.getByRole("option").filter({ hasText: "list_inbox" }).waitFor({ timeout: 10_000 });
    await page.keyboard.press("Enter");
    await page.waitForURL(/\/servers\/[^/]+\/tools\/list_inbox$/);
  });

  it("the collisions page lists send_email with the hosts' qualified names and links its alert", async () => {
    await page.goto("/collisions");
    const card = page.getByTestId("collision").filter({ hasText: "send_email" });
    await card.waitFor({ timeout: 15_000 });
    expect(await card.innerText()).toContain("mcp__mail-prod__send_email");
    expect(await card.innerText()).toContain("mcp_mail-backup_send_email");
    expect(await card.getByTestId("collision-alert").innerText()).toBe('"send_email" is offered by 2 servers: mail-prod, mail-backup');
    await page.getByRole("link", { name: "Collisions" }).waitFor();
    expect(await page.getByRole("link", { name: "Collisions" }).getAttribute("aria-current")).toBe("page");
  });

  it("a new alert shows one toast linking to it, while the page stays", async () => {
    await page.goto("/");
    await waitLive(page);
    // list_inbox now on both servers: a name_collision alert opens.
    writeFixtureState(state("backup"), { tools: [SEND, INBOX] });
    const toast = page.getByTestId("alert-toast");
    await toast.waitFor({ timeout: 30_000 });
    expect(await toast.innerText()).toContain('"list_inbox" is offered by 2 servers');
    expect(await page.locator(".toast-stack").getAttribute("aria-live")).toBe("polite");
    expect(await toast.count()).toBe(1);
    await page.screenshot({ path: screenshotPath("alert-toast") });
    await toast.getByRole("link").click();
    await page.waitForURL(/\/alerts\/[0-9a-f-]{36}$/);
  });

  it("after the socket reconnects, what changed meanwhile (with no event) is on screen without a reload", async () => {
    await page.goto("/collisions");
    await page.getByTestId("collision").filter({ hasText: "list_inbox" }).waitFor({ timeout: 15_000 });
    await waitLive(page);
    await page.evaluate(() => ((window as unknown as { __noReload: boolean }).__noReload = true));
    const cdp = await context.newCDPSession(page);
    await cdp.send("Network.enable");
    await cdp.send("Network.emulateNetworkConditions", { offline: true, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });
    await page.getByTestId("live-indicator").filter({ hasText: "offline" }).waitFor({ timeout: 60_000 });
    // A rename written straight to the database sends no event: only a refetch can show it.
    await product.db.mcpServer.update({ where: { id: backupId }, data: { name: "mail-standby" } });
    await cdp.send("Network.emulateNetworkConditions", { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });
    await waitLive(page, 60_000);
    await page.getByTestId("collision").filter({ hasText: "mcp__mail-standby__list_inbox" }).first().waitFor({ timeout: 15_000 });
    expect(await page.evaluate(() => (window as unknown as { __noReload?: boolean }).__noReload)).toBe(true);
  });

  it("the theme toggle switches to dark, survives a reload with no flash, and axe finds no serious contrast problem in either theme", async () => {
    await page.goto("/collisions");
    await page.getByTestId("collision").first().waitFor({ timeout: 15_000 });
    const axe = async () => (await new AxeBuilder({ page }).analyze()).violations.filter((v) => v.impact === "serious" || v.impact === "critical").map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).slice(0, 5).join(", ")}`);
    expect(await axe()).toEqual([]);
    await page.screenshot({ path: screenshotPath("collisions-light"), fullPage: true });
    await page.emulateMedia({ colorScheme: "light" });

    await page.getByTestId("theme-toggle").selectOption("dark");
    expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe("dark");
    const bg = () => page.evaluate(() => getComputedStyle(document.documentElement).backgroundColor);
    const darkBg = "rgb(15, 20, 28)";
    const lightBg = "rgb(247, 248, 250)";
    expect(await bg()).toBe(darkBg);
    // The first byte of the reloaded page already says dark (server-rendered from the cookie).
    const html = await (await page.request.get("/collisions")).text();
    expect(html).toMatch(/<html[^>]*data-theme="dark"/);
    await page.reload();
    await page.getByTestId("collision").first().waitFor({ timeout: 15_000 });
    expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe("dark");
    expect(await page.getByTestId("theme-toggle").inputValue()).toBe("dark");
    expect(await bg()).toBe(darkBg);
    expect(await axe()).toEqual([]);
    await page.screenshot({ path: screenshotPath("collisions-dark"), fullPage: true });
    await page.keyboard.press("Control+k");
    await page.getByRole("combobox", { name: "Search servers, tools and alerts" }).fill("mail");
    await page.getByTestId("palette-option").first().waitFor({ timeout: 10_000 });
    expect(await axe()).toEqual([]);
    await page.screenshot({ path: screenshotPath("search-palette-dark") });
    await page.keyboard.press("Escape");

    // System follows prefers-color-scheme.
    await page.getByTestId("theme-toggle").selectOption("system");
    await page.emulateMedia({ colorScheme: "light" });
    expect(await bg()).toBe(lightBg);
    await page.emulateMedia({ colorScheme: "dark" });
    expect(await bg()).toBe(darkBg);
  });
});
