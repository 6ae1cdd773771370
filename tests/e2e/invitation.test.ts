import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { BrowserContext, Page } from "playwright-core";
import { addHttpServer, call, createTeam, newBrowserContext, PASSWORD, signedUpContext, uniqueEmail, type Account } from "@/tests/helpers/e2e-accounts";
import { screenshotPath, startProduct, waitLive, type Product } from "@/tests/helpers/e2e-product";

// An owner invites a viewer by link; the viewer joins in a second browser and can look but not
// touch — the buttons are hidden, and the server refuses anyway.
describe("invitation by link in two browsers", () => {
  let product: Product;
  let ownerContext: BrowserContext;
  let owner: Account;
  let ownerPage: Page;
  let guestContext: BrowserContext;
  let guestPage: Page;
  let serverId: string;
  let link: string;
  const viewerEmail = uniqueEmail("viewer");

  beforeAll(async () => {
    product = await startProduct();
    ({ context: ownerContext, account: owner } = await signedUpContext(product.browser, product.baseUrl, "owner"));
    await createTeam(owner, "acme", "Acme Tools");
    serverId = await addHttpServer(owner, "acme-billing", "http://127.0.0.1:9/mcp", { tags: ["billing"] });
    await ownerContext.grantPermissions(["clipboard-read", "clipboard-write"], { origin: product.baseUrl });
    ownerPage = await ownerContext.newPage();
    guestContext = await newBrowserContext(product.browser, product.baseUrl);
    guestPage = await guestContext.newPage();
  });
  afterAll(async () => {
    await Promise.all([ownerContext?.close(), guestContext?.close()]);
    await product?.stop();
  });

  it("the owner invites a viewer and copies the link", async () => {
    await ownerPage.goto("/team");
    await ownerPage.getByRole("heading", { name: "Team Acme Tools" }).waitFor();
    await ownerPage.getByTestId(`member-row-${owner.email}`).waitFor();
    const form = ownerPage.getByRole("region", { name: "Invite someone" });
    await form.getByLabel("Email").fill(viewerEmail);
    await form.getByLabel("Role").selectOption("viewer");
    await form.getByRole("button", { name: "Create invitation link" }).click();
    const box = ownerPage.getByTestId("invitation-link");
    await box.waitFor();
    link = await box.getByLabel("Invitation link").inputValue();
    expect(link).toMatch(new RegExp(`^${product.baseUrl}/invite/[0-9a-f-]{36}$`));
    await box.getByText(/Expires .*in 7 days/).waitFor();
    await box.getByRole("button", { name: "Copy link" }).click();
    await box.getByText("Copied").waitFor();
    expect(await ownerPage.evaluate(() => navigator.clipboard.readText())).toBe(link);
    await ownerPage.getByTestId(`invitation-${viewerEmail}`).waitFor();
    await ownerPage.screenshot({ path: screenshotPath("members-invite-link"), fullPage: true });
  });

  it("the link, opened while signed in with another address, says so instead of offering to accept", async () => {
    const other = await ownerContext.newPage();
    await other.goto(link);
    await other.getByText(`You are signed in as ${owner.email}, but this invitation is for ${viewerEmail}`).waitFor();
    await other.getByRole("button", { name: "Sign out", exact: true }).waitFor();
    expect(await other.getByRole("button", { name: /^Accept/ }).count()).toBe(0);
    await other.close();
  });

  it("the invitee opens the link signed out, signs up with the invited address and accepts", async () => {
    await guestPage.goto(link);
    await guestPage.getByRole("heading", { name: "Join Acme Tools on Toolwatch" }).waitFor();
    const facts = guestPage.getByTestId("invitation-facts");
    expect(await facts.innerText()).toContain(owner.email);
    expect(await facts.innerText()).toContain("viewer");
    const email = guestPage.getByLabel("Email");
    expect(await email.inputValue()).toBe(viewerEmail);
    expect(await email.getAttribute("readonly")).not.toBeNull();
    await guestPage.getByLabel("Name").fill("Vera Viewer");
    await guestPage.getByLabel("Password").fill(PASSWORD);
    await guestPage.getByRole("button", { name: "Create account" }).click();
    await guestPage.getByText(`Signed in as ${viewerEmail}`).waitFor();
    await guestPage.getByRole("button", { name: "Accept and join Acme Tools" }).click();
    await guestPage.waitForURL((url) => url.pathname === "/");
    // Home is the team's overview; the fleet is one link away.
    await guestPage.getByRole("heading", { name: "Overview" }).waitFor();
    await guestPage.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Fleet", exact: true }).click();
    await guestPage.getByTestId("server-row-acme-billing").waitFor();
    expect(await guestPage.getByLabel("Team", { exact: true }).locator("option:checked").innerText()).toBe("Acme Tools · viewer");
    await waitLive(guestPage);
  });

  it("the viewer sees no buttons it may not use", async () => {
    expect(await guestPage.getByRole("link", { name: "Add server" }).count()).toBe(0);
    const nav = guestPage.getByRole("navigation", { name: "Main" });
    expect(await nav.getByRole("link", { name: "API keys" }).count()).toBe(0);
    expect(await nav.getByRole("link", { name: "Audit log" }).count()).toBe(0);
    await guestPage.getByTestId("server-row-acme-billing").getByRole("link").first().click();
    await guestPage.getByRole("heading", { name: /acme-billing/ }).waitFor();
    for (const name of ["Edit", "Delete", "Refresh now"]) expect(await guestPage.getByRole("button", { name }).or(guestPage.getByRole("link", { name })).count()).toBe(0);
    await guestPage.goto("/team");
    await guestPage.getByTestId(`member-row-${viewerEmail}`).waitFor();
    expect(await guestPage.getByRole("button", { name: "Remove" }).count()).toBe(0);
    expect(await guestPage.getByRole("region", { name: "Invite someone" }).count()).toBe(0);
  });

  it("a DELETE sent from the viewer's page is refused with 403 and the server stays", async () => {
    const status = await guestPage.evaluate(async (id) => (await fetch(`/api/v1/servers/${id}`, { method: "DELETE" })).status, serverId);
    expect(status).toBe(403);
    const after = await guestPage.evaluate(async (id) => (await fetch(`/api/v1/servers/${id}`)).status, serverId);
    expect(after).toBe(200);
    expect((await call(owner, "GET", `/api/v1/servers/${serverId}`)).status).toBe(200);
  });

  it("the owner sees the new member and no pending invitation", async () => {
    await ownerPage.reload();
    await ownerPage.getByTestId(`member-row-${viewerEmail}`).waitFor();
    await ownerPage.getByText("No pending invitations.").waitFor();
    // The role can be changed from the list.
    await ownerPage.getByLabel(`Role of ${viewerEmail}`).selectOption("member");
    await expect.poll(async () => (await call(owner, "GET", "/api/v1/members")).json.items.find((m: { email: string }) => m.email === viewerEmail)?.role).toBe("member");
  });
});
