import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startProduct, screenshotPath, type Product } from "@/tests/helpers/e2e-product";

// Issue 14's must-show: /api/docs renders the API reference (Scalar over /api/v1/openapi.json) in
// a real Chromium against the production build, with no sign-in and no CSP violation.

describe("the API reference page", () => {
  let product: Product;
  const violations: string[] = [];

  const watch = (page: Page) => {
    page.on("console", (message) => {
      if (/Content Security Policy|Refused to (execute|load|apply|connect|frame)/i.test(message.text())) violations.push(message.text());
    });
    page.on("pageerror", (error) => violations.push(`page error ${error.message}`));
    return page;
  };

  beforeAll(async () => {
    product = await startProduct();
  });
  afterAll(async () => product?.stop());

  it("serves the document publicly and renders it under its CSP", async () => {
    const spec = await fetch(`${product.baseUrl}/api/v1/openapi.json`);
    expect(spec.status).toBe(200);
    expect(((await spec.json()) as { openapi: string }).openapi).toMatch(/^3\.1\./);

    const context = await product.browser.newContext();
    // Injected by the browser itself (not subject to the page's CSP): every violation event.
    await context.addInitScript(() => {
      document.addEventListener("securitypolicyviolation", (e) => console.error(`Content Security Policy violation: ${e.violatedDirective} ${e.blockedURI}`));
    });
    const page = watch(await context.newPage());
    const response = await page.goto(`${product.baseUrl}/api/docs`);
    expect(response?.status()).toBe(200);
    expect(response?.headers()["content-security-policy"]).toContain("script-src 'self'");
    await expect.poll(() => page.getByRole("heading", { name: "Toolwatch API" }).first().isVisible(), { timeout: 60_000 }).toBe(true);
    await page.screenshot({ path: screenshotPath("api-docs") });
    // An operation from the document, listed in the sidebar (the body renders operations lazily).
    await expect.poll(() => page.getByText("This OpenAPI document").count(), { timeout: 30_000 }).toBeGreaterThan(0);
    expect(violations).toEqual([]);
    await context.close();
  });
});
