import path from "node:path";
import type { BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startHttpFixture, writeFixtureState, type HttpFixture } from "@/tests/fixtures/spawn-fixture";
import { addHttpServer, createTeam, signedUpContext, type Account } from "@/tests/helpers/e2e-accounts";
import { screenshotPath, startProduct, type Product } from "@/tests/helpers/e2e-product";

// The server page's Prompts tab shows what a fixture server's prompts/list says, as text.
describe("prompts and resources on the server page in Chromium", () => {
  let product: Product;
  let fixture: HttpFixture;
  let context: BrowserContext;
  let account: Account;
  let page: Page;
  let serverId: string;

  beforeAll(async () => {
    product = await startProduct();
    const state = path.join(product.dir, "surfaces.json");
    writeFixtureState(state, {
      tools: [{ name: "echo", description: "Echo the input.", inputSchema: { type: "object" } }],
      prompts: [{ name: "summarize", description: "Summarize a <b>document</b>.", arguments: [{ name: "doc", description: "The document", required: true }] }],
      resources: [{ name: "readme", uri: "file:///project/README.md", mimeType: "text/markdown" }],
      instructions: "Prefer summarize for long documents.",
    });
    fixture = await startHttpFixture(state);
    ({ context, account } = await signedUpContext(product.browser, product.baseUrl, "surfaces"));
    await createTeam(account, "surfaces", "Surfaces team");
    serverId = await addHttpServer(account, "prompts-mcp", fixture.url);
    page = await context.newPage();
  });
  afterAll(async () => {
    await context?.close();
    await fixture?.stop();
    await product?.stop();
  });

  it("the Prompts tab lists the fixture's prompt with its required argument, markup shown as text", async () => {
    await page.goto(`/servers/${serverId}`);
    await page.getByRole("tab", { name: "Prompts (1)" }).click({ timeout: 30_000 });
    const prompt = page.getByTestId("surface-item-prompt");
    await prompt.waitFor();
    const text = await prompt.innerText();
    expect(text).toContain("summarize");
    expect(text).toContain("Summarize a <b>document</b>.");
    expect(text).toMatch(/doc\s+required/);
    await page.getByRole("tab", { name: "Resources (1)" }).click();
    expect(await page.getByTestId("surface-panel-resources").innerText()).toMatch(/not fetched[\s\S]*file:\/\/\/project\/README\.md · text\/markdown/);
    await page.screenshot({ path: screenshotPath("server-surfaces"), fullPage: true });
  });
});
