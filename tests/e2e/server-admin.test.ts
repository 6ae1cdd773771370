import path from "node:path";
import type { BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startHttpFixture, writeFixtureState, type HttpFixture } from "@/tests/fixtures/spawn-fixture";
import { call, createTeam, signedUpContext, type Account } from "@/tests/helpers/e2e-accounts";
import { screenshotPath, startProduct, type Product } from "@/tests/helpers/e2e-product";

// A team owner adds, edits, refreshes and deletes a server through the forms.
const tool = (name: string) => ({ name, description: `The ${name} tool`, inputSchema: { type: "object", properties: {} } });

describe("managing servers in Chromium", () => {
  let product: Product;
  let fixture: HttpFixture;
  let context: BrowserContext;
  let owner: Account;
  let page: Page;
  let serverId: string;

  beforeAll(async () => {
    product = await startProduct();
    const state = path.join(product.dir, "tools.json");
    writeFixtureState(state, { tools: [tool("search"), tool("fetch")] });
    fixture = await startHttpFixture(state);
    ({ context, account: owner } = await signedUpContext(product.browser, product.baseUrl, "operator"));
    await createTeam(owner, "ops", "Ops");
    page = await context.newPage();
  });
  afterAll(async () => {
    await context?.close();
    await fixture?.stop();
    await product?.stop();
  });

  it("adds a server, showing the API's field-level errors first", async () => {
    await page.goto("/servers");
    await page.getByRole("link", { name: "Add server" }).click();
    await page.getByRole("heading", { name: "Add a server" }).waitFor();
    await page.getByRole("button", { name: "Add server" }).click();
    await page.getByText("Give the server a name.").waitFor();
    await page.getByLabel("Name", { exact: true }).fill("search-mcp");
    await page.getByLabel("URL").fill("ftp://127.0.0.1/mcp");
    await page.getByLabel("Tags").fill("prod, search");
    await page.getByRole("button", { name: "Add server" }).click();
    // The URL is checked by the API (details.fields.url), shown under the field.
    const urlError = page.locator(".field.has-error").filter({ has: page.getByLabel("URL") }).locator(".field-error");
    await urlError.waitFor();
    expect(await urlError.innerText()).toMatch(/http/i);
    await page.screenshot({ path: screenshotPath("server-form-error"), fullPage: true });
    await page.getByLabel("URL").fill(fixture.url);
    await page.getByRole("button", { name: "Add header" }).click();
    await page.getByLabel("Header 1 name").fill("X-Api-Key");
    await page.getByLabel("Header 1 value").fill("s3cret-value");
    await page.getByRole("button", { name: "Add server" }).click();
    await page.waitForURL(/\/servers\/[0-9a-f-]{36}$/);
    serverId = page.url().split("/").pop()!;
    await page.getByRole("heading", { name: /Current tools \(2\)/ }).waitFor({ timeout: 30_000 });
    expect(await page.content()).not.toContain("s3cret-value");
    await page.getByText("X-Api-Key").waitFor();
  });

  it("edits it: secrets stay masked and are kept when left blank", async () => {
    await page.getByRole("link", { name: "Edit" }).click();
    await page.getByRole("heading", { name: "Edit search-mcp" }).waitFor();
    expect(await page.getByLabel("Header 1 name").inputValue()).toBe("X-Api-Key");
    expect(await page.getByLabel("Header 1 value").inputValue()).toBe("");
    expect(await page.getByLabel("Header 1 value").getAttribute("placeholder")).toContain("set");
    await page.getByLabel("Name", { exact: true }).fill("search-mcp-prod");
    await page.getByLabel("Poll interval (seconds)").fill("5");
    await page.getByRole("button", { name: "Save changes" }).click();
    await page.getByText("A whole number of seconds from 10 to 86400.").waitFor();
    await page.getByLabel("Poll interval (seconds)").fill("120");
    await page.getByRole("button", { name: "Save changes" }).click();
    await page.getByRole("heading", { name: /search-mcp-prod/ }).waitFor();
    await page.screenshot({ path: screenshotPath("server-page-owner"), fullPage: true });
    const detail = (await call(owner, "GET", `/api/v1/servers/${serverId}`)).json;
    expect(detail.server).toMatchObject({ name: "search-mcp-prod", pollIntervalSeconds: 120, headerKeys: ["X-Api-Key"], tags: ["prod", "search"] });
  });

  it("asks for a refresh", async () => {
    await page.getByRole("button", { name: "Refresh now" }).click();
    await page.getByRole("status").filter({ hasText: "Refresh requested" }).waitFor();
  });

  it("deletes it after a confirmation", async () => {
    await page.getByRole("button", { name: "Delete" }).click();
    await page.getByRole("button", { name: "Yes, delete" }).click();
    await page.waitForURL((url) => url.pathname === "/servers");
    await page.getByTestId("empty-fleet").waitFor();
    expect((await call(owner, "GET", `/api/v1/servers/${serverId}`)).status).toBe(404);
    await page.goto("/team/audit");
    await page.getByTestId("audit-action").filter({ hasText: "server.deleted" }).waitFor();
    await page.screenshot({ path: screenshotPath("audit-after-server-admin"), fullPage: true });
  });
});
