import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { BrowserContext, Page } from "playwright-core";
import { addHttpServer, apiOnly, call, createTeam, newBrowserContext, ok, PASSWORD, uniqueEmail } from "@/tests/helpers/e2e-accounts";
import { screenshotPath, startProduct, waitLive, type Product } from "@/tests/helpers/e2e-product";

// Signing up, creating a first team, signing out and in again: all in the browser.
describe("sign-up, sign-in and teams in Chromium", () => {
  let product: Product;
  let context: BrowserContext;
  let page: Page;
  const email = uniqueEmail("founder");

  beforeAll(async () => {
    product = await startProduct();
    context = await newBrowserContext(product.browser, product.baseUrl);
    page = await context.newPage();
  });
  afterAll(async () => {
    await context?.close();
    await product?.stop();
  });

  it("sends a signed-out visitor to /login, keeping where they were going", async () => {
    await page.goto("/team/audit");
    await page.waitForURL(/\/login\?next=%2Fteam%2Faudit$/);
    await page.getByRole("heading", { name: "Sign in to Toolwatch" }).waitFor();
    await page.goto("/");
    await page.waitForURL(/\/login$/);
    await page.getByRole("tab", { name: "Sign in" }).waitFor();
    await page.screenshot({ path: screenshotPath("login") });
  });

  it("shows field-level errors before sending anything", async () => {
    await page.getByRole("tab", { name: "Create account" }).click();
    await page.getByLabel("Email").fill("not-an-email");
    await page.getByLabel("Password").fill("short");
    await page.getByRole("button", { name: "Create account" }).click();
    await page.getByText("Enter your name.").waitFor();
    await page.getByText("Enter a valid email address.").waitFor();
    await page.getByText("Use at least 8 characters.").waitFor();
    expect(await page.getByLabel("Email").getAttribute("aria-invalid")).toBe("true");
  });

  it("signs up and lands on “create your team”, then on the new team's empty fleet", async () => {
    await page.getByLabel("Name").fill("Founder Tester");
    await page.getByLabel("Email").fill(email);
    await page.getByLabel("Password").fill(PASSWORD);
    await page.getByRole("button", { name: "Create account" }).click();
    await page.getByRole("heading", { name: "Create your team" }).waitFor();
    await page.getByText(/invitation link/).waitFor();
    await page.getByLabel("Team name").fill("Founders Inc");
    expect(await page.getByLabel("Slug").inputValue()).toBe("founders-inc");
    await page.getByLabel("Slug").fill(`founders-${Date.now().toString(36)}`);
    await page.getByRole("button", { name: "Create team" }).click();
    // The team's home is its overview; with no servers it says how to add some.
    await page.getByRole("heading", { name: "Overview" }).waitFor();
    await page.getByTestId("overview-empty").waitFor();
    expect(await page.getByLabel("Team", { exact: true }).locator("option:checked").innerText()).toContain("Founders Inc");
    expect(await page.getByTestId("user-email").innerText()).toBe(email);
    // An owner sees every section and may add servers.
    for (const link of ["Fleet", "Team", "API keys", "Audit log"]) await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: link, exact: true }).waitFor();
    await page.getByRole("link", { name: /^Add (a )?server$/ }).first().waitFor();
  });

  it("switches between the user's teams with the team switcher", async () => {
    const api = { request: context.request, baseUrl: product.baseUrl };
    await createTeam(api, "second", "Second Team");
    await addHttpServer(api, "second-team-server", "http://127.0.0.1:9/mcp");
    await page.goto("/servers");
    await page.getByTestId("server-row-second-team-server").waitFor();
    const switcher = page.getByLabel("Team", { exact: true });
    expect(await switcher.locator("option").allInnerTexts()).toEqual(["Founders Inc · owner", "Second Team · owner"]);
    await page.screenshot({ path: screenshotPath("fleet-team-switcher") });
    await switcher.selectOption({ label: "Founders Inc · owner" });
    await page.getByTestId("empty-fleet").or(page.getByTestId("overview-empty")).waitFor();
    expect(await page.getByTestId("server-row-second-team-server").count()).toBe(0);
    await switcher.selectOption({ label: "Second Team · owner" });
    await page.getByTestId("server-row-second-team-server").waitFor();
    await waitLive(page);
  });

  it("signs out to /login; pages need a session again", async () => {
    await page.getByRole("button", { name: "Sign out", exact: true }).click();
    await page.waitForURL(/\/login$/);
    await page.goto("/team/audit");
    await page.waitForURL(/\/login\?next=%2Fteam%2Faudit$/);
  });

  it("says so when the password is wrong", async () => {
    await page.getByLabel("Email").fill(email);
    await page.getByLabel("Password").fill("not the password");
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.getByRole("alert").filter({ hasText: "Wrong email or password" }).waitFor();
    expect(page.url()).toContain("/login");
  });

  it("signs in again and goes where the visitor was headed", async () => {
    await page.getByLabel("Password").fill(PASSWORD);
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.waitForURL(/\/team\/audit$/);
    await page.getByRole("heading", { name: "Audit log" }).waitFor();
    // A new session starts in the first team (Founders Inc), where the only event is its creation.
    await page.getByTestId("audit-action").filter({ hasText: "team.created" }).waitFor();
    await page.getByRole("link", { name: "Fleet", exact: true }).click();
    await page.getByRole("heading", { name: "Fleet" }).waitFor();
  });

  it("ignores a ?next= that points to another site", async () => {
    await page.goto("/login?next=//evil.example/steal");
    await page.waitForURL((url) => url.pathname === "/");
    expect(new URL(page.url()).host).toBe(new URL(product.baseUrl).host);
  });

  it("changes the password on the account page; the old one stops working", async () => {
    await page.getByTestId("user-email").click();
    await page.getByRole("heading", { name: "Your account" }).waitFor();
    await page.getByRole("listitem").filter({ hasText: "Founders Inc" }).waitFor();
    await page.getByLabel("Current password").fill("wrong current");
    await page.getByLabel("New password").fill("a brand new secret");
    await page.getByRole("button", { name: "Change password" }).click();
    await page.getByRole("alert").filter({ hasText: "current password is not right" }).waitFor();
    await page.getByLabel("Current password").fill(PASSWORD);
    await page.getByRole("button", { name: "Change password" }).click();
    await page.getByRole("status").filter({ hasText: "Password changed" }).waitFor();
    await page.getByRole("button", { name: "Sign out", exact: true }).click();
    await page.waitForURL(/\/login$/);
    await page.getByLabel("Email").fill(email);
    await page.getByLabel("Password").fill(PASSWORD);
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.getByRole("alert").filter({ hasText: "Wrong email or password" }).waitFor();
    await page.getByLabel("Password").fill("a brand new secret");
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.getByRole("heading", { name: "Overview" }).waitFor();
  });

  it("“Sign out everywhere” on the account page ends this session and the one on another device", async () => {
    const phone = await apiOnly(product.baseUrl);
    await ok(phone, "POST", "/api/auth/sign-in/email", { email, password: "a brand new secret" });
    expect((await call(phone, "GET", "/api/v1/me")).status).toBe(200);
    await page.getByTestId("user-email").click();
    await page.getByRole("button", { name: "Sign out everywhere" }).click();
    await page.waitForURL(/\/login$/);
    expect((await call(phone, "GET", "/api/v1/me")).status).toBe(401);
    await page.goto("/account");
    await page.waitForURL(/\/login\?next=%2Faccount$/);
    await phone.request.dispose();
  });
});
