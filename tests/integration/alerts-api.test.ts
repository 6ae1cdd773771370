// api-client comes first: it points lib/env at the per-run test database before anything reads it.
import { addMember, call, createHttpServer, createTeam, disableServers, expectStatus, signUp, UNREACHABLE_URL, type TestTeam, type TestUser } from "@/tests/helpers/api-client";
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { evaluateSnapshot } from "@/lib/alerts/evaluate-snapshot";
import { hashTool } from "@/lib/snapshots/canonical-hash";
import { recordSnapshot } from "@/lib/snapshots/record-snapshot";
import { testDb } from "@/tests/helpers/factories";
import { POISONED_ADD, add, notes, search } from "./alerts-fixtures";

// The reviewer's side over the REST routes: list, detail with diff, approve (bound to the hash the
// reviewer saw), reject, acknowledge one or many; roles and team isolation; the audit trail.
type Tool = { name: string } & Record<string, unknown>;

describe("alerts API", () => {
  let owner: TestUser;
  let member: TestUser;
  let viewer: TestUser;
  let team: TestTeam;
  let other: TestTeam;
  let serverId: string;

  const record = async (tools: Tool[], id = serverId) => {
    const result = await recordSnapshot(team.ctx, { serverId: id, tools, trigger: "list_changed" });
    return evaluateSnapshot(team.ctx, { serverId: id, trigger: result.kind });
  };
  const alertOf = async (kind: string, toolName: string) => testDb().alert.findFirstOrThrow({ where: { tenantId: team.id, kind: kind as never, toolName }, orderBy: { createdAt: "desc" } });
  const audit = (action: string, targetId: string) => testDb().auditEvent.findMany({ where: { tenantId: team.id, action, targetId } });

  beforeAll(async () => {
    owner = await signUp("alerts-owner");
    team = await createTeam(owner, "alerts");
    member = await signUp("alerts-member");
    viewer = await signUp("alerts-viewer");
    await addMember(team, member, "member");
    await addMember(team, viewer, "viewer");
    other = await createTeam(await signUp("alerts-other"), "alerts-other");
    serverId = await createHttpServer(team, "alerts-files");
    await record([add(), notes(), search()]);
    await record([POISONED_ADD, notes("Read the notes of the current project, newest first."), search({ mode: { type: "string", enum: ["a", "b"] } }, ["query", "mode"])]);
  });
  afterAll(() => disableServers(team, other));

  it("GET /api/v1/alerts lists the team's alerts newest first, filtered and paged", async () => {
    const all = expectStatus(await call("GET", "/api/v1/alerts", { as: viewer.caller }), 200).json;
    expect(all.items.map((a: { kind: string }) => a.kind).sort()).toEqual(["breaking_change", "suspicious_content"]);
    expect(all.items[0]).toMatchObject({ serverId, serverName: "alerts-files", status: "open" });
    expect(all.items[0].findingCount).toBeGreaterThan(0);
    const critical = expectStatus(await call("GET", `/api/v1/alerts?severity=critical&status=open,acknowledged&serverId=${serverId}`, { as: viewer.caller }), 200).json;
    expect(critical.items).toMatchObject([{ kind: "suspicious_content", toolName: "add", candidateHash: hashTool(POISONED_ADD) }]);
    const byKind = expectStatus(await call("GET", "/api/v1/alerts?kind=breaking_change", { as: viewer.caller }), 200).json;
    expect(byKind.items.map((a: { toolName: string }) => a.toolName)).toEqual(["search"]);
    const first = expectStatus(await call("GET", "/api/v1/alerts?limit=1", { as: viewer.caller }), 200).json;
    expect(first.items).toHaveLength(1);
    const second = expectStatus(await call("GET", `/api/v1/alerts?limit=1&cursor=${first.nextCursor}`, { as: viewer.caller }), 200).json;
    expect(second.items).toHaveLength(1);
    expect(second.items[0].id).not.toBe(first.items[0].id);
    expect(second.nextCursor).toBeNull();
  });

  it("GET /api/v1/alerts?from=&to= keeps the alerts created inside the window (a view's time range)", async () => {
    const newest = expectStatus(await call("GET", "/api/v1/alerts?limit=1", { as: viewer.caller }), 200).json.items[0];
    const at = encodeURIComponent(newest.createdAt);
    const since = expectStatus(await call("GET", `/api/v1/alerts?from=${at}`, { as: viewer.caller }), 200).json;
    expect(since.items.map((a: { id: string }) => a.id)).toContain(newest.id);
    const future = encodeURIComponent(new Date(Date.now() + 60_000).toISOString());
    expect(expectStatus(await call("GET", `/api/v1/alerts?from=${future}`, { as: viewer.caller }), 200).json.items).toEqual([]);
    const past = encodeURIComponent(new Date(Date.parse(newest.createdAt) - 3_600_000).toISOString());
    expect(expectStatus(await call("GET", `/api/v1/alerts?to=${past}`, { as: viewer.caller }), 200).json.items).toEqual([]);
    expect(expectStatus(await call("GET", `/api/v1/alerts?from=${past}&to=${at}`, { as: viewer.caller }), 200).json.items.length).toBe(2);
  });

  it.each([
    ["status=bogus", "status"],
    ["severity=urgent", "severity"],
    ["kind=fire", "kind"],
    ["serverId=abc", "serverId"],
    ["limit=0", "limit"],
    ["cursor=not-a-cursor", "cursor"],
    ["from=yesterday", "from"],
    ["from=2026-05-02T00:00:00Z&to=2026-05-01T00:00:00Z", "from"],
  ])("GET /api/v1/alerts?%s → 400 naming the field", async (query, field) => {
    const res = await call("GET", `/api/v1/alerts?${query}`, { as: owner.caller });
    expect(res.status, res.text).toBe(400);
    expect(res.json.error).toMatchObject({ code: "INVALID_INPUT", details: { fields: { [field]: expect.any(String) } } });
  });

  it("GET /api/v1/alerts/{id} shows both versions, the diff (pointers, word segments) and findings with evidence", async () => {
    const alert = await alertOf("suspicious_content", "add");
    const res = expectStatus(await call("GET", `/api/v1/alerts/${alert.id}`, { as: viewer.caller }), 200).json;
    expect(res.alert).toMatchObject({ id: alert.id, kind: "suspicious_content", severity: "critical" });
    expect(res.server).toMatchObject({ id: serverId, name: "alerts-files", auditPolicy: "trust_first" });
    expect(res.baselineVersion).toMatchObject({ hash: hashTool(add()), definition: add() });
    expect(res.candidateVersion).toMatchObject({ hash: hashTool(POISONED_ADD), definition: POISONED_ADD });
    expect(res.baseline).toMatchObject({ toolName: "add", approvedHash: hashTool(add()), source: "first_seen", blockedHash: null });
    const description = res.diff.fields.find((f: { pointer: string }) => f.pointer === "/description");
    expect(description.words.filter((w: { op: string }) => w.op === "insert").map((w: { text: string }) => w.text).join("")).toContain("id_rsa");
    expect(res.diff.fields.map((f: { pointer: string }) => f.pointer)).toContain("/inputSchema/properties/sidenote");
    const r13 = res.findings.find((f: { ruleId: string }) => f.ruleId === "R13");
    expect(r13).toMatchObject({ source: "audit", severity: "high", pointer: "/description" });
    expect(r13.evidence.text).toMatch(/id_rsa/);
    expect(res.details.classification.kind).toBe("needs-review");
    expect(res.decisions).toEqual([]);
  });

  it("approve with a stale hash → 409 with the current hash; the current hash approves, moves the baseline and resolves", async () => {
    const seen = (await alertOf("suspicious_content", "add")).candidateHash!;
    const moved = { ...POISONED_ADD, description: `${POISONED_ADD.description as string}\nAlso works with decimals.` };
    await record([moved, notes("Read the notes of the current project, newest first."), search({ mode: { type: "string", enum: ["a", "b"] } }, ["query", "mode"])]);
    const alert = await alertOf("suspicious_content", "add");
    const stale = await call("POST", `/api/v1/alerts/${alert.id}/approve`, { as: member.caller, body: { hash: seen, comment: "looked fine" } });
    expect(stale.status, stale.text).toBe(409);
    expect(stale.json.error).toMatchObject({ code: "CONFLICT", details: { currentHash: hashTool(moved) } });
    expect(stale.json.error.message).toMatch(/changed/);
    const ok = expectStatus(await call("POST", `/api/v1/alerts/${alert.id}/approve`, { as: member.caller, body: { hash: hashTool(moved), comment: "vendor confirmed the new sidenote field" } }), 200).json;
    expect(ok).toMatchObject({ status: "resolved", resolution: "approved", resolvedBy: member.email, comment: "vendor confirmed the new sidenote field" });
    const baseline = await testDb().toolBaseline.findUniqueOrThrow({ where: { serverId_toolName: { serverId, toolName: "add" } } });
    expect(baseline).toMatchObject({ approvedHash: hashTool(moved), source: "approved", approvedBy: member.email, blockedHash: null });
    expect(await audit("alert.approved", alert.id)).toMatchObject([{ actorLabel: member.email, details: { hash: hashTool(moved), comment: "vendor confirmed the new sidenote field", toolName: "add" } }]);
    // Decided is decided: the same version raises nothing again, a second approval is a conflict.
    expect(await evaluateSnapshot(team.ctx, { serverId, trigger: "confirmed" })).toMatchObject({ opened: [], updated: [] });
    expect((await call("POST", `/api/v1/alerts/${alert.id}/approve`, { as: member.caller, body: { hash: hashTool(moved) } })).status).toBe(409);
    const detail = expectStatus(await call("GET", `/api/v1/alerts/${alert.id}`, { as: viewer.caller }), 200).json;
    expect(detail.decisions).toMatchObject([{ action: "alert.approved", actor: member.email, comment: "vendor confirmed the new sidenote field" }]);
  });

  it("approve needs a hash, and alerts without a version cannot be approved or rejected (409)", async () => {
    const alert = await alertOf("breaking_change", "search");
    const missing = await call("POST", `/api/v1/alerts/${alert.id}/approve`, { as: member.caller, body: {} });
    expect(missing.status).toBe(400);
    expect(missing.json.error.details.fields.hash).toBeTruthy();
    const down = await testDb().alert.create({ data: { tenantId: team.id, serverId, kind: "server_down", severity: "medium", title: "down", dedupeKey: "server_down:probe" } });
    expect((await call("POST", `/api/v1/alerts/${down.id}/approve`, { as: member.caller, body: { hash: "x" } })).status).toBe(409);
    expect((await call("POST", `/api/v1/alerts/${down.id}/reject`, { as: member.caller })).status).toBe(409);
  });

  it("reject keeps the alert open and blocks the tool; a later plain edit of a blocked tool is not auto-accepted", async () => {
    const alert = await alertOf("breaking_change", "search");
    const res = expectStatus(await call("POST", `/api/v1/alerts/${alert.id}/reject`, { as: member.caller, body: { comment: "mode breaks our agents" } }), 200).json;
    expect(res).toMatchObject({ status: "open", resolution: null, comment: "mode breaks our agents" });
    const baseline = await testDb().toolBaseline.findUniqueOrThrow({ where: { serverId_toolName: { serverId, toolName: "search" } } });
    expect(baseline).toMatchObject({ approvedHash: hashTool(search()), blockedHash: alert.candidateHash });
    expect(await audit("alert.rejected", alert.id)).toMatchObject([{ actorLabel: member.email, details: { comment: "mode breaks our agents", hash: alert.candidateHash } }]);
    const reworded = { ...search(), description: "Search the whole catalog." };
    const result = await record([add(), notes("Read the notes of the current project, newest first."), reworded]);
    expect(result.autoAccepted).toEqual([]);
    expect(await alertOf("breaking_change", "search")).toMatchObject({ id: alert.id, candidateHash: hashTool(reworded), status: "open" });
  });

  it("acknowledge one (idempotent) and in bulk; missing, foreign and already-acknowledged ids are reported, not fatal", async () => {
    const server2 = await createHttpServer(team, "alerts-ack");
    await record([{ name: "ack_one", inputSchema: { type: "object" } }, { name: "ack_two", inputSchema: { type: "object" } }, { name: "ack_three", inputSchema: { type: "object" } }], server2);
    await record([], server2); // collapse: one list_collapsed
    await record([{ name: "ack_one", inputSchema: { type: "object" } }, { name: "ack_two", inputSchema: { type: "object" } }], server2); // recovered; ack_three removed
    const removed = await alertOf("tool_removed", "ack_three");
    const one = expectStatus(await call("POST", `/api/v1/alerts/${removed.id}/acknowledge`, { as: member.caller, body: { comment: "planned removal" } }), 200).json;
    expect(one).toMatchObject({ status: "acknowledged", acknowledgedBy: member.email, comment: "planned removal" });
    expectStatus(await call("POST", `/api/v1/alerts/${removed.id}/acknowledge`, { as: member.caller }), 200);
    expect(await audit("alert.acknowledged", removed.id)).toHaveLength(1);

    const collapsed = await alertOf("list_collapsed", null as never);
    expect(collapsed.status).toBe("resolved");
    expect((await call("POST", `/api/v1/alerts/${collapsed.id}/acknowledge`, { as: member.caller })).status).toBe(409);

    const foreign = await testDb().alert.create({ data: { tenantId: other.id, serverId: await createHttpServer(other, "other-srv"), kind: "tool_changed", severity: "low", title: "theirs", dedupeKey: "tool_changed:x" } });
    const target = await testDb().alert.create({ data: { tenantId: team.id, serverId: server2, kind: "tool_changed", severity: "low", title: "bulk target", dedupeKey: "tool_changed:bulk" } });
    const missing = randomUUID();
    const bulk = expectStatus(await call("POST", "/api/v1/alerts/acknowledge", { as: member.caller, body: { ids: [target.id, removed.id, missing, foreign.id], comment: "triaged" } }), 200).json;
    expect(bulk.acknowledged).toEqual([target.id]);
    expect(bulk.skipped).toEqual([
      { id: removed.id, reason: "already acknowledged" },
      { id: missing, reason: "not found" },
      { id: foreign.id, reason: "not found" },
    ]);
    expect((await testDb().alert.findUniqueOrThrow({ where: { id: foreign.id } })).status).toBe("open");
    expect((await call("POST", "/api/v1/alerts/acknowledge", { as: member.caller, body: { ids: [] } })).status).toBe(400);
  });

  it("approving a removal retires the baseline (a return is a new tool); rejecting a suspicious first-seen version un-pins it", async () => {
    const removed = await alertOf("tool_removed", "ack_three");
    const stale = await call("POST", `/api/v1/alerts/${removed.id}/approve`, { as: member.caller, body: { hash: "jcs-sha256:other" } });
    expect(stale.json.error.details).toEqual({ currentHash: removed.baselineHash });
    expectStatus(await call("POST", `/api/v1/alerts/${removed.id}/approve`, { as: member.caller, body: { hash: removed.baselineHash, comment: "retired" } }), 200);
    expect(await testDb().toolBaseline.findFirst({ where: { serverId: removed.serverId, toolName: "ack_three" } })).toBeNull();

    const server3 = await createHttpServer(team, "alerts-first-seen");
    const shady = { ...POISONED_ADD, name: "shady_add" };
    await record([shady], server3);
    const alert = await alertOf("suspicious_content", "shady_add");
    expect(alert).toMatchObject({ baselineHash: null, candidateHash: hashTool(shady) });
    expectStatus(await call("POST", `/api/v1/alerts/${alert.id}/reject`, { as: owner.caller, body: { hash: hashTool(shady), comment: "never trust this" } }), 200);
    expect(await testDb().toolBaseline.findFirstOrThrow({ where: { serverId: server3, toolName: "shady_add" } })).toMatchObject({ approvedHash: null, blockedHash: hashTool(shady) });
    // Its next version is judged as awaiting approval, on the same alert.
    const cleaned = { ...add(), name: "shady_add" };
    await record([cleaned], server3);
    expect(await alertOf("suspicious_content", "shady_add")).toMatchObject({ id: alert.id, candidateHash: hashTool(cleaned), status: "open" });
  });

  it("viewers read alerts but may not decide (403); another team gets 404 for every alert route", async () => {
    const alert = await alertOf("breaking_change", "search");
    expectStatus(await call("GET", `/api/v1/alerts/${alert.id}`, { as: viewer.caller }), 200);
    for (const [path, body] of [
      [`/api/v1/alerts/${alert.id}/approve`, { hash: alert.candidateHash }],
      [`/api/v1/alerts/${alert.id}/reject`, {}],
      [`/api/v1/alerts/${alert.id}/acknowledge`, {}],
      ["/api/v1/alerts/acknowledge", { ids: [alert.id] }],
    ] as const) {
      const res = await call("POST", path, { as: viewer.caller, body });
      expect(res.status, `${path}: ${res.text}`).toBe(403);
      expect(res.json.error.message).toMatch(/may not acknowledge and review alerts/);
    }
    const stranger = other.owner.caller;
    expect((await call("GET", `/api/v1/alerts/${alert.id}`, { as: stranger })).status).toBe(404);
    for (const verb of ["approve", "reject", "acknowledge"]) {
      const res = await call("POST", `/api/v1/alerts/${alert.id}/${verb}`, { as: stranger, body: { hash: alert.candidateHash } });
      const random = await call("POST", `/api/v1/alerts/${randomUUID()}/${verb}`, { as: stranger, body: { hash: alert.candidateHash } });
      expect([res.status, res.json]).toEqual([404, random.json]);
    }
    expect((await call("GET", "/api/v1/alerts/not-a-uuid", { as: owner.caller })).status).toBe(404);
    const theirs = expectStatus(await call("GET", `/api/v1/alerts?serverId=${serverId}`, { as: stranger }), 200).json;
    expect(theirs.items).toEqual([]);
    expect((await testDb().alert.findUniqueOrThrow({ where: { id: alert.id } })).status).toBe("open");
  });

  it("a server's audit policy is set by POST or PATCH and shown by GET; strict makes new tools wait for approval", async () => {
    const created = expectStatus(await call("POST", "/api/v1/servers", { as: owner.caller, body: { name: "alerts-strict", transport: "streamable-http", url: UNREACHABLE_URL, auditPolicy: "strict", enabled: false } }), 201).json;
    expect(created.server.auditPolicy).toBe("strict");
    const id = created.server.id as string;
    const patched = expectStatus(await call("PATCH", `/api/v1/servers/${id}`, { as: owner.caller, body: { auditPolicy: "trust_first" } }), 200).json;
    expect(patched.server.auditPolicy).toBe("trust_first");
    expect((await call("PATCH", `/api/v1/servers/${id}`, { as: owner.caller, body: { auditPolicy: "paranoid" } })).status).toBe(400);
    expectStatus(await call("PATCH", `/api/v1/servers/${id}`, { as: owner.caller, body: { auditPolicy: "strict" } }), 200);
    expect((await call("GET", `/api/v1/servers/${id}`, { as: viewer.caller })).json.server.auditPolicy).toBe("strict");
    await record([{ name: "strict_tool", description: "Does a thing.", inputSchema: { type: "object" } }], id);
    const pending = await alertOf("tool_added", "strict_tool");
    expect(pending).toMatchObject({ severity: "low", baselineHash: null, status: "open" });
    expectStatus(await call("POST", `/api/v1/alerts/${pending.id}/approve`, { as: member.caller, body: { hash: pending.candidateHash, comment: "reviewed" } }), 200);
    expect(await testDb().toolBaseline.findUniqueOrThrow({ where: { serverId_toolName: { serverId: id, toolName: "strict_tool" } } })).toMatchObject({ approvedHash: pending.candidateHash, source: "approved" });
  });

  it("every decision is in the team's audit log with who, when and the comment", async () => {
    const log = expectStatus(await call("GET", "/api/v1/audit?limit=200", { as: owner.caller }), 200).json;
    const entries = log.items as { action: string; actor: { label: string } | string; details: { comment?: string } | null; at: string }[];
    const actions = entries.map((e) => e.action);
    expect(actions).toEqual(expect.arrayContaining(["alert.approved", "alert.rejected", "alert.acknowledged", "baseline.auto_accepted"]));
    const comments = entries.filter((e) => e.action.startsWith("alert.")).map((e) => e.details?.comment);
    expect(comments).toEqual(expect.arrayContaining(["vendor confirmed the new sidenote field", "mode breaks our agents", "planned removal", "triaged"]));
    expect(entries.every((e) => typeof e.at === "string")).toBe(true);
  });
});
