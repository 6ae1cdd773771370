import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { BrowserContext, Page } from "playwright-core";
import { addHttpServer, apiOnly, call, createTeam, signedUpContext, signUp, uniqueSlug, type Account } from "@/tests/helpers/e2e-accounts";
import { screenshotPath, startProduct, type Product } from "@/tests/helpers/e2e-product";

// An instance administrator sets a team's server limit on the quotas page; the team's next
// registration past it is refused by the API with the rule named. A team admin finds no page.
describe("Team quotas in Chromium", () => {
  let product: Product;
  let context: BrowserContext;
  let operator: Account;
  let owner: Account;
  let page: Page;
  let teamName: string;

  beforeAll(async () => {
    product = await startProduct({ TOOLWATCH_PRIVATE_TARGETS: "all" });
    ({ context, account: operator } = await signedUpContext(product.browser, product.baseUrl, "operator"));
    await product.db.user.update({ where: { email: operator.email }, data: { instanceAdmin: true } });
    owner = await signUp(await apiOnly(product.baseUrl), "quotaowner");
    teamName = `Quota ${uniqueSlug("q")}`;
    await createTeam(owner, uniqueSlug("quota"), teamName);
    await addHttpServer(owner, "quota-one", "http://127.0.0.1:9/mcp", { enabled: false });
    await addHttpServer(owner, "quota-two", "http://127.0.0.1:9/mcp", { enabled: false });
    await createTeam(operator, uniqueSlug("ops"), "Operators");
    page = await context.newPage();
  });
  // The product's database is its own (tests/helpers/fresh-database.ts): nothing to undo in it.
  afterAll(async () => {
    await context?.close();
    await product?.stop();
  });

  it("the operator opens Quotas from the top bar, sees the team's usage and sets its server limit to 2", async () => {
    await page.goto("/");
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Quotas" }).click();
    await page.getByRole("heading", { name: "Team quotas" }).waitFor();
    const row = page.getByRole("row").filter({ has: page.getByRole("rowheader", { name: new RegExp(teamName) }) });
    await expect.poll(() => row.getByRole("cell").first().innerText()).toMatch(/^2 \/ \d+/);
    await row.getByLabel(`Servers for ${teamName}`).fill("2");
    await row.getByRole("button", { name: "Save" }).click();
    await row.getByRole("status").filter({ hasText: "saved" }).waitFor();
    await expect.poll(() => row.getByRole("cell").first().innerText()).toMatch(/^2 \/ 2 \(at the limit\)/);
    await page.screenshot({ path: screenshotPath("admin-quotas"), fullPage: true });
  });

  it("the team's third server is refused with a 403 naming the limit", async () => {
    const res = await call(owner, "POST", "/api/v1/servers", { name: "quota-three", transport: "streamable-http", url: "http://127.0.0.1:9/mcp", enabled: false });
    expect(res.status).toBe(403);
    expect(res.json.error.message).toMatch(/at most 2 servers/);
    expect(res.json.error.details.rule).toBe("maxServers");
  });

  it("a team owner who is no instance administrator sees no Quotas link and the page says so", async () => {
    const { context: other, account } = await signedUpContext(product.browser, product.baseUrl, "plainowner");
    await createTeam(account, uniqueSlug("plain"), "Plain team");
    try {
      const otherPage = await other.newPage();
      await otherPage.goto("/admin/quotas");
      await otherPage.getByRole("alert").filter({ hasText: "for instance administrators" }).waitFor();
      expect(await otherPage.getByRole("link", { name: "Quotas" }).count()).toBe(0);
    } finally {
      await other.close();
    }
  });
});
