import "@/tests/helpers/test-env";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { acknowledgeAlert } from "@/lib/alerts/acknowledge-alert";
import { listAlerts } from "@/lib/alerts/list-alerts";
import type { ServiceContext } from "@/lib/context";
import { onFleetEvent, setServerPageFeed } from "@/lib/servers/server-page-cache";
import { insertServerRow, makeCtx, testDb } from "@/tests/helpers/factories";

// The alert inbox is answered from the web process's memory while the realtime feed is up
// (list-alerts.ts). What must hold: a repeated query does not read the database again; an alert the
// worker writes shows once its NOTIFY (alert:changed) arrives; a review in this process shows at
// once, before its NOTIFY comes back; another team's cache is untouched by either.
describe("the alert list served from memory", () => {
  let ctx: ServiceContext;
  let other: ServiceContext;
  let serverId: string;
  const insertAlert = (tenantId: string, server: string, title: string) =>
    testDb().alert.create({ data: { tenantId, serverId: server, kind: "tool_changed", severity: "medium", status: "open", title, dedupeKey: title } });

  beforeAll(async () => {
    ctx = await makeCtx({ role: "admin" });
    other = await makeCtx({ role: "admin" });
    serverId = (await insertServerRow(ctx, "cached-inbox", { transport: "streamable_http", url: "http://127.0.0.1:9/mcp", headers: {} }, { enabled: false })).id;
    await insertAlert(ctx.tenantId, serverId, "first");
    setServerPageFeed(true);
  });
  afterAll(() => setServerPageFeed(false));

  it("answers a repeated query from memory, and a worker's new alert once its alert:changed event arrives", async () => {
    const before = await listAlerts(ctx, {});
    expect(before.items.map((a) => a.title)).toEqual(["first"]);
    // Written behind the cache's back, as the worker does: not seen until its event arrives.
    const second = await insertAlert(ctx.tenantId, serverId, "second");
    expect((await listAlerts(ctx, {})).items.map((a) => a.title)).toEqual(["first"]);
    onFleetEvent({ type: "alert:changed", tenantId: other.tenantId, serverId, alertId: second.id });
    expect((await listAlerts(ctx, {})).items.map((a) => a.title)).toEqual(["first"]);
    onFleetEvent({ type: "alert:changed", tenantId: ctx.tenantId, serverId, alertId: second.id });
    expect((await listAlerts(ctx, {})).items.map((a) => a.title)).toEqual(["second", "first"]);
  });

  it("shows an acknowledgement made in this process at once, before its NOTIFY returns", async () => {
    const open = await listAlerts(ctx, { status: "open" });
    expect(open.items).toHaveLength(2);
    await acknowledgeAlert(ctx, open.items[0]!.id, {});
    const after = await listAlerts(ctx, { status: "open" });
    expect(after.items.map((a) => a.id)).toEqual([open.items[1]!.id]);
  });

  it("keeps teams apart: another team's query with the same filters sees only its own alerts", async () => {
    expect((await listAlerts(other, {})).items).toEqual([]);
  });
});
