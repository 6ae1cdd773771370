import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ServiceContext } from "@/lib/context";
import { createServer } from "@/lib/servers/create-server";
import { deleteServer } from "@/lib/servers/delete-server";
import { updateServer } from "@/lib/servers/update-server";
import { startHttpFixture, writeFixtureState } from "@/tests/fixtures/spawn-fixture";
import { expectAuditRow } from "@/tests/helpers/expect-audit-row";
import { makeCtx, testDb, waitFor } from "@/tests/helpers/factories";
import { startProcess, type Proc } from "@/tests/helpers/processes";
import { testDatabaseUrl } from "@/tests/helpers/test-database";

const tool = (name: string) => ({ name, inputSchema: { type: "object" } });

describe("servers added, edited and removed while a worker runs", () => {
  let ctx: ServiceContext;
  let worker: Proc;
  let dir: string;
  let a: { url: string; stop(): Promise<void> };
  let b: { url: string; stop(): Promise<void> };
  let id: string;
  const session = () => ctx.db.serverSession.findUnique({ where: { serverId: id } });

  beforeAll(async () => {
    await testDb().mcpServer.updateMany({ where: { enabled: true }, data: { enabled: false } });
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "toolwatch-lifecycle-"));
    writeFixtureState(path.join(dir, "a.json"), { tools: [tool("one")] });
    writeFixtureState(path.join(dir, "b.json"), { tools: [tool("one"), tool("two")] });
    [a, b] = await Promise.all([startHttpFixture(path.join(dir, "a.json")), startHttpFixture(path.join(dir, "b.json"))]);
    ctx = await makeCtx({ kind: "system" });
    worker = await startProcess("worker/main.ts", { DATABASE_URL: testDatabaseUrl(), TOOLWATCH_DEMO: "0", TOOLWATCH_WORKER_ID: "lifecycle-worker" }, /watching \d+ server/);
  });

  afterAll(async () => {
    await worker?.stop();
    await Promise.all([a?.stop(), b?.stop()]);
    await ctx?.db.mcpServer.updateMany({ where: { tenantId: ctx.tenantId }, data: { enabled: false } });
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it("a new server is live within 5 s of being saved (NOTIFY, not a slow poll)", async () => {
    const saved = Date.now();
    id = (await createServer(ctx, { name: "added", transport: "streamable-http", url: a.url, pollIntervalSeconds: 60 }, { allowStdio: false })).id;
    await waitFor("live", session, (s) => s?.status === "live", 5_000);
    console.log(`new server live after ${Date.now() - saved} ms`);
    expect(await ctx.db.snapshot.count({ where: { serverId: id } })).toBe(1);
    await expectAuditRow(ctx, { action: "server.created", target: { type: "server", id }, details: { name: "added", transport: "streamable-http", headerKeys: [] } });
  });

  it("editing the connection restarts the session against the new target", async () => {
    const before = (await session())!.connectedAt!;
    await updateServer(ctx, { serverId: id, patch: { url: b.url } }, { allowStdio: false });
    await expectAuditRow(ctx, { action: "server.updated", target: { type: "server", id }, details: { name: "added", fields: ["url"] } });
    await waitFor("reconnected", session, (s) => Boolean(s?.connectedAt && s.connectedAt > before && s.status === "live"), 10_000);
    const latest = await ctx.db.snapshot.findFirst({ where: { serverId: id }, orderBy: { takenAt: "desc" } });
    expect(latest?.toolCount).toBe(2);
  });

  it("disabling stops the session; deleting removes the server and its lease", async () => {
    await updateServer(ctx, { serverId: id, patch: { enabled: false } }, { allowStdio: false });
    await waitFor("stopped", session, (s) => s?.status === "stopped", 10_000);
    await waitFor("lease released", () => ctx.db.serverLease.findUnique({ where: { serverId: id } }), (l) => l === null, 10_000);
    await deleteServer(ctx, { serverId: id });
    await expectAuditRow(ctx, { action: "server.deleted", target: { type: "server", id }, details: { name: "added", transport: "streamable_http" } });
    expect(await ctx.db.mcpServer.findUnique({ where: { id } })).toBeNull();
  });

  it("rejects invalid input with field messages, stdio without permission, and duplicate names", async () => {
    await expect(createServer(ctx, { name: "", transport: "streamable-http" }, { allowStdio: true })).rejects.toMatchObject({
      code: "INVALID_INPUT",
      details: { fields: { name: "name is required", url: "url is required for HTTP servers" } },
    });
    await expect(createServer(ctx, { name: "x", transport: "streamable-http", url: "ftp://h/" }, { allowStdio: true })).rejects.toMatchObject({ code: "INVALID_INPUT" });
    await expect(createServer(ctx, { name: "x", transport: "stdio", command: "node" }, { allowStdio: false })).rejects.toMatchObject({ code: "FORBIDDEN" });
    await expect(createServer(ctx, { name: "p", transport: "sse", url: a.url, pollIntervalSeconds: 5 }, { allowStdio: true })).rejects.toMatchObject({
      details: { fields: { pollIntervalSeconds: "pollIntervalSeconds is at least 10" } },
    });
    await createServer(ctx, { name: "dup", transport: "sse", url: a.url, enabled: false }, { allowStdio: true });
    await expect(createServer(ctx, { name: "dup", transport: "sse", url: a.url }, { allowStdio: true })).rejects.toMatchObject({ code: "CONFLICT" });
  });
});
