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
