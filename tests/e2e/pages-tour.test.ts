import fs from "node:fs";
import path from "node:path";
import AxeBuilder from "@axe-core/playwright";
import type { BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEMO_TENANT_SLUG } from "@/lib/tenants/ensure-tenant";
import { newBrowserContext, ok, signedUpContext } from "@/tests/helpers/e2e-accounts";
import { screenshotPath, startProduct, type Product } from "@/tests/helpers/e2e-product";

// Every page of the product, as a team admin of the demo fleet meets it, in real Chromium:
// axe-core finds no serious or critical accessibility violation on any page, in the light and the
// dark theme; and the README's screenshots are taken here, from the real app with the demo fleet
// (TOOLWATCH_UPDATE_SCREENSHOTS=1 writes them to docs/screenshots/; otherwise to .scratch/screens/).
const UPDATE_SCREENSHOTS = process.env.TOOLWATCH_UPDATE_SCREENSHOTS === "1";
const DOCS_SCREENSHOTS = path.resolve(import.meta.dirname, "../../docs/screenshots");

type Violation = { id: string; impact?: string | null; help: string; nodes: { target: unknown[] }[] };

/** Serious and critical violations on the page as it is now, described well enough to fix. */
async function seriousViolations(page: Page): Promise<string[]> {
  const result = await new AxeBuilder({ page }).analyze();
  return (result.violations as Violation[])
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => `${v.impact} ${v.id}: ${v.help} — ${v.nodes.slice(0, 3).map((n) => JSON.stringify(n.target)).join(", ")}`);
}

async function shoot(page: Page, name: string, theme: "light" | "dark"): Promise<void> {
  const file = UPDATE_SCREENSHOTS && theme === "light" ? path.join(DOCS_SCREENSHOTS, `${name}.png`) : screenshotPath(`tour-${name}`);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  await page.screenshot({ path: file, fullPage: false });
}

describe("every page: accessibility and screenshots", () => {
  let product: Product;
  let context: BrowserContext;
  let page: Page;
  const ids: { releaseTrain?: string; catalog?: string; alert?: string; share?: string; view?: string; tool?: string } = {};

  beforeAll(async () => {
    product = await startProduct({ TOOLWATCH_DEMO: "1", TOOLWATCH_DEMO_CHANGE_MS: "3000" });
    ({ context } = await signedUpContext(product.browser, product.baseUrl, "tourist"));
    const me = (await (await context.request.get(`${product.baseUrl}/api/auth/get-session`)).json()) as { user: { id: string } };
    const demo = await product.db.tenant.findUniqueOrThrow({ where: { slug: DEMO_TENANT_SLUG } });
    await product.db.member.upsert({
      where: { tenantId_userId: { tenantId: demo.id, userId: me.user.id } },
      create: { tenantId: demo.id, userId: me.user.id, role: "admin" },
      update: { role: "admin" },
    });
    const api = { request: context.request, baseUrl: product.baseUrl };
    await ok(api, "POST", "/api/v1/teams/active", { teamId: demo.id });
    // Wait for the demo fleet to have history: Release Train changes every 3 s.
    for (let i = 0; i < 120; i++) {
      const servers = await product.db.mcpServer.findMany({ where: { tenantId: demo.id }, include: { _count: { select: { snapshots: true } } } });
      const train = servers.find((s) => s.name.startsWith("Release Train"));
      if (servers.length >= 3 && servers.every((s) => s._count.snapshots > 0) && train && train._count.snapshots >= 3) break;
      await new Promise((r) => setTimeout(r, 1000));
    }
    const servers = await product.db.mcpServer.findMany({ where: { tenantId: demo.id } });
    ids.releaseTrain = servers.find((s) => s.name.startsWith("Release Train"))!.id;
    ids.catalog = servers.find((s) => s.name.startsWith("Acme"))!.id;
    const tool = await product.db.toolNameEntry.findFirst({ where: { serverId: ids.catalog } });
    ids.tool = tool?.name;
    ids.alert = (await product.db.alert.findFirst({ where: { tenantId: demo.id }, orderBy: { createdAt: "desc" } }))?.id;
    ids.view = (await ok(api, "POST", "/api/v1/views", { name: "Demo servers" })).id;
    ids.share = (await ok(api, "POST", `/api/v1/views/${ids.view}/share`, {})).token;
    page = await context.newPage();
    await page.setViewportSize({ width: 1360, height: 900 });
  }, 240_000);

  afterAll(async () => {
    await context?.close();
    await product?.stop();
  });

  // Every page in the light theme; the dark theme on the pages that carry the most colour (badges,
  // charts, diffs, strips), to keep the tier's time in bounds.
  const pages: { name: string; path: () => string; screenshot?: string; dark?: true }[] = [
    { name: "overview", path: () => "/", screenshot: "overview", dark: true },
    { name: "fleet", path: () => "/servers", screenshot: "fleet", dark: true },
    { name: "server", path: () => `/servers/${ids.releaseTrain}`, screenshot: "server", dark: true },
    { name: "diff", path: () => `/servers/${ids.releaseTrain}/diff`, dark: true },
    { name: "tool", path: () => `/servers/${ids.catalog}/tools/${encodeURIComponent(ids.tool ?? "")}` },
    { name: "server edit", path: () => `/servers/${ids.catalog}/edit` },
    { name: "new server", path: () => "/servers/new" },
    { name: "import", path: () => "/servers/import" },
    { name: "alerts", path: () => "/alerts", dark: true },
    { name: "alert", path: () => `/alerts/${ids.alert}`, screenshot: "alert", dark: true },
    { name: "collisions", path: () => "/collisions", screenshot: "collisions", dark: true },
    { name: "team", path: () => "/team", dark: true },
    { name: "keys", path: () => "/team/keys" },
    { name: "webhooks", path: () => "/team/webhooks" },
    { name: "audit log", path: () => "/team/audit" },
    { name: "cache", path: () => "/team/cache" },
    { name: "budget", path: () => "/team/budget", screenshot: "budget", dark: true },
    { name: "views", path: () => "/views" },
    { name: "view", path: () => `/views/${ids.view}` },
    { name: "account", path: () => "/account" },
    { name: "admin quotas", path: () => "/admin/quotas" },
    { name: "share", path: () => `/share/${ids.share}`, dark: true },
    { name: "rules", path: () => "/rules", dark: true },
    { name: "rule", path: () => "/rules/R35", dark: true },
  ];

  // One load per page: the theme follows prefers-color-scheme (no cookie set), so switching the
  // emulated scheme restyles the loaded page and axe checks it again without a second navigation.
  for (const entry of pages) {
    it(`${entry.name}: no serious or critical axe violation (light${entry.dark ? " and dark" : ""} theme)`, async () => {
      await page.emulateMedia({ colorScheme: "light" });
      const response = await page.goto(product.baseUrl + entry.path(), { waitUntil: "load" });
      expect(response?.status(), `HTTP status of ${entry.path()}`).toBeLessThan(400);
      // Settle: the page's queries answer (the socket keeps a connection open, so "networkidle"
      // is a best effort).
      await page.waitForLoadState("networkidle", { timeout: 10_000 }).catch(() => undefined);
      await expect(page.locator("main").first().isVisible()).resolves.toBe(true);
      const found = (await seriousViolations(page)).map((v) => `light: ${v}`);
      if (entry.screenshot) await shoot(page, entry.screenshot, "light");
      if (entry.dark) {
        const background = () => page.evaluate(() => `${getComputedStyle(document.documentElement).backgroundColor} ${getComputedStyle(document.body).color}`);
        const lightBackground = await background();
        await page.emulateMedia({ colorScheme: "dark" });
        // The page really is dark now (axe would otherwise check the light colours twice).
        await expect.poll(background).not.toBe(lightBackground);
        found.push(...(await seriousViolations(page)).map((v) => `dark: ${v}`));
        if (entry.screenshot) await shoot(page, `${entry.screenshot}-dark`, "dark");
      }
      expect(found).toEqual([]);
    });
  }

  it("has no serious or critical axe violation on the sign-in and sign-up pages", async () => {
    const anonymous = await newBrowserContext(product.browser, product.baseUrl);
    const signedOut = await anonymous.newPage();
    const found: string[] = [];
    for (const url of ["/login", "/login?mode=signup"]) {
      await signedOut.goto(product.baseUrl + url, { waitUntil: "load" });
      for (const v of await seriousViolations(signedOut)) found.push(`${url}: ${v}`);
    }
    await anonymous.close();
    expect(found).toEqual([]);
  });
});
