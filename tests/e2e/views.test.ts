import path from "node:path";
import type { BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startHttpFixture, writeFixtureState, type HttpFixture } from "@/tests/fixtures/spawn-fixture";
import { acceptInvitation, addHttpServer, call, createTeam, invite, signedUpContext, uniqueEmail, type Account } from "@/tests/helpers/e2e-accounts";
import { screenshotPath, startProduct, type Product } from "@/tests/helpers/e2e-product";

// Issue 7, shared team views, through the browser: filters live in the URL (and survive a
// reload), a member saves and pins a view that then greets everyone on `/`, shares it by a
// read-only link and revokes it; a viewer sees the views but none of the buttons that write.
const tool = (name: string) => ({ name, description: `The ${name} tool`, inputSchema: { type: "object", properties: {} } });
const UNREACHABLE = "http://127.0.0.1:9/mcp";

const params = (page: Page) => new URL(page.url()).searchParams;
const rows = (page: Page) => page.locator('tbody tr[data-testid^="server-row-"]');
const rowNames = async (page: Page) => (await rows(page).evaluateAll((trs) => trs.map((tr) => tr.getAttribute("data-testid")!.slice("server-row-".length)))).sort();

describe("shared team views in Chromium", () => {
  let product: Product;
  let fixture: HttpFixture;
  let ownerContext: BrowserContext;
  let memberContext: BrowserContext;
  let owner: Account;
  let member: Account;
  let page: Page;
  let viewId: string;
  let shareUrl: string;
  let stagingId: string;

  beforeAll(async () => {
    product = await startProduct();
    const state = path.join(product.dir, "tools.json");
    writeFixtureState(state, { tools: [tool("search"), tool("fetch")] });
    fixture = await startHttpFixture(state);
    ({ context: ownerContext, account: owner } = await signedUpContext(product.browser, product.baseUrl, "viewowner"));
    await createTeam(owner, "views", "Views team");
    await addHttpServer(owner, "github-mcp", fixture.url, { tags: ["prod", "vendor:github"] });
    await addHttpServer(owner, "notes-mcp", UNREACHABLE, { tags: ["prod"], transport: "sse" });
    stagingId = await addHttpServer(owner, "staging-mcp", UNREACHABLE, { tags: ["staging"] });
    const email = uniqueEmail("member");
    const invitation = await invite(owner, email, "member");
    ({ context: memberContext, account: member } = await signedUpContext(product.browser, product.baseUrl, "member", email));
    await acceptInvitation(member, invitation.id);
    page = await memberContext.newPage();
  });
  afterAll(async () => {
    await ownerContext?.close();
    await memberContext?.close();
    await fixture?.stop();
    await product?.stop();
  });

  it("a member filters the fleet; the URL holds every filter and a reload keeps them", async () => {
    await page.goto("/servers");
    await expect.poll(() => rowNames(page), { timeout: 15_000 }).toEqual(["github-mcp", "notes-mcp", "staging-mcp"]);
    // A tag chip in the table adds that tag as a filter.
    await page.getByTestId("server-row-github-mcp").getByRole("button", { name: "prod", exact: true }).click();
    await expect.poll(() => params(page).get("tag")).toBe("prod");
    await expect.poll(() => rowNames(page)).toEqual(["github-mcp", "notes-mcp"]);
    // Typing is written to the URL after a pause.
    await page.getByLabel("Name", { exact: true }).fill("git");
    await expect.poll(() => params(page).get("q")).toBe("git");
    await expect.poll(() => rowNames(page)).toEqual(["github-mcp"]);
    // The bar is compact: the other controls open under "Filters".
    await page.getByRole("button", { name: /^Filters/ }).click();
    await page.getByRole("checkbox", { name: "Streamable HTTP" }).check();
    await expect.poll(() => params(page).get("transport")).toBe("streamable_http");
    await page.getByRole("button", { name: "Tools", exact: true }).click();
    await page.getByRole("button", { name: "Tools", exact: true }).click();
    await expect.poll(() => `${params(page).get("sort")} ${params(page).get("dir")}`).toBe("toolCount desc");
    await page.getByLabel("Columns: Default").click();
    await page.getByRole("checkbox", { name: "Protocol" }).uncheck();
    await expect.poll(() => params(page).get("cols")).toBe("name,status,transport,tags,toolCount,lastChangeAt");
    await page.getByRole("group", { name: "Alert severity" }).getByRole("checkbox", { name: "Critical" }).check();
    await page.getByLabel("Alerts created", { exact: true }).selectOption("7d");
    await expect.poll(() => `${params(page).get("severity")} ${params(page).get("range")}`).toBe("critical 7d");

    await page.reload();
    await expect.poll(() => rowNames(page), { timeout: 15_000 }).toEqual(["github-mcp"]);
    expect(await page.getByLabel("Name", { exact: true }).inputValue()).toBe("git");
    // Collapsed again: each active filter is a removable chip in the bar.
    expect(await page.getByTestId("active-filter-chip").allInnerTexts()).toEqual([
      expect.stringContaining("tag prod"),
      expect.stringContaining("transport Streamable HTTP"),
      expect.stringContaining("severity Critical"),
      expect.stringContaining("alerts created: Last 7 days"),
    ]);
    await page.getByRole("button", { name: /^Filters/ }).click();
    expect(await page.getByRole("checkbox", { name: "Streamable HTTP" }).isChecked()).toBe(true);
    expect(await page.getByTestId("tag-filter-chip").allInnerTexts()).toEqual([expect.stringContaining("prod")]);
    expect(await page.getByRole("columnheader", { name: "Protocol" }).count()).toBe(0);
    expect(await page.getByRole("columnheader", { name: /Tools/ }).getAttribute("aria-sort")).toBe("descending");
    expect(await page.getByLabel("Alerts created", { exact: true }).inputValue()).toBe("7d");
    await page.getByRole("heading", { name: /Matching alerts/ }).waitFor();
    await page.screenshot({ path: screenshotPath("views-fleet-filtered"), fullPage: true });
  });

  it("an empty result names the filter that hides everything and offers to clear", async () => {
    const tagBox = page.getByLabel("Tags (all of)");
    await tagBox.fill("staging");
    await tagBox.press("Enter");
    await expect.poll(() => params(page).get("tag")).toBe("prod,staging");
    const noMatch = page.getByTestId("no-match");
    await noMatch.waitFor();
    expect(await noMatch.innerText()).toContain("tag staging");
    await page.screenshot({ path: screenshotPath("views-fleet-no-match"), fullPage: true });
    await noMatch.getByRole("listitem").filter({ hasText: "tag staging" }).getByRole("button", { name: "Remove this filter" }).click();
    await expect.poll(() => rowNames(page)).toEqual(["github-mcp"]);
  });

  it("saves the filters as a view; a taken name is refused in place; changes can update the view", async () => {
    await page.getByRole("button", { name: "Save as view" }).click();
    await page.getByLabel("View name").fill("Prod GitHub");
    await page.getByRole("button", { name: "Save view" }).click();
    await expect.poll(() => params(page).get("view")).toMatch(/^[0-9a-f-]{36}$/);
    viewId = params(page).get("view")!;
    expect(params(page).get("q")).toBe("git");
    await page.getByTestId("active-view").filter({ hasText: "Prod GitHub" }).waitFor();
    const saved = (await call(member, "GET", `/api/v1/views/${viewId}`)).json;
    expect(saved.filters).toEqual({
      servers: { tags: ["prod"], transports: ["streamable_http"], query: "git" },
      alerts: { severities: ["critical"] },
      timeRange: "7d",
      columns: ["name", "status", "transport", "tags", "toolCount", "lastChangeAt"],
      sort: { by: "toolCount", dir: "desc" },
    });

    await page.getByRole("button", { name: "Save as view" }).click();
    await page.getByLabel("View name").fill("Prod GitHub");
    await page.getByRole("button", { name: "Save view" }).click();
    await page.locator(".save-view .field.has-error .field-error").filter({ hasText: "already used" }).waitFor();
    await page.getByRole("button", { name: "Cancel" }).click();

    await page.getByLabel("Name", { exact: true }).fill("");
    await expect.poll(() => params(page).get("q")).toBeNull();
    await page.getByTestId("active-view").filter({ hasText: "modified" }).waitFor();
    await page.getByRole("button", { name: "Update view with current filters" }).click();
    await page.getByRole("status").filter({ hasText: "now holds these filters" }).waitFor();
    await expect.poll(async () => (await page.getByTestId("active-view").innerText()).includes("modified")).toBe(false);
    expect((await call(member, "GET", `/api/v1/views/${viewId}`)).json.filters.servers).toEqual({ tags: ["prod"], transports: ["streamable_http"] });
  });

  it("pins it as the team's home: a bare / opens it, and All servers shows everything", async () => {
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Views" }).click();
    const row = page.getByTestId("view-row-Prod GitHub");
    await row.waitFor();
    await row.getByRole("button", { name: "Pin as home" }).click();
    await row.getByTestId("pinned-marker").waitFor();
    await page.screenshot({ path: screenshotPath("views-list"), fullPage: true });

    await page.goto("/");
    // `/` is the overview unless a view is pinned: then it hands over to the fleet with the view.
    await page.waitForURL((url) => url.pathname === "/servers", { timeout: 15_000 });
    await expect.poll(() => params(page).get("view")).toBe(viewId);
    expect(params(page).get("tag")).toBe("prod");
    await page.getByTestId("active-view").filter({ hasText: "Prod GitHub" }).filter({ hasText: "team home" }).waitFor();
    await expect.poll(() => rowNames(page)).toEqual(["github-mcp"]);
    await page.screenshot({ path: screenshotPath("views-fleet-team-home"), fullPage: true });

    await page.getByRole("link", { name: "All servers" }).click();
    await expect.poll(() => params(page).get("view")).toBe("all");
    await expect.poll(() => rowNames(page)).toEqual(["github-mcp", "notes-mcp", "staging-mcp"]);
    await page.reload();
    await expect.poll(() => rowNames(page), { timeout: 15_000 }).toEqual(["github-mcp", "notes-mcp", "staging-mcp"]);
  });

  it("shares it by a read-only link shown once, lists it with its accesses, and revokes it", async () => {
    await page.goto(`/views/${viewId}`);
    await page.getByRole("heading", { name: "Share outside the team" }).waitFor();
    await page.getByText("No share links for this view yet.").waitFor();
    // An expiry in the past is refused by the API, shown under the field.
    await page.getByLabel("Expires (optional)").fill("2020-01-01T10:00");
    await page.getByRole("button", { name: "Create share link" }).click();
    await page.locator(".field.has-error .field-error").filter({ hasText: "future" }).waitFor();
    await page.getByLabel("Expires (optional)").fill("");
    await page.getByRole("button", { name: "Create share link" }).click();
    const fresh = page.getByTestId("fresh-share-link");
    await fresh.waitFor();
    expect(await fresh.innerText()).toContain("shown only once");
    shareUrl = await page.getByTestId("fresh-share-url").innerText();
    await page.screenshot({ path: screenshotPath("views-share-fresh-link"), fullPage: true });
    expect(shareUrl).toMatch(/\/share\/[A-Za-z0-9_-]{43}$/);
    const token = shareUrl.split("/").pop()!;
    const statusRow = page.getByTestId("share-link-row");
    await expect.poll(() => statusRow.count()).toBe(1);
    expect(await statusRow.getByTestId("share-link-status").innerText()).toBe("active");
    expect(await statusRow.innerText()).toContain(`/share/${token.slice(0, 6)}`);

    // Someone outside the team opens it (no cookie): counted and shown after a refetch.
    const shared = await fetch(new URL(`/api/v1/share/${token}`, product.baseUrl));
    expect(shared.status).toBe(200);
    expect(((await shared.json()) as { servers: { name: string }[] }).servers.map((s) => s.name)).toEqual(["github-mcp"]);
    await page.getByRole("button", { name: "I have copied it" }).click();
    await page.reload();
    await expect.poll(() => page.getByTestId("share-link-count").innerText(), { timeout: 15_000 }).toBe("1");
    expect(await page.getByTestId("share-link-last-access").innerText()).not.toContain("never");
    expect(await page.content()).not.toContain(token);
    await page.screenshot({ path: screenshotPath("views-share-links"), fullPage: true });

    await statusRow.getByRole("button", { name: "Revoke" }).click();
    await statusRow.getByRole("button", { name: "Yes, revoke" }).click();
    await expect.poll(() => statusRow.getByTestId("share-link-status").innerText()).toBe("revoked");
    expect((await fetch(new URL(`/api/v1/share/${token}`, product.baseUrl))).status).toBe(404);
  });

  it("the audit log names view and share events in words and links to the view", async () => {
    const audit = await ownerContext.newPage();
    await audit.goto("/team/audit");
    for (const action of ["view.created", "view.updated", "view.pinned", "share.created", "share.revoked"]) {
      await audit.getByTestId("audit-action").filter({ hasText: action }).first().waitFor({ timeout: 15_000 });
    }
    const pinned = audit.getByTestId("audit-row").filter({ hasText: "view.pinned" });
    expect(await pinned.innerText()).toContain("pinned a view as the team's home");
    await pinned.getByRole("link", { name: "Prod GitHub" }).click();
    await audit.waitForURL(`**/views/${viewId}`);
    await audit.close();
  });

  it("an admin edits a server's tags in place on its page; a bad tag is named", async () => {
    const admin = await ownerContext.newPage();
    await admin.goto(`/servers/${stagingId}`);
    await admin.getByRole("button", { name: "Edit tags" }).click();
    await admin.getByLabel("Tags", { exact: true }).fill("staging, vendor:acme, bad!tag");
    await admin.getByRole("button", { name: "Save tags" }).click();
    await admin.getByRole("alert").filter({ hasText: "“bad!tag”" }).waitFor();
    await admin.getByLabel("Tags", { exact: true }).fill("staging, vendor:acme");
    await admin.getByRole("button", { name: "Save tags" }).click();
    await admin.getByTestId("server-tags").getByRole("link", { name: "vendor:acme" }).click();
    await expect.poll(() => params(admin).get("tag")).toBe("vendor:acme");
    await expect.poll(() => rowNames(admin), { timeout: 15_000 }).toEqual(["staging-mcp"]);
    await admin.close();
  });

  it("a viewer gets the pinned view but no button that saves, pins, shares or revokes", async () => {
    const email = uniqueEmail("viewer");
    const invitation = await invite(owner, email, "viewer");
    const { context, account: viewer } = await signedUpContext(product.browser, product.baseUrl, "viewer", email);
    try {
      await acceptInvitation(viewer, invitation.id);
      const viewerPage = await context.newPage();
      await viewerPage.goto("/");
      await viewerPage.getByTestId("active-view").filter({ hasText: "Prod GitHub" }).waitFor({ timeout: 15_000 });
      await viewerPage.getByLabel("Name", { exact: true }).fill("nothing-like-this");
      await viewerPage.getByTestId("no-match").waitFor();
      await viewerPage.getByTestId("active-view").filter({ hasText: "modified" }).waitFor();
      for (const name of ["Save as view", "Update view with current filters"]) expect(await viewerPage.getByRole("button", { name }).count()).toBe(0);
      await viewerPage.screenshot({ path: screenshotPath("views-fleet-viewer"), fullPage: true });
      await viewerPage.goto("/views");
      await viewerPage.getByTestId("view-row-Prod GitHub").waitFor();
      for (const name of ["Rename", "Unpin", "Delete"]) expect(await viewerPage.getByRole("button", { name }).count()).toBe(0);
      await viewerPage.goto(`/views/${viewId}`);
      await viewerPage.getByTestId("share-link-row").waitFor();
      for (const name of ["Create share link", "Revoke"]) expect(await viewerPage.getByRole("button", { name }).count()).toBe(0);
      expect((await call(viewer, "POST", `/api/v1/views/${viewId}/share`, {})).status).toBe(403);
    } finally {
      await context.close();
    }
  });
});
