import path from "node:path";
import type { BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startHttpFixture, writeFixtureState, type HttpFixture } from "@/tests/fixtures/spawn-fixture";
import { addHttpServer, call, createTeam, signedUpContext, type Account } from "@/tests/helpers/e2e-accounts";
import { screenshotPath, startProduct, type Product } from "@/tests/helpers/e2e-product";

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
  let teamId: string;

  beforeAll(async () => {
    product = await startProduct();
    const state = path.join(product.dir, "tokens.json");
    writeFixtureState(state, { tools: [{ name: "echo", description: "Echo the input.", inputSchema: { type: "object" } }] });
    fixture = await startHttpFixture(state);
    ({ context, account } = await signedUpContext(product.browser, product.baseUrl, "tokens"));
    teamId = (await createTeam(account, "tokens", "Tokens team")).id;
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

  it("the budget page shows the total, the top server and the daily trend, and its empty state before anything is counted", async () => {
    await page.goto("/team/budget");
    const total = page.getByTestId("budget-total-tokens");
    await total.waitFor({ timeout: 30_000 });
    expect(await total.innerText()).toBe(`${ECHO_TOKENS} ≈ tokens, o200k_base`);
    const top = page.getByTestId("costliest-servers").locator("tbody tr");
    expect(await top.count()).toBe(1);
    expect(await top.first().innerText()).toMatch(new RegExp(`^tokens-mcp\\s+${ECHO_TOKENS}\\s+100%\\s+1\\s+${ECHO_TOKENS}$`));
    const chart = page.getByTestId("token-trend");
    await chart.locator("svg").first().waitFor({ timeout: 15_000 });
    // Only today has a snapshot: 29 uncounted days, then the total.
    expect(await chart.locator("figcaption").innerText()).toContain(`${ECHO_TOKENS} → ${ECHO_TOKENS} over 1 day`);
    await top.first().getByRole("link", { name: "tokens-mcp" }).click();
    await page.waitForURL(`**/servers/${serverId}`);

    await createTeam(account, "tokens-empty", "Empty budget team");
    await page.goto("/team/budget");
    await page.getByTestId("budget-empty").getByText("The team has no servers.").waitFor({ timeout: 15_000 });
  });

  it("an admin sets a budget below the total on the budget page: the meter, the alert link, and the Team page's summary", async () => {
    // Back to the team with the server (the empty team above became the active one).
    expect((await call(account, "POST", "/api/v1/teams/active", { teamId })).status).toBe(200);
    await page.goto("/team");
    await page.getByTestId("team-context-tokens").waitFor({ timeout: 15_000 });
    await page.getByRole("link", { name: "See the budget page" }).click();
    await page.waitForURL("**/team/budget");
    await page.getByLabel("Budget (tokens)").fill("10");
    await page.getByRole("button", { name: "Save budget" }).click();
    const meter = page.getByRole("meter", { name: "Context tokens used of the budget" });
    await meter.waitFor({ timeout: 15_000 });
    expect(await meter.getAttribute("aria-valuenow")).toBe("10");
    expect(await meter.getAttribute("aria-valuemax")).toBe("10");
    expect(await page.getByTestId("budget-percent").innerText()).toBe(`${(ECHO_TOKENS / 10) * 100}%`);
    const alert = page.getByTestId("budget-alert");
    await alert.waitFor({ timeout: 15_000 });
    await page.screenshot({ path: screenshotPath("budget-page"), fullPage: true });
    await page.goto("/team");
    const summary = page.getByTestId("team-context-tokens");
    await summary.getByText(`over by ${ECHO_TOKENS - 10}`).waitFor({ timeout: 15_000 });
    await summary.getByRole("link", { name: "alert" }).click();
    const details = page.getByTestId("context-budget-details");
    await details.waitFor({ timeout: 15_000 });
    expect(await details.innerText()).toMatch(new RegExp(`cost ${ECHO_TOKENS} tokens against a budget of 10`));
    expect(await page.getByTestId("alert-kind").innerText()).toContain("Over the context budget");
  });
});
