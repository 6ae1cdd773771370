import fs from "node:fs";
import path from "node:path";
import type { BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startHttpFixture, writeFixtureState, type HttpFixture } from "@/tests/fixtures/spawn-fixture";
import { acceptInvitation, call, createTeam, invite, signedUpContext, uniqueEmail, type Account } from "@/tests/helpers/e2e-accounts";
import { screenshotPath, startProduct, type Product } from "@/tests/helpers/e2e-product";

// A team owner imports servers from a Claude Desktop config: pasted, previewed (nothing stored),
// imported, seen on the fleet and listed by the worker; the same file uploaded again previews as
// unchanged. A viewer of the team gets a message instead of the form.
const tool = (name: string) => ({ name, description: `The ${name} tool`, inputSchema: { type: "object", properties: {} } });
const SECRET = "hdr-SECRET-value-4242";

describe("importing servers from a config in Chromium", () => {
  let product: Product;
  let fixture: HttpFixture;
  let context: BrowserContext;
  let owner: Account;
  let page: Page;
  let configFile: string;
  let configText: string;

  beforeAll(async () => {
    product = await startProduct();
    const state = path.join(product.dir, "tools.json");
    writeFixtureState(state, { tools: [tool("search"), tool("fetch"), tool("summarise")] });
    fixture = await startHttpFixture(state);
    ({ context, account: owner } = await signedUpContext(product.browser, product.baseUrl, "importer"));
    await createTeam(owner, "imports", "Imports");
    page = await context.newPage();
    configText = JSON.stringify(
      { mcpServers: { "docs-search": { url: fixture.url, headers: { Authorization: `Bearer ${SECRET}` } }, "docs-fetch": { url: fixture.url } } },
      null,
      2,
    );
    configFile = path.join(product.dir, "claude_desktop_config.json");
    fs.writeFileSync(configFile, configText);
  });
  afterAll(async () => {
    await context?.close();
    await fixture?.stop();
    await product?.stop();
  });

  it("pastes a config, previews two servers to create without storing anything, imports them", async () => {
    await page.goto("/servers");
    await page.getByTestId("empty-fleet").waitFor();
    await page.getByRole("link", { name: "Import from a config" }).first().click();
    await page.getByRole("heading", { name: "Import servers from a config" }).waitFor();
    await page.getByLabel("Config (JSON)").fill(configText);
    expect(await page.getByTestId("detected-format").innerText()).toMatch(/mcpServers.*2 servers/);
    await page.getByRole("button", { name: "Preview" }).click();
    await page.getByTestId("import-preview").waitFor();
    const rows = page.getByTestId("import-row");
    expect(await rows.count()).toBe(2);
    expect(await page.locator('[data-testid="import-row"][data-action="create"]').count()).toBe(2);
    expect(await page.getByTestId("import-preview").innerText()).toContain("2 to create");
    expect(await page.getByTestId("import-table").innerText()).toContain(fixture.url);
    // The pasted text holds the header value (it is the user's own); the API's answer never does.
    expect(await page.getByTestId("import-preview").innerHTML()).not.toContain(SECRET);
    await page.screenshot({ path: screenshotPath("import-preview"), fullPage: true });
    expect((await call(owner, "GET", "/api/v1/servers")).json.items).toEqual([]);

    await page.getByRole("button", { name: "Import 2 servers" }).click();
    await page.getByTestId("import-result").waitFor();
    expect(await page.getByRole("status").filter({ hasText: "2 created" }).count()).toBe(1);
    await page.getByRole("link", { name: "docs-fetch" }).waitFor();
    const servers = (await call(owner, "GET", "/api/v1/servers")).json.items as { name: string; headerKeys: string[] }[];
    expect(servers.map((s) => s.name).sort()).toEqual(["docs-fetch", "docs-search"]);
    expect(servers.find((s) => s.name === "docs-search")!.headerKeys).toEqual(["Authorization"]);
  });

  it("the fleet shows both, and the worker lists their tools", async () => {
    await page.getByRole("link", { name: "Go to the fleet" }).click();
    await page.getByTestId("server-row-docs-search").waitFor();
    await page.getByTestId("server-row-docs-fetch").waitFor();
    await page.getByTestId("server-row-docs-search").getByTestId("tool-count").filter({ hasText: "3" }).waitFor({ timeout: 30_000 });
  });

  it("uploading the same file through the file input previews both as unchanged", async () => {
    await page.goto("/servers/import");
    await page.getByLabel("Upload a config file").setInputFiles(configFile);
    await page.getByTestId("detected-format").filter({ hasText: "2 servers" }).waitFor();
    expect(await page.getByLabel("Config (JSON)").inputValue()).toBe(configText);
    await page.getByRole("button", { name: "Preview" }).click();
    await page.getByTestId("import-preview").waitFor();
    expect(await page.locator('[data-testid="import-row"][data-action="unchanged"]').count()).toBe(2);
    expect(await page.getByTestId("import-preview").innerText()).toContain("Nothing to import");
    expect(await page.getByRole("button", { name: /^Import \d/ }).count()).toBe(0);
  });

  it("a viewer of the team sees a message instead of the form", async () => {
    const email = uniqueEmail("import-viewer");
    const invitation = await invite(owner, email, "viewer");
    const { context: viewerContext, account: viewer } = await signedUpContext(product.browser, product.baseUrl, "import-viewer", email);
    try {
      await acceptInvitation(viewer, invitation.id);
      const viewerPage = await viewerContext.newPage();
      await viewerPage.goto("/servers/import");
      await viewerPage.getByRole("alert").filter({ hasText: "may not add servers" }).waitFor();
      expect(await viewerPage.getByLabel("Config (JSON)").count()).toBe(0);
      expect((await call(viewer, "POST", "/api/v1/servers/import", { config: configText, dryRun: true })).status).toBe(403);
    } finally {
      await viewerContext.close();
    }
  });
});
