import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { BrowserContext, Page } from "playwright-core";
import { acceptInvitation, addHttpServer, apiOnly, createTeam, invite, signedUpContext, signUp, uniqueEmail, type Account } from "@/tests/helpers/e2e-accounts";
import { screenshotPath, startProduct, type Product } from "@/tests/helpers/e2e-product";

// A team admin mints a key in the browser; it is shown once, works as a Bearer token from
// outside the browser, and stops working when revoked.
describe("API keys in Chromium", () => {
  let product: Product;
  let context: BrowserContext;
  let admin: Account;
  let page: Page;
  let secret: string;
  let owner: Account;
  const servers = (key: string) => fetch(`${product.baseUrl}/api/v1/servers`, { headers: { Authorization: `Bearer ${key}` } });

  beforeAll(async () => {
    product = await startProduct();
    owner = await signUp(await apiOnly(product.baseUrl), "keyowner");
    await createTeam(owner, "keys", "Key Makers");
    await addHttpServer(owner, "keys-team-server", "http://127.0.0.1:9/mcp");
    const adminEmail = uniqueEmail("admin");
    const invitation = await invite(owner, adminEmail, "admin");
    ({ context, account: admin } = await signedUpContext(product.browser, product.baseUrl, "admin", adminEmail));
    await acceptInvitation(admin, invitation.id);
    page = await context.newPage();
  });
  afterAll(async () => {
    await context?.close();
    await product?.stop();
  });

  it("an admin creates a key and sees the secret once, with a warning", async () => {
    await page.goto("/");
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "API keys" }).click();
    await page.getByRole("heading", { name: "API keys" }).waitFor();
    await page.getByText("No API keys yet.").waitFor();
    const form = page.getByRole("region", { name: "Create a key" });
    // An admin cannot mint a key above their own role.
    expect(await form.getByLabel("Role").locator("option").allInnerTexts()).toEqual(["admin", "member", "viewer"]);
    await form.getByRole("button", { name: "Create key" }).click();
    await form.getByText("Name the key after what will use it").waitFor();
    await form.getByLabel("Name").fill("ci-reader");
    await form.getByLabel("Role").selectOption("viewer");
    await form.getByLabel("Expires after (days)").fill("30");
    await form.getByRole("button", { name: "Create key" }).click();
    const fresh = page.getByTestId("fresh-key");
    await fresh.waitFor();
    await fresh.getByText("It is shown only once").waitFor();
    secret = (await fresh.getByTestId("fresh-key-value").innerText()).trim();
    expect(secret).toMatch(/^tw_[A-Za-z0-9_-]{40,}$/);
    const row = page.getByTestId("key-row-ci-reader");
    await row.waitFor();
    expect(await row.getByTestId("key-start").innerText()).toBe(`${secret.slice(0, 8)}…`);
    expect(await row.getByTestId("key-last-used").innerText()).toBe("never");
    expect(await row.innerText()).toContain(admin.email);
    await page.screenshot({ path: screenshotPath("keys-fresh-key"), fullPage: true });
  });

  it("after a reload only the key's start is on the page", async () => {
    await page.reload();
    await page.getByTestId("key-row-ci-reader").waitFor();
    expect(await page.getByTestId("fresh-key").count()).toBe(0);
    expect(await page.content()).not.toContain(secret);
    expect(await page.getByTestId("key-row-ci-reader").getByTestId("key-start").innerText()).toBe(`${secret.slice(0, 8)}…`);
  });

  it("the key works as a Bearer token from outside the browser and shows its last use", async () => {
    const res = await servers(secret);
    expect(res.status).toBe(200);
    const body = (await res.json()) as { items: { name: string }[] };
    expect(body.items.map((s) => s.name)).toEqual(["keys-team-server"]);
    // A viewer key may read but not write.
    const write = await fetch(`${product.baseUrl}/api/v1/servers`, {
      method: "POST",
      headers: { Authorization: `Bearer ${secret}`, "Content-Type": "application/json" },
      body: JSON.stringify({ name: "nope", transport: "streamable-http", url: "http://127.0.0.1:9/mcp" }),
    });
    expect(write.status).toBe(403);
    await expect
      .poll(
        async () => {
          await page.reload();
          return page.getByTestId("key-row-ci-reader").getByTestId("key-last-used").innerText();
        },
        { timeout: 15_000 },
      )
      .not.toBe("never");
  });

  it("revoking the key (after a confirmation) makes it answer 401", async () => {
    const row = page.getByTestId("key-row-ci-reader");
    await row.getByRole("button", { name: "Revoke" }).click();
    await row.getByRole("button", { name: "Yes, revoke" }).click();
    await expect.poll(() => row.getByTestId("key-status").innerText(), { timeout: 15_000 }).toBe("revoked");
    expect(await row.getByRole("button", { name: "Revoke" }).count()).toBe(0);
    expect((await servers(secret)).status).toBe(401);
  });

  it("the audit log shows who created and revoked the key", async () => {
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Audit log" }).click();
    await page.getByRole("heading", { name: "Audit log" }).waitFor();
    const actions = page.getByTestId("audit-action");
    await actions.filter({ hasText: "key.revoked" }).waitFor();
    const texts = await actions.allInnerTexts();
    expect(texts.slice(0, 2)).toEqual(["key.revoked", "key.created"]);
    expect(texts).toContain("member.joined");
    expect(await page.getByTestId("audit-row").first().innerText()).toContain(admin.email);
    await page.screenshot({ path: screenshotPath("audit-log"), fullPage: true });
  });

  it("an admin hands a key to the owner (Transfer…), so it outlives the admin's membership", async () => {
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "API keys" }).click();
    const form = page.getByRole("region", { name: "Create a key" });
    await form.getByLabel("Name").fill("handover");
    await form.getByRole("button", { name: "Create key" }).click();
    const row = page.getByTestId("key-row-handover");
    await row.waitFor();
    await row.getByText("Transfer…").click();
    await row.getByLabel("New holder of handover").selectOption({ label: `${owner.email} (owner)` });
    await row.getByRole("button", { name: "Transfer" }).click();
    await row.getByRole("status").filter({ hasText: "transferred" }).waitFor();
    await expect.poll(() => row.innerText()).toContain(`by ${owner.email}`);
  });
});
