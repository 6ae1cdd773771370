import path from "node:path";
import type { BrowserContext, ConsoleMessage, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startHttpFixture, writeFixtureState, type FixtureTool, type HttpFixture } from "@/tests/fixtures/spawn-fixture";
import { addHttpServer, createTeam, invite, newBrowserContext, ok, signedUpContext, uniqueEmail, type Account } from "@/tests/helpers/e2e-accounts";
import { startProduct, waitLive, type Product } from "@/tests/helpers/e2e-product";

// Issue 13's must-show, in a real Chromium against the production build: every page carries a
// nonce-based CSP (script-src with a fresh nonce and 'strict-dynamic', frame-ancestors 'none')
// and the other security headers, and the main pages (login, fleet, server, alert, account,
// invitation, share) run under it with no CSP violation and a live socket.

const tool = (name: string, required: string[] = ["query"]): FixtureTool => ({
  name,
  description: `${name} things.`,
  inputSchema: { type: "object", properties: { query: { type: "string" }, lang: { type: "string" } }, required },
});

describe("security headers and the CSP in Chromium", () => {
  let product: Product;
  let fixture: HttpFixture;
  let context: BrowserContext;
  let owner: Account;
  let serverId: string;
  let alertId: string;
  let shareToken: string;
  let invitationId: string;
  const violations: string[] = [];
  const statePath = () => path.join(product.dir, "csp.json");

  const watch = (page: Page) => {
    page.on("console", (message: ConsoleMessage) => {
      if (/Content Security Policy|Refused to (execute|load|apply|connect|frame)/i.test(message.text())) violations.push(`${page.url()}: ${message.text()}`);
    });
    page.on("pageerror", (error) => violations.push(`${page.url()}: page error ${error.message}`));
    return page;
  };

  beforeAll(async () => {
    product = await startProduct();
    writeFixtureState(statePath(), { tools: [tool("search_docs")] });
    fixture = await startHttpFixture(statePath());
    ({ context, account: owner } = await signedUpContext(product.browser, product.baseUrl, "csp"));
    await createTeam(owner, "csp", "CSP team");
    serverId = await addHttpServer(owner, "csp-docs", fixture.url);
    const deadline = Date.now() + 30_000;
    while ((await ok(owner, "GET", `/api/v1/servers/${serverId}`)).server.toolCount !== 1) {
      if (Date.now() > deadline) throw new Error("the worker did not list the fixture within 30 s");
      await new Promise((r) => setTimeout(r, 250));
    }
    // A new required parameter is a breaking change: it opens an alert to look at.
    writeFixtureState(statePath(), { tools: [tool("search_docs", ["query", "lang"])] });
    while (!alertId) {
      if (Date.now() > deadline + 30_000) throw new Error("no alert within 60 s");
      alertId = (await ok(owner, "GET", "/api/v1/alerts?limit=10")).items[0]?.id;
      if (!alertId) await new Promise((r) => setTimeout(r, 250));
    }
    const viewId = (await ok(owner, "POST", "/api/v1/views", { name: "CSP view" })).id;
    shareToken = (await ok(owner, "POST", `/api/v1/views/${viewId}/share`, {})).token;
    invitationId = (await invite(owner, uniqueEmail("csp-invitee"), "viewer")).id;
  }, 180_000);
  afterAll(async () => {
    await context?.close();
    await fixture?.stop();
    await product?.stop();
  });

  it("a page response carries the CSP with a fresh nonce, and the static security headers", async () => {
    const first = await fetch(`${product.baseUrl}/login`);
    const second = await fetch(`${product.baseUrl}/login`);
    const csp = first.headers.get("content-security-policy") ?? "";
    expect(csp).toMatch(/script-src 'self' 'nonce-[A-Za-z0-9+/]{22}==' 'strict-dynamic'/);
    for (const directive of ["frame-ancestors 'none'", "object-src 'none'", "base-uri 'none'", "default-src 'self'"]) expect(csp).toContain(directive);
    expect(csp).not.toContain("unsafe-inline");
    expect(csp).not.toContain("unsafe-eval");
    expect(second.headers.get("content-security-policy")).not.toBe(csp);
    const nonce = /'nonce-([^']+)'/.exec(csp)![1]!;
    expect(await first.text()).toContain(`nonce="${nonce}"`);
    expect(first.headers.get("x-content-type-options")).toBe("nosniff");
    expect(first.headers.get("x-frame-options")).toBe("DENY");
    expect(first.headers.get("referrer-policy")).toBe("same-origin");
    expect(first.headers.get("strict-transport-security")).toBeNull(); // plain http here
  });

  it("HSTS is not granted by a made-up X-Forwarded-Proto (no trusted proxy configured)", async () => {
    const res = await fetch(`${product.baseUrl}/login`, { headers: { "x-forwarded-proto": "https" } });
    expect(res.headers.get("strict-transport-security")).toBeNull();
    expect(res.headers.get("content-security-policy")).not.toContain("upgrade-insecure-requests");
  });

  it("share and invitation pages send no Referer anywhere; API answers carry a CSP that runs nothing", async () => {
    for (const p of [`/share/${shareToken}`, `/invite/${invitationId}`]) expect((await fetch(`${product.baseUrl}${p}`)).headers.get("referrer-policy")).toBe("no-referrer");
    const api = await fetch(`${product.baseUrl}/api/health`);
    expect(api.headers.get("content-security-policy")).toBe("default-src 'none'; frame-ancestors 'none'");
    expect(api.headers.get("x-content-type-options")).toBe("nosniff");
  });

  it("the signed-in pages run under the CSP without a single violation, with a live socket", async () => {
    const page = watch(await context.newPage());
    await page.goto("/servers");
    await page.getByTestId("server-row-csp-docs").waitFor({ timeout: 15_000 });
    await page.getByTestId("status-strip").first().waitFor();
    await page.goto("/");
    await page.getByTestId("overview-servers-total").waitFor({ timeout: 15_000 });
    await page.locator(".activity-chart .recharts-surface").first().waitFor({ timeout: 15_000 });
    await waitLive(page);
    await page.goto(`/servers/${serverId}`);
    await page.getByRole("heading", { name: "csp-docs" }).waitFor({ timeout: 15_000 });
    await page.goto(`/alerts/${alertId}`);
    await page.getByTestId("alert-head").waitFor({ timeout: 15_000 });
    await page.goto("/account");
    await page.getByRole("button", { name: "Sign out everywhere" }).waitFor({ timeout: 15_000 });
    await page.goto("/alerts");
    await page.getByTestId("alert-row").first().waitFor({ timeout: 15_000 });
    await page.waitForTimeout(500);
    expect(violations).toEqual([]);
    await page.close();
  });

  it("the anonymous pages (login, invitation, share) run under the CSP without a violation", async () => {
    const anonymous = await newBrowserContext(product.browser, product.baseUrl);
    try {
      const page = watch(await anonymous.newPage());
      await page.goto("/login");
      await page.getByRole("heading", { name: "Sign in to Toolwatch" }).waitFor({ timeout: 15_000 });
      await page.goto(`/invite/${invitationId}`);
      await page.getByText("CSP team").first().waitFor({ timeout: 15_000 });
      await page.goto(`/share/${shareToken}`);
      await page.getByTestId("shared-server").first().waitFor({ timeout: 15_000 });
      await waitLive(page);
      await page.waitForTimeout(500);
      expect(violations).toEqual([]);
    } finally {
      await anonymous.close();
    }
  });

  it("injected markup does not run, and the watcher above sees the violation (it is not blind)", async () => {
    const page = watch(await context.newPage());
    const before = violations.length;
    // What a stored XSS would look like: markup smuggled into a real page, with its real headers.
    await page.route("**/account", async (route) => {
      const response = await route.fetch();
      const body = (await response.text()).replace("</body>", `<script>window.__pwned = 1</script><img src="/x.png" onerror="window.__pwned = 2"></body>`);
      await route.fulfill({ response, body });
    });
    await page.goto("/account");
    await page.getByRole("button", { name: "Sign out everywhere" }).waitFor({ timeout: 15_000 });
    expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned ?? null)).toBeNull();
    await expect.poll(() => violations.length, { timeout: 5_000 }).toBeGreaterThanOrEqual(before + 2);
    violations.splice(before);
    await page.close();
  });

  it("a framing page cannot embed Toolwatch (frame-ancestors 'none' and X-Frame-Options: DENY)", async () => {
    const page = await context.newPage();
    const blocked: string[] = [];
    page.on("console", (m) => void (/frame-ancestors|X-Frame-Options|refused to connect|Refused to display/i.test(m.text()) && blocked.push(m.text())));
    await page.setContent(`<iframe id="f" src="${product.baseUrl}/login"></iframe>`);
    await expect.poll(() => blocked.length, { timeout: 10_000 }).toBeGreaterThan(0);
    const framed = await page.frames().find((f) => f.url().includes("/login"))?.evaluate(() => document.title).catch(() => null);
    expect(framed ?? "").not.toBe("Toolwatch");
    await page.close();
  });
});
