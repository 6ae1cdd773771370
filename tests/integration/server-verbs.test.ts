import "@/tests/helpers/test-env";
import { describe, expect, it } from "vitest";
import { deleteServer } from "@/lib/servers/delete-server";
import { requestRefresh } from "@/lib/servers/request-refresh";
import { withTransaction } from "@/lib/transaction";
import { expectAuditRow } from "@/tests/helpers/expect-audit-row";
import { insertServerRow, makeCtx, testDb } from "@/tests/helpers/factories";

// The verb shape of lib/CONVENTIONS.md, on the model verb (deleteServer) and its neighbour:
// permission first, a read scoped to the team, the write, its audit row and NOTIFY in one
// transaction, which joins the caller's when there is one.
const HTTP = { transport: "streamable_http" as const, url: "http://127.0.0.1:9/mcp", headers: {} };

describe("server verbs in the conventional shape", () => {
  it("deleteServer refuses a viewer and a member (403) and writes nothing", async () => {
    for (const role of ["viewer", "member"] as const) {
      const ctx = await makeCtx({ role });
      const { id } = await insertServerRow(ctx, "kept", HTTP, { enabled: false });
      await expect(deleteServer(ctx, { serverId: id })).rejects.toMatchObject({ code: "FORBIDDEN", message: `Your role (${role}) may not add, edit or remove servers` });
      expect(await testDb().mcpServer.count({ where: { id } })).toBe(1);
      expect(await testDb().auditEvent.count({ where: { tenantId: ctx.tenantId } })).toBe(0);
    }
  });

  it("an admin API key deletes a server: the row is gone and one server.deleted event names the key", async () => {
    const ctx = await makeCtx({ kind: "apiKey", role: "admin" });
    const { id } = await insertServerRow(ctx, "doomed", HTTP, { enabled: false });
    await deleteServer(ctx, { serverId: id });
    expect(await testDb().mcpServer.count({ where: { id } })).toBe(0);
    const row = await expectAuditRow(ctx, { action: "server.deleted", target: { type: "server", id }, details: { name: "doomed", transport: "streamable_http" } });
    expect(row.actorKind).toBe("apiKey");
  });

  it("another team's server and a missing one are both 404 to deleteServer", async () => {
    const owner = await makeCtx();
    const { id } = await insertServerRow(owner, "theirs", HTTP, { enabled: false });
    const stranger = await makeCtx({ role: "owner" });
    await expect(deleteServer(stranger, { serverId: id })).rejects.toMatchObject({ code: "NOT_FOUND", message: "Server not found" });
    await expect(deleteServer(stranger, { serverId: "00000000-0000-4000-8000-000000000000" })).rejects.toMatchObject({ code: "NOT_FOUND", message: "Server not found" });
    expect(await testDb().mcpServer.count({ where: { id } })).toBe(1);
  });

  it("requestRefresh as a member records server.refresh_requested by that member; a disabled server is a 409", async () => {
    const ctx = await makeCtx({ role: "member" });
    const { id } = await insertServerRow(ctx, "watched", HTTP, { enabled: true });
    expect(await requestRefresh(ctx, { serverId: id })).toEqual({ id, requested: true });
    await expectAuditRow(ctx, { action: "server.refresh_requested", target: { type: "server", id }, details: { name: "watched" } });
    const off = await insertServerRow(ctx, "off", HTTP, { enabled: false });
    await expect(requestRefresh(ctx, { serverId: off.id })).rejects.toMatchObject({ code: "CONFLICT" });
    // Later suites' workers take every enabled server of the shared database: leave none behind.
    await testDb().mcpServer.update({ where: { id }, data: { enabled: false } });
  });

  it("a verb called inside withTransaction joins it: rolling the outer transaction back undoes the delete and its audit row", async () => {
    const ctx = await makeCtx({ role: "admin" });
    const { id } = await insertServerRow(ctx, "survivor", HTTP, { enabled: false });
    const rollback = new Error("outer step failed");
    await expect(
      withTransaction(ctx, async (_tx, inTx) => {
        await deleteServer(inTx, { serverId: id });
        // Inside the transaction the delete is visible…
        expect(await inTx.tx!.mcpServer.count({ where: { id } })).toBe(0);
        throw rollback;
      }),
    ).rejects.toBe(rollback);
    // …and after the rollback, neither the delete nor its audit row happened.
    expect(await testDb().mcpServer.count({ where: { id } })).toBe(1);
    expect(await testDb().auditEvent.count({ where: { tenantId: ctx.tenantId, action: "server.deleted" } })).toBe(0);
  });
});
