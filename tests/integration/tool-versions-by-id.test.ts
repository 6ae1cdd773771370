import { beforeAll, describe, expect, it } from "vitest";
import type { ServiceContext } from "@/lib/context";
import { recordSnapshot } from "@/lib/snapshots/record-snapshot";
import { versionHeadsById, versionRowsById } from "@/lib/snapshots/tool-versions-by-id";
import { createTenantContext, insertServerRow } from "@/tests/helpers/factories";

const tool = (name: string) => ({ name, description: `${name} things`, inputSchema: { type: "object", properties: {} } });

// The attacker's side first: a team that learns another team's version ids (they are uuids in
// snapshot rows it cannot read, but assume it guessed them) gets nothing back through its own scope.
describe("tool versions by id (one primary-key probe per id, tenant-scoped)", () => {
  let mine: ServiceContext;
  let stranger: ServiceContext;
  let myIds: string[];

  beforeAll(async () => {
    mine = await createTenantContext("tvid-mine");
    stranger = await createTenantContext("tvid-stranger");
    const server = await insertServerRow(mine, "tvid", { transport: "stdio", command: "true", args: [], env: {} });
    await mine.db.mcpServer.update({ where: { id: server.id }, data: { enabled: false } });
    const result = await recordSnapshot(mine, { serverId: server.id, tools: [tool("alpha"), tool("beta"), tool("gamma")], trigger: "connect" });
    const snap = await mine.db.snapshot.findFirstOrThrow({ where: { id: result.snapshotId } });
    myIds = snap.toolVersionIds;
  });

  it("returns each named version once, with its hash, name and kind, whatever the order or repeats", async () => {
    const heads = await versionHeadsById(mine.db, mine.tenantId, [myIds[2]!, myIds[0]!, myIds[2]!]);
    expect(heads.map((h) => h.name).sort()).toEqual(["alpha", "gamma"]);
    const stored = await mine.db.toolVersion.findMany({ where: { tenantId: mine.tenantId }, select: { id: true, hash: true, name: true, kind: true } });
    expect([...heads].sort((a, b) => a.name.localeCompare(b.name))).toEqual(stored.filter((s) => s.name !== "beta").sort((a, b) => a.name.localeCompare(b.name)));
    const rows = await versionRowsById(mine.db, mine.tenantId, myIds);
    expect(rows.map((r) => r.name).sort()).toEqual(["alpha", "beta", "gamma"]);
    expect(rows.find((r) => r.name === "beta")!.definition).toEqual(tool("beta"));
  });

  it("never returns another team's versions, even by their exact ids", async () => {
    expect(await versionHeadsById(stranger.db, stranger.tenantId, myIds)).toEqual([]);
    expect(await versionRowsById(stranger.db, stranger.tenantId, myIds)).toEqual([]);
  });

  it("an empty list or an unknown id returns nothing", async () => {
    expect(await versionHeadsById(mine.db, mine.tenantId, [])).toEqual([]);
    expect(await versionRowsById(mine.db, mine.tenantId, ["00000000-0000-4000-8000-000000000000"])).toEqual([]);
  });
});

describe("content addresses a caller hands in (the tool-list cache's, toolHashes)", () => {
  // sha256sum of the RFC 8785 text of tool("search") and tool("fetch"), computed outside the code.
  const SEARCH = "jcs-sha256:bde9de199fee1369880c42ad7ae374ce1e008dbd550534a81921576858971657";
  const FETCH = "jcs-sha256:cb1bb0fba95025fb920f57683b4b79aa08e803ffa7a0bb60e39a8b89879c9294";

  async function storedHashes(ctx: ServiceContext, toolHashes: string[]) {
    const server = await insertServerRow(ctx, `th-${toolHashes.length}`, { transport: "stdio", command: "true", args: [], env: {} }, { enabled: false });
    const result = await recordSnapshot(ctx, { serverId: server.id, tools: [tool("search"), tool("fetch")], toolHashes, trigger: "connect" });
    const snap = await ctx.db.snapshot.findFirstOrThrow({ where: { id: result.snapshotId } });
    const rows = await versionRowsById(ctx.db, ctx.tenantId, snap.toolVersionIds);
    return snap.toolVersionIds.map((id) => rows.find((r) => r.id === id)!.hash);
  }

  it("takes addresses that match the list one for one", async () => {
    expect(await storedHashes(await createTenantContext("tvid-hashes-a"), [SEARCH, FETCH])).toEqual([SEARCH, FETCH]);
  });

  it("ignores addresses of another length entirely (none of them is used) and computes its own", async () => {
    // Had the one address been used for the first tool, "search" would be stored under FETCH.
    expect(await storedHashes(await createTenantContext("tvid-hashes-b"), [FETCH])).toEqual([SEARCH, FETCH]);
  });
});
