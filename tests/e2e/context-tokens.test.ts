import path from "node:path";
import type { BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startHttpFixture, writeFixtureState, type HttpFixture } from "../fixtures/spawn-fixture";
import { addHttpServer, call, createTeam, signedUpContext, type Account } from "../helpers/e2e-accounts";
import { screenshotPath, startProduct, type Product } from "../helpers/e2e-product";

// Context tokens end to end: the real worker lists a fixture server, counts its tool, and the
// server page, the API and the team budget show it in Chromium.
//
// The tool as a host sends it, {"name":"echo","description":"Echo the input.","inputSchema":{"type":"object"}},
// is 18 o200k_base tokens: {" name ":" echo "," description ":" Echo ␣the ␣input ."," input Schema ":{" type ":" object "}}
const ECHO_TOKENS = 18;

describe("context tokens in Chromium", () => {
  let product: Product;
  let fixture: HttpFixture;
  let context: BrowserContext;
  let account: Account;
  let page: Page;
  let serverId: string;

  beforeAll(async () => {
    product = await startProduct();
    const state = path.join(product.dir, "tokens.json");
    writeFixtureState(state, { tools: [{ name: "echo", description: "Echo the input.", inputSchema: { type: "object" } }] });
    fixture = await startHttpFixture(state);
    ({ context, account } = await signedUpContext(product.browser, product.baseUrl, "tokens"));
    await createTeam(account, "tokens", "Tokens team");
    serverId = await addHttpServer(account, "tokens-mcp", fixture.url);
    page = await context.newPage();
  });
  afterAll(async () => {
    await context?.close();
    await fixture?.stop();
    await product?.stop();
  });

  it("the API returns the worker's count as contextTokens on the server, its tools and its snapshots", async () => {
    let detail: { json: { server: { contextTokens: number | null }; tools: Array<{ contextTokens: number | null }> } } | undefined;
    for (let i = 0; i < 150 && !detail?.json.server.contextTokens; i++) {
      detail = await call(account, "GET", `/api/v1/servers/${serverId}`);
      if (!detail.json.server.contextTokens) await new Promise((r) => setTimeout(r, 200));
    }
    expect(detail!.json.server.contextTokens).toBe(ECHO_TOKENS);
    expect(detail!.json.tools.map((t) => t.contextTokens)).toEqual([ECHO_TOKENS]);
    const list = await call(account, "GET", "/api/v1/servers");
    expect(list.json.items[0].contextTokens).toBe(ECHO_TOKENS);
    const snapshots = await call(account, "GET", `/api/v1/servers/${serverId}/snapshots`);
    expect(snapshots.json.items[0].contextTokens).toBe(ECHO_TOKENS);
  });

  it("the server page shows the count with its tokenizer, per tool, and a trend chart", async () => {
    await page.goto(`/servers/${serverId}`);
    const facts = page.getByTestId("server-context-tokens");
    await facts.waitFor({ timeout: 30_000 });
    expect(await facts.innerText()).toBe(`${ECHO_TOKENS} ≈ tokens, o200k_base`);
    expect(await page.getByTestId("tool-context-tokens").innerText()).toContain(String(ECHO_TOKENS));
    const chart = page.getByTestId("token-trend");
    await chart.locator("svg").first().waitFor({ timeout: 15_000 });
    expect(await chart.locator("figcaption").innerText()).toContain(`${ECHO_TOKENS} → ${ECHO_TOKENS} over 1 snapshot`);
    await page.screenshot({ path: screenshotPath("server-context-tokens"), fullPage: true });
  });

  it("an admin sets a budget below the total on the team page and gets the context_budget alert at once", async () => {
    await page.goto("/team");
    await page.getByLabel("Budget (tokens)").fill("10");
    await page.getByRole("button", { name: "Save budget" }).click();
    const summary = page.getByTestId("team-context-tokens");
    await summary.getByText(`over by ${ECHO_TOKENS - 10}`).waitFor({ timeout: 15_000 });
    await summary.getByRole("link", { name: "alert" }).click();
    const details = page.getByTestId("context-budget-details");
    await details.waitFor({ timeout: 15_000 });
    expect(await details.innerText()).toMatch(new RegExp(`cost ${ECHO_TOKENS} tokens against a budget of 10`));
    expect(await page.getByTestId("alert-kind").innerText()).toContain("Over the context budget");
  });
});
