import "@/tests/helpers/test-env";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { pruneHistory } from "@/lib/snapshots/prune-history";
import { recordSnapshot } from "@/lib/snapshots/record-snapshot";
import { call, createHttpServer, createTeam, disableServers, expectStatus, signUp, type TestTeam, type TestUser } from "@/tests/helpers/api-client";
import { testDb } from "@/tests/helpers/factories";

// The history store and diff API over real snapshots in a real Postgres, through the REST routes.
const readFile = (extra: Record<string, unknown> = {}, required = ["path"]) => ({
  name: "read_file",
  description: "Read a file from the workspace.",
  inputSchema: { type: "object", properties: { path: { type: "string" }, ...extra }, required },
});
const listDir = { name: "list_dir", description: "List a directory.", inputSchema: { type: "object", properties: { path: { type: "string" } } } };

describe("history and diffs", () => {
  let owner: TestUser;
  let team: TestTeam;
  let other: TestTeam;
  let serverId: string;
  const snaps: string[] = [];

  beforeAll(async () => {
    owner = await signUp("hist-owner");
    team = await createTeam(owner, "hist");
    other = await createTeam(await signUp("hist-other"), "hist-other");
    serverId = await createHttpServer(team, "files");
    const t0 = Date.now() - 10 * 86_400_000;
    const at = (days: number) => new Date(t0 + days * 86_400_000);
    // 1: two tools. 2: description-only edit. 3: a new required parameter (breaking). 4: list_dir removed.
    snaps.push((await recordSnapshot(team.ctx, { serverId, tools: [readFile(), listDir], trigger: "connect", serverVersion: "1.0.0", at: at(0) })).snapshotId);
    snaps.push((await recordSnapshot(team.ctx, { serverId, tools: [{ ...readFile(), description: "Read one file from the workspace." }, listDir], trigger: "list_changed", serverVersion: "1.0.0", at: at(1) })).snapshotId);
    snaps.push((await recordSnapshot(team.ctx, { serverId, tools: [readFile({ encoding: { type: "string" } }, ["path", "encoding"]), listDir], trigger: "poll", serverVersion: "1.1.0", at: at(2) })).snapshotId);
    snaps.push((await recordSnapshot(team.ctx, { serverId, tools: [readFile({ encoding: { type: "string" } }, ["path", "encoding"])], trigger: "poll", serverVersion: "1.1.0", at: at(3) })).snapshotId);
  });
  afterAll(() => disableServers(team, other));

  it("the timeline stores each snapshot's change summary, highest level, notification and version bump", async () => {
    const page = expectStatus(await call("GET", `/api/v1/servers/${serverId}/snapshots`, { as: owner.caller }), 200).json;
    expect(page.items.map((s: { changes: unknown }) => s.changes)).toMatchObject([
      { added: 0, removed: 1, changed: 0, highest: "ERR" },
      { added: 0, removed: 0, changed: 1, highest: "ERR", levels: { ERR: 1 } },
      { added: 0, removed: 0, changed: 1, highest: "INFO" },
      null,
    ]);
    expect(page.items.map((s: { notified: boolean }) => s.notified)).toEqual([false, false, true, false]);
    expect(page.items.map((s: { serverVersionChanged: boolean }) => s.serverVersionChanged)).toEqual([false, true, false, false]);
    expect(page.items[0].authContext).toBeNull(); // written by the test directly; the worker sets it
  });

  it("GET diff defaults to previous → latest", async () => {
    const res = expectStatus(await call("GET", `/api/v1/servers/${serverId}/diff`, { as: owner.caller }), 200).json;
    expect(res.from.id).toBe(snaps[2]);
    expect(res.to.id).toBe(snaps[3]);
    expect(res.diff.removed.map((t: { name: string }) => t.name)).toEqual(["list_dir"]);
  });

  it("a new required property is exactly one ERR naming the property's JSON Pointer", async () => {
    const res = expectStatus(await call("GET", `/api/v1/servers/${serverId}/diff?from=${snaps[1]}&to=${snaps[2]}`, { as: owner.caller }), 200).json;
    expect(res.diff.summary).toMatchObject({ changed: 1, highest: "ERR", levels: { ERR: 1 } });
    const findings = res.diff.changed[0].findings.filter((f: { level: string }) => f.level === "ERR");
    expect(findings).toHaveLength(1);
    expect(findings[0]).toMatchObject({ ruleId: "new-required-request-property", pointer: "/inputSchema/properties/encoding" });
  });

  it("a description-only change is INFO with a word-level diff", async () => {
    const res = expectStatus(await call("GET", `/api/v1/servers/${serverId}/diff?from=${snaps[0]}&to=${snaps[1]}`, { as: owner.caller }), 200).json;
    expect(res.diff.summary.highest).toBe("INFO");
    const field = res.diff.changed[0].fields.find((f: { pointer: string }) => f.pointer === "/description");
    expect(field.words.filter((w: { op: string }) => w.op !== "equal").map((w: { text: string }) => w.text.trim())).toEqual(expect.arrayContaining(["one"]));
  });

  it("tool history lists every version oldest first, each diffed with the one before", async () => {
    const res = expectStatus(await call("GET", `/api/v1/servers/${serverId}/tools/read_file/history`, { as: owner.caller }), 200).json;
    expect(res.current).toBe(true);
    expect(res.versions).toHaveLength(3);
    expect(res.versions[0].change).toBeNull();
    expect(res.versions[2].change.highest).toBe("ERR");
    expect(res.versions[2].snapshots).toBe(2);
    const gone = expectStatus(await call("GET", `/api/v1/servers/${serverId}/tools/list_dir/history`, { as: owner.caller }), 200).json;
    expect(gone.current).toBe(false);
    expectStatus(await call("GET", `/api/v1/servers/${serverId}/tools/never_there/history`, { as: owner.caller }), 404);
  });

  it("bad or foreign snapshot ids are 404, never 500; another team sees nothing", async () => {
    expectStatus(await call("GET", `/api/v1/servers/${serverId}/diff?from=nope`, { as: owner.caller }), 404);
    const foreign = await createHttpServer(team, "other-server");
    expectStatus(await call("GET", `/api/v1/servers/${foreign}/diff?to=${snaps[1]}`, { as: owner.caller }), 404);
    expectStatus(await call("GET", `/api/v1/servers/${foreign}/diff`, { as: owner.caller }), 404);
    expectStatus(await call("GET", `/api/v1/servers/${serverId}/diff`, { as: other.owner.caller }), 404);
    expectStatus(await call("GET", `/api/v1/servers/${serverId}/tools/read_file/history`, { as: other.owner.caller }), 404);
  });

  it("retention prunes old snapshots but keeps each server's latest and every version it references", async () => {
    const db = testDb();
    const before = await db.toolVersion.count({ where: { tenantId: team.id } });
    // The first read_file version is someone's approved baseline: it must survive pruning.
    const first = await db.snapshot.findUniqueOrThrow({ where: { id: snaps[0] } });
    const pinned = await db.toolVersion.findFirstOrThrow({ where: { id: first.toolVersionIds[0] } });
    await db.toolBaseline.create({ data: { tenantId: team.id, serverId, toolName: "read_file", approvedHash: pinned.hash, source: "approved" } });
    // Only this test's snapshots are old enough (9.5 days ago): others in the shared DB are recent.
    const result = await pruneHistory(db, new Date(Date.now() - 7.5 * 86_400_000));
    expect(result.snapshots).toBeGreaterThanOrEqual(3); // other suites may have old snapshots too
    const left = await db.snapshot.findMany({ where: { serverId }, select: { id: true } });
    expect(left.map((s) => s.id)).toEqual([snaps[3]]);
    const versions = await db.toolVersion.count({ where: { tenantId: team.id } });
    expect(versions).toBe(2); // read_file v3 (latest) and v1 (the baseline); v2 and list_dir went
    expect(before).toBe(4);
    const res = expectStatus(await call("GET", `/api/v1/snapshots/${snaps[3]}`, { as: owner.caller }), 200).json;
    expect(res.tools.map((t: { name: string }) => t.name)).toEqual(["read_file"]);
  });
});
