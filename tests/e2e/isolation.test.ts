import fs from "node:fs";
import path from "node:path";
import type { BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startHttpFixture, writeFixtureState, type HttpFixture } from "@/tests/fixtures/spawn-fixture";
import { addHttpServer, createTeam, signedUpContext, type Account } from "@/tests/helpers/e2e-accounts";
import { startProduct, waitLive, type Product } from "@/tests/helpers/e2e-product";

// Two browsers, two teams. Each sees only its own fleet; a change on team A's server reaches A's
// browser live and never reaches B's — not on screen, and not on B's socket either.
const tool = (name: string) => ({ name, description: `The ${name} tool`, inputSchema: { type: "object", properties: {} } });
const A_SERVER = "alpha-confidential-mcp";
const B_SERVER = "bravo-public-mcp";

type Seen = { frames: string[] };

/** Everything the page's socket.io connection receives (WebSocket frames and long-polling bodies). */
function recordSocket(page: Page): Seen {
  const seen: Seen = { frames: [] };
  page.on("websocket", (ws) => ws.on("framereceived", (f) => seen.frames.push(String(f.payload))));
  page.on("response", (res) => {
    if (res.url().includes("/socket.io/") && res.request().method() === "GET") void res.text().then((t) => seen.frames.push(t), () => undefined);
  });
  return seen;
}

describe("two teams in two browsers", () => {
  let product: Product;
  let fixtureA: HttpFixture;
  let fixtureB: HttpFixture;
  let a: { context: BrowserContext; account: Account; page?: Page; team?: { id: string } };
  let b: { context: BrowserContext; account: Account; page?: Page; team?: { id: string } };
  let aServerId: string;
  let bServerId: string;
  let seenByB: Seen;
  let seenByA: Seen;
  const statePath = (name: string) => path.join(product.dir, `${name}.json`);

  beforeAll(async () => {
    product = await startProduct();
    writeFixtureState(statePath("a"), { tools: [tool("alpha"), tool("beta")] });
    writeFixtureState(statePath("b"), { tools: [tool("one")] });
    [fixtureA, fixtureB] = await Promise.all([startHttpFixture(statePath("a")), startHttpFixture(statePath("b"))]);
    a = await signedUpContext(product.browser, product.baseUrl, "alice");
    b = await signedUpContext(product.browser, product.baseUrl, "bob");
    a.team = await createTeam(a.account, "team-a", "Team A");
    b.team = await createTeam(b.account, "team-b", "Team B");
    aServerId = await addHttpServer(a.account, A_SERVER, fixtureA.url);
    bServerId = await addHttpServer(b.account, B_SERVER, fixtureB.url);
    // B's browser must never render A's server name, not even for a moment.
    await b.context.addInitScript((forbidden: string) => {
      const w = window as unknown as { __sawForbidden?: string };
      new MutationObserver(() => {
        if (document.body?.textContent?.includes(forbidden)) w.__sawForbidden = location.href;
      }).observe(document, { subtree: true, childList: true, characterData: true });
    }, A_SERVER);
    a.page = await a.context.newPage();
    b.page = await b.context.newPage();
    seenByA = recordSocket(a.page);
    seenByB = recordSocket(b.page);
  });
  afterAll(async () => {
    await Promise.all([a?.context.close(), b?.context.close()]);
    await Promise.all([fixtureA?.stop(), fixtureB?.stop()]);
    await product?.stop();
  });

  it("each browser sees only its own team's fleet", async () => {
    await Promise.all([a.page!.goto("/servers"), b.page!.goto("/servers")]);
    const countOf = (page: Page, name: string) => page.getByTestId(`server-row-${name}`).getByTestId("tool-count");
    await expect.poll(() => countOf(a.page!, A_SERVER).innerText(), { timeout: 30_000 }).toBe("2");
    await expect.poll(() => countOf(b.page!, B_SERVER).innerText(), { timeout: 30_000 }).toBe("1");
    expect(await a.page!.locator("tbody tr").count()).toBe(1);
    expect(await b.page!.locator("tbody tr").count()).toBe(1);
    expect(await a.page!.content()).not.toContain(B_SERVER);
    for (const p of [a.page!, b.page!]) await waitLive(p);
  });

  it("a change on A's server reaches A's browser live and nothing reaches B", async () => {
    for (const p of [a.page!, b.page!]) await p.evaluate(() => ((window as unknown as { __noReload: boolean }).__noReload = true));
    const bFramesBefore = seenByB.frames.length;
    writeFixtureState(statePath("a"), { tools: [tool("alpha"), tool("beta"), tool("gamma")] });
    await expect.poll(() => a.page!.getByTestId(`server-row-${A_SERVER}`).getByTestId("tool-count").innerText(), { timeout: 20_000 }).toBe("3");
    // B's own server changes too, so B's socket demonstrably works while A's events stay away.
    writeFixtureState(statePath("b"), { tools: [tool("one"), tool("two")] });
    await expect.poll(() => b.page!.getByTestId(`server-row-${B_SERVER}`).getByTestId("tool-count").innerText(), { timeout: 20_000 }).toBe("2");
    for (const p of [a.page!, b.page!]) expect(await p.evaluate(() => (window as unknown as { __noReload?: boolean }).__noReload)).toBe(true);

    const bFrames = seenByB.frames.join("\n");
    expect(seenByB.frames.length).toBeGreaterThan(bFramesBefore);
    expect(bFrames).toContain(bServerId);
    expect(bFrames).not.toContain(aServerId);
    expect(bFrames).not.toContain(a.team!.id);
    const aFrames = seenByA.frames.join("\n");
    expect(aFrames).toContain(aServerId);
    expect(aFrames).not.toContain(bServerId);
    expect(await b.page!.locator("tbody tr").count()).toBe(1);
    expect(await b.page!.evaluate(() => (window as unknown as { __sawForbidden?: string }).__sawForbidden ?? null)).toBeNull();
  });

  it("B opening A's server page by id gets “not found”, and B's API calls are refused", async () => {
    await b.page!.goto(`/servers/${aServerId}`);
    await b.page!.getByRole("alert").filter({ hasText: "Server not found in this team." }).waitFor();
    const statuses = await b.page!.evaluate(async (id) => {
      const get = await fetch(`/api/v1/servers/${id}`);
      const del = await fetch(`/api/v1/servers/${id}`, { method: "DELETE" });
      const refresh = await fetch(`/api/v1/servers/${id}/refresh`, { method: "POST", headers: { "Content-Type": "application/json" }, body: "{}" });
      return [get.status, del.status, refresh.status];
    }, aServerId);
    expect(statuses).toEqual([404, 404, 404]);
    expect(await b.page!.evaluate(() => (window as unknown as { __sawForbidden?: string }).__sawForbidden ?? null)).toBeNull();
    // A's server is untouched.
    await a.page!.goto(`/servers/${aServerId}`);
    await a.page!.getByRole("heading", { name: /Current tools \(3\)/ }).waitFor({ timeout: 20_000 });
    expect(fs.existsSync(statePath("a"))).toBe(true);
  });
});
