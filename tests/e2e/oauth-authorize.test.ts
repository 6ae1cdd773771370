import type { BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startOAuthFixture, type OAuthFixture } from "@/tests/fixtures/oauth-server";
import { createTeam, signedUpContext, type Account } from "@/tests/helpers/e2e-accounts";
import { screenshotPath, startProduct, type Product } from "@/tests/helpers/e2e-product";

// Issue 16: an admin authorizes an OAuth-protected server from its page. The browser goes to the
// fixture's approve page and back through the callback; the worker then lists the server.
describe("authorizing an OAuth server in Chromium", () => {
  let product: Product;
  let fixture: OAuthFixture;
  let context: BrowserContext;
  let owner: Account;
  let page: Page;

  beforeAll(async () => {
    product = await startProduct();
    fixture = await startOAuthFixture({ accessTokenTtlMs: 60_000, tools: [{ name: "read_private_notes", description: "Reads the notes of the signed-in user" }] });
    ({ context, account: owner } = await signedUpContext(product.browser, product.baseUrl, "oauth-admin"));
    await createTeam(owner, "oauth", "OAuth team");
    page = await context.newPage();
  });
  afterAll(async () => {
    await context?.close();
    await fixture?.close();
    await product?.stop();
  });

  it("an admin adds the server with browser sign-in through the form, clicks Authorize, approves at the provider, and comes back to a listed server", async () => {
    await page.goto("/servers/new");
    await page.getByRole("heading", { name: "Add a server" }).waitFor();
    await page.getByLabel("Name", { exact: true }).fill("private-notes");
    await page.getByLabel("URL").fill(fixture.url);
    await page.getByLabel("Sign-in method").selectOption("authorization_code");
    await page.getByLabel("Scope").waitFor();
    await page.screenshot({ path: screenshotPath("server-form-oauth"), fullPage: true });
    await page.getByRole("button", { name: "Add server" }).click();
    await page.waitForURL(/\/servers\/[0-9a-f-]{36}$/);
    const id = page.url().split("/").pop()!;
    expect((await product.db.mcpServer.findUniqueOrThrow({ where: { id } })).authConfig).toMatchObject({ type: "oauth", grant: "authorization_code" });
    const authorize = page.getByRole("button", { name: "Authorize" });
    await authorize.waitFor({ timeout: 30_000 });
    await authorize.click();
    // The provider's own page (the fixture's approve form), on its own origin.
    await page.waitForURL((url) => url.origin === fixture.issuer && url.pathname === "/authorize");
    expect(new URL(page.url()).searchParams.get("code_challenge_method")).toBe("S256");
    await page.getByRole("button", { name: "Approve" }).click();
    await page.waitForURL((url) => url.pathname === `/servers/${id}` && url.searchParams.get("oauth") === "authorized");
    await page.getByText("Authorized: the worker lists the server now.").waitFor();
    // The worker lists it with the new tokens (the page may have loaded a moment before that).
    for (let i = 0; i < 300 && (await product.db.snapshot.count({ where: { serverId: id } })) === 0; i++) await new Promise((r) => setTimeout(r, 100));
    await page.reload();
    await page.getByRole("heading", { name: /Current tools \(1\)/ }).waitFor({ timeout: 30_000 });
    await page.getByText("read_private_notes").first().waitFor();
    expect(await page.getByRole("button", { name: "Authorize" }).count()).toBe(0);
    await page.screenshot({ path: screenshotPath("oauth-authorized"), fullPage: true });
    // No token reaches the page.
    const html = await page.content();
    for (const token of fixture.issued) expect(html).not.toContain(token);
  }, 120_000);
});
