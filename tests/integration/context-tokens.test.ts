// api-client comes first: it points lib/env at the per-run test database before anything reads it.
import { call, createHttpServer, createTeam, disableServers, expectStatus, mintKey, signUp, type Caller, type TestTeam } from "@/tests/helpers/api-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkContextBudget } from "@/lib/alerts/context-budget-alert";
import { backfillContextTokens } from "@/lib/context-tokens/backfill-context-tokens";
import { fillContextTokens } from "@/lib/context-tokens/fill-context-tokens";
import { getTeamContextTokens } from "@/lib/context-tokens/team-context-tokens";
import { recordSnapshot } from "@/lib/snapshots/record-snapshot";
import { testDb } from "@/tests/helpers/factories";

// Context tokens against a real Postgres: the columns the write path fills, the backfill of rows
// from before counting, the API's contextTokens, and the team budget's alert.
//
// Hand-checked o200k_base counts (their token splits are spelled out in tests/unit/context-tokens.test.ts):
//   weather tool {"name":"get_weather","description":"Get the weather","inputSchema":{"type":"object"}} → 19
//   tool or prompt {"name":"a"} → 5          instructions "hello world" → 2
const WEATHER = { name: "get_weather", description: "Get the weather", inputSchema: { type: "object" } };
const A = { name: "a" };
const SURFACE = { prompts: [{ name: "a" }], resources: null, resourceTemplates: null, instructions: "hello world" };

let owner: Caller;
let team: TestTeam;
let budgetTeam: TestTeam;
let viewerKey: Caller;

beforeAll(async () => {
  const user = await signUp("tokens");
  owner = user.caller;
  team = await createTeam(user, "tokens");
  budgetTeam = await createTeam(user, "budget");
  expectStatus(await call("POST", "/api/v1/teams/active", { as: owner, body: { teamId: team.id } }), 200);
  viewerKey = (await mintKey(owner, "viewer", "viewer-key")).caller;
});

afterAll(async () => {
  if (team && budgetTeam) await disableServers(team, budgetTeam);
});

const versionTokens = async (tenantId: string) =>
  Object.fromEntries((await testDb().toolVersion.findMany({ where: { tenantId }, select: { kind: true, name: true, contextTokens: true } })).map((v) => [`${v.kind}:${v.name}`, v.contextTokens]));

describe("context tokens on the listing write path", () => {
  let serverId: string;
  let first: string;
  let second: string;

  it("counts each new version once on insert and stores the snapshot's sum (tools, prompts and instructions)", async () => {
    serverId = await createHttpServer(team, "weather");
    const r1 = await recordSnapshot(team.ctx, { serverId, tools: [WEATHER], surface: SURFACE, trigger: "connect" });
    first = r1.snapshotId;
    expect(await versionTokens(team.id)).toEqual({ "tool:get_weather": 19, "prompt:a": 5, "instructions:instructions": 2 });
    expect((await testDb().snapshot.findUniqueOrThrow({ where: { id: first } })).contextTokens).toBe(19 + 5 + 2);
  });

  it("a changed list counts only versions the previous snapshot lacked; known rows keep their stored count", async () => {
    // A marker on the stored row: had the write path re-counted get_weather, its 19 would show instead.
    await testDb().toolVersion.updateMany({ where: { tenantId: team.id, name: "get_weather" }, data: { contextTokens: 1000 } });
    const r2 = await recordSnapshot(team.ctx, { serverId, tools: [WEATHER, A], surface: SURFACE, trigger: "list_changed" });
    second = r2.snapshotId;
    expect(r2.kind).toBe("created");
    expect(await versionTokens(team.id)).toEqual({ "tool:get_weather": 1000, "tool:a": 5, "prompt:a": 5, "instructions:instructions": 2 });
    expect((await testDb().snapshot.findUniqueOrThrow({ where: { id: second } })).contextTokens).toBe(1000 + 5 + 5 + 2);
    await testDb().toolVersion.updateMany({ where: { tenantId: team.id, name: "get_weather" }, data: { contextTokens: 19 } });
    await testDb().snapshot.update({ where: { id: second }, data: { contextTokens: 19 + 5 + 5 + 2 } });
  });

  it("the API returns contextTokens on servers, the server's tools and surface, snapshots and tool history", async () => {
    const list = expectStatus(await call("GET", "/api/v1/servers", { as: viewerKey }), 200).json;
    expect(list.items.find((s: { id: string }) => s.id === serverId).contextTokens).toBe(31);

    const detail = expectStatus(await call("GET", `/api/v1/servers/${serverId}`, { as: viewerKey }), 200).json;
    expect(detail.server.contextTokens).toBe(31);
    expect(detail.tools.map((t: { name: string; contextTokens: number }) => [t.name, t.contextTokens])).toEqual([["get_weather", 19], ["a", 5]]);
    expect(detail.surface.items.map((i: { kind: string; contextTokens: number }) => [i.kind, i.contextTokens])).toEqual([["prompt", 5], ["instructions", 2]]);

    const snapshots = expectStatus(await call("GET", `/api/v1/servers/${serverId}/snapshots`, { as: viewerKey }), 200).json;
    expect(snapshots.items.map((s: { contextTokens: number }) => s.contextTokens)).toEqual([31, 26]);

    const snapshot = expectStatus(await call("GET", `/api/v1/snapshots/${first}`, { as: viewerKey }), 200).json;
    expect(snapshot.contextTokens).toBe(26);
    expect(snapshot.tools[0].contextTokens).toBe(19);

    const history = expectStatus(await call("GET", `/api/v1/servers/${serverId}/tools/get_weather/history`, { as: viewerKey }), 200).json;
    expect(history.versions[0].contextTokens).toBe(19);
  });

  it("rows stored before counting read as null, and the backfill counts and sums them", async () => {
    const old = await createHttpServer(team, "old");
    const { snapshotId } = await recordSnapshot(team.ctx, { serverId: old, tools: [{ name: "b" }, { name: "c", description: "hello world" }], trigger: "connect" });
    // As the migration leaves them: every version and snapshot of this server NULL.
    await testDb().toolVersion.updateMany({ where: { tenantId: team.id, name: { in: ["b", "c"] } }, data: { contextTokens: null } });
    await testDb().snapshot.update({ where: { id: snapshotId }, data: { contextTokens: null } });
    const before = expectStatus(await call("GET", `/api/v1/servers/${old}`, { as: viewerKey }), 200).json;
    expect(before.server.contextTokens).toBeNull();
    expect(before.tools.map((t: { contextTokens: number | null }) => t.contextTokens)).toEqual([null, null]);

    const result = await backfillContextTokens(testDb(), { batchSize: 1, pauseMs: 0 });
    expect(result.versions).toBeGreaterThanOrEqual(2);
    expect(result.snapshots).toBeGreaterThanOrEqual(1);
    // {"name":"b"} → 5; {"name":"c","description":"hello world"} → {" name ":" c "," description ":" hello ␣world "} → 10.
    expect(await versionTokens(team.id)).toMatchObject({ "tool:b": 5, "tool:c": 10 });
    expect((await testDb().snapshot.findUniqueOrThrow({ where: { id: snapshotId } })).contextTokens).toBe(15);
    const again = await backfillContextTokens(testDb(), { pauseMs: 0 });
    expect(again).toEqual({ versions: 0, snapshots: 0 });
  });

  it("getTeamContextTokens() sums each server's latest snapshot", async () => {
    const total = await getTeamContextTokens(team.ctx);
    expect(total).toMatchObject({ totalTokens: 31 + 15, servers: 2, countedServers: 2, encoding: "o200k_base" });
    expect(total.largest.map((s) => [s.serverName, s.contextTokens])).toEqual([["weather", 31], ["old", 15]]);
  });
});

describe("context tokens counted off the listing path (recordSnapshot tokens: \"later\", as the worker stores)", () => {
  // Definitions no earlier test of this file listed, so this process holds no count for them.
  // {"name":"e"} → {" name ":" e "} → 5 and {"name":"f","description":"hello world"} → 10, split as b and c above;
  // {"name":"g"} and {"name":"h"} → 5 each.
  let later: TestTeam;
  const snapshotTokens = async (id: string) => (await testDb().snapshot.findUniqueOrThrow({ where: { id } })).contextTokens;

  beforeAll(async () => {
    later = await createTeam(team.owner, "later");
  });
  afterAll(async () => {
    if (later) await disableServers(later);
  });

  it("stores new versions and the snapshot uncounted; fillContextTokens counts and sums them, once", async () => {
    const serverId = await createHttpServer(later, "deferred");
    const { snapshotId } = await recordSnapshot(later.ctx, { serverId, tools: [{ name: "e" }, { name: "f", description: "hello world" }], trigger: "connect", tokens: "later" });
    expect(await versionTokens(later.id)).toEqual({ "tool:e": null, "tool:f": null });
    expect(await snapshotTokens(snapshotId)).toBeNull();
    // Until counted, the API says "not counted" rather than a wrong number.
    const before = expectStatus(await call("GET", `/api/v1/servers/${serverId}`, { as: owner }), 200).json;
    expect(before.server.contextTokens).toBeNull();

    expect(await fillContextTokens(testDb(), later.id, serverId)).toEqual({ versions: 2, snapshots: 1 });
    expect(await versionTokens(later.id)).toEqual({ "tool:e": 5, "tool:f": 10 });
    expect(await snapshotTokens(snapshotId)).toBe(15);
    expect(await fillContextTokens(testDb(), later.id, serverId)).toEqual({ versions: 0, snapshots: 0 });
  });

  it("sums every uncounted snapshot of the server (evaluations of one server coalesce), and no other server's", async () => {
    const serverId = await createHttpServer(later, "two-listings");
    const bystander = await createHttpServer(later, "bystander");
    const first = await recordSnapshot(later.ctx, { serverId, tools: [{ name: "g" }], trigger: "connect", tokens: "later" });
    const second = await recordSnapshot(later.ctx, { serverId, tools: [{ name: "g" }, { name: "h" }], trigger: "list_changed", tokens: "later" });
    const untouched = await recordSnapshot(later.ctx, { serverId: bystander, tools: [{ name: "h" }, { name: "i" }], trigger: "connect", tokens: "later" });
    expect(await fillContextTokens(testDb(), later.id, serverId)).toEqual({ versions: 2, snapshots: 2 });
    expect([await snapshotTokens(first.snapshotId), await snapshotTokens(second.snapshotId)]).toEqual([5, 10]);
    // h is counted now (shared row of the team), i is not: the bystander's snapshot waits for its own turn.
    expect(await snapshotTokens(untouched.snapshotId)).toBeNull();
    expect(await fillContextTokens(testDb(), later.id, bystander)).toEqual({ versions: 1, snapshots: 1 });
    expect(await snapshotTokens(untouched.snapshotId)).toBe(10);
  });

  it("a version this process has counted before is stored counted at once, on another team too", async () => {
    const elsewhere = await createTeam(team.owner, "elsewhere");
    try {
      const serverId = await createHttpServer(elsewhere, "template-copy");
      // e and f were counted by the first test of this block: their counts are kept by content address.
      const { snapshotId } = await recordSnapshot(elsewhere.ctx, { serverId, tools: [{ name: "e" }, { name: "f", description: "hello world" }], trigger: "connect", tokens: "later" });
      expect(await versionTokens(elsewhere.id)).toEqual({ "tool:e": 5, "tool:f": 10 });
      expect(await snapshotTokens(snapshotId)).toBe(15);
    } finally {
      await disableServers(elsewhere);
    }
  });
});

describe("the team's context budget", () => {
  let x: string;
  let y: string;
  const openAlerts = () => testDb().alert.findMany({ where: { tenantId: budgetTeam.id, kind: "context_budget", status: { not: "resolved" } } });
  const patch = (body: unknown, as: Caller = owner) => call("PATCH", "/api/v1/team/context-budget", { as, body });

  beforeAll(async () => {
    expectStatus(await call("POST", "/api/v1/teams/active", { as: owner, body: { teamId: budgetTeam.id } }), 200);
    expectStatus(await call("POST", "/api/v1/webhooks", { as: owner, body: { name: "budget-hook", url: "http://127.0.0.1:9/hook", format: "json", minSeverity: "low" } }), 201);
    x = await createHttpServer(budgetTeam, "x");
    y = await createHttpServer(budgetTeam, "y");
  });

  it("is off by default; only admins may set it, and bad values are a 400 naming the field", async () => {
    const read = expectStatus(await call("GET", "/api/v1/team/context-budget", { as: owner }), 200).json;
    expect(read).toEqual({ budgetTokens: null, totalTokens: 0, servers: 2, countedServers: 0, largest: [], encoding: "o200k_base", alertId: null });
    const viewer = (await mintKey(owner, "viewer", "budget-viewer")).caller;
    expect((await patch({ budgetTokens: 30 }, viewer)).status).toBe(403);
    for (const bad of [{ budgetTokens: 0 }, { budgetTokens: 1.5 }, { budgetTokens: "30" }, {}, { budgetTokens: 30, extra: 1 }, { budgetTokens: 100_000_001 }]) {
      const res = await patch(bad);
      expect(res.status, JSON.stringify(bad)).toBe(400);
      expect(res.json.error.code).toBe("INVALID_INPUT");
    }
    const set = expectStatus(await patch({ budgetTokens: 30 }), 200).json;
    expect(set.budgetTokens).toBe(30);
    const audit = await testDb().auditEvent.findFirstOrThrow({ where: { tenantId: budgetTeam.id, action: "team.context_budget_updated" } });
    expect(audit.details).toEqual({ from: null, to: 30 });
  });

  it("a snapshot that pushes the team past the budget opens one medium context_budget alert, naming the change, and queues its webhook", async () => {
    const sx = await recordSnapshot(budgetTeam.ctx, { serverId: x, tools: [WEATHER], trigger: "connect" });
    expect(await checkContextBudget(budgetTeam.ctx, { serverId: x, snapshotId: sx.snapshotId })).toBeNull(); // 19 ≤ 30
    const sy = await recordSnapshot(budgetTeam.ctx, { serverId: y, tools: [WEATHER, A], trigger: "connect" });
    expect(await checkContextBudget(budgetTeam.ctx, { serverId: y, snapshotId: sy.snapshotId })).toBe("opened"); // 19 + 24 = 43 > 30
    const [alert, ...more] = await openAlerts();
    expect(more).toHaveLength(0);
    expect(alert).toMatchObject({ serverId: y, snapshotId: sy.snapshotId, severity: "medium", status: "open" });
    expect(alert!.title).toBe("The team's tool lists cost 43 tokens, over the context budget of 30 (≈ tokens, o200k_base)");
    expect((alert!.details as { contextBudget: unknown }).contextBudget).toEqual({
      budgetTokens: 30,
      totalTokens: 43,
      servers: 2,
      countedServers: 2,
      largest: [{ serverId: y, serverName: "y", contextTokens: 24 }, { serverId: x, serverName: "x", contextTokens: 19 }],
      pushedBy: { serverId: y, serverName: "y", snapshotId: sy.snapshotId, deltaTokens: 24 },
      encoding: "o200k_base",
    });
    const deliveries = await testDb().webhookDelivery.findMany({ where: { tenantId: budgetTeam.id, alertId: alert!.id } });
    expect(deliveries.map((d) => d.event)).toEqual(["alert.opened"]);
  });

  it("a further change updates the one open alert (no second alert, no second webhook)", async () => {
    const sx = await recordSnapshot(budgetTeam.ctx, { serverId: x, tools: [WEATHER, A], trigger: "list_changed" });
    expect(await checkContextBudget(budgetTeam.ctx, { serverId: x, snapshotId: sx.snapshotId })).toBe("updated");
    const [alert, ...more] = await openAlerts();
    expect(more).toHaveLength(0);
    const details = (alert!.details as { contextBudget: { totalTokens: number; pushedBy: { serverId: string } } }).contextBudget;
    expect(details.totalTokens).toBe(48);
    expect(details.pushedBy.serverId).toBe(y);
    expect(await checkContextBudget(budgetTeam.ctx, { serverId: x, snapshotId: sx.snapshotId })).toBeNull(); // nothing moved
    expect(await testDb().webhookDelivery.count({ where: { tenantId: budgetTeam.id, alertId: alert!.id } })).toBe(1);
  });

  it("raising the budget resolves the alert at once; lowering it below the total opens one again; null turns it off", async () => {
    const raised = expectStatus(await patch({ budgetTokens: 1000 }), 200).json;
    expect(raised).toMatchObject({ budgetTokens: 1000, totalTokens: 48, alertId: null });
    const resolved = await testDb().alert.findFirstOrThrow({ where: { tenantId: budgetTeam.id, kind: "context_budget" } });
    expect(resolved).toMatchObject({ status: "resolved", resolution: "within_budget" });

    const lowered = expectStatus(await patch({ budgetTokens: 40 }), 200).json;
    expect(lowered.alertId).toEqual(expect.any(String));
    const [reopened] = await openAlerts();
    expect(reopened).toMatchObject({ id: lowered.alertId, snapshotId: null });
    expect((reopened!.details as { contextBudget: { pushedBy?: unknown; budgetTokens: number } }).contextBudget).toMatchObject({ budgetTokens: 40, totalTokens: 48 });
    expect((reopened!.details as { contextBudget: { pushedBy?: unknown } }).contextBudget.pushedBy).toBeUndefined();

    expect(expectStatus(await patch({ budgetTokens: null }), 200).json).toMatchObject({ budgetTokens: null, alertId: null });
    expect(await openAlerts()).toHaveLength(0);
    expect(await checkContextBudget(budgetTeam.ctx, null)).toBeNull();
  });

  it("the alert appears in the alerts API under its own kind", async () => {
    const page = expectStatus(await call("GET", "/api/v1/alerts?kind=context_budget&status=resolved", { as: owner }), 200).json;
    expect(page.items.length).toBe(2);
    expect(page.items.every((a: { kind: string }) => a.kind === "context_budget")).toBe(true);
  });
});
