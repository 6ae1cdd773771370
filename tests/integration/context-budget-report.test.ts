// api-client comes first: it points lib/env at the per-run test database before anything reads it.
import { call, createHttpServer, createTeam, disableServers, expectStatus, mintKey, signUp, type Caller, type TestTeam } from "@/tests/helpers/api-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ContextBudgetReport } from "@/lib/openapi/responses";
import { recordSnapshot } from "@/lib/snapshots/record-snapshot";
import { getContextBudgetReport } from "@/lib/tenants/context-budget-report";
import { testDb } from "@/tests/helpers/factories";

// The budget page's report (GET /api/v1/team/context-budget/report) against a real Postgres: two
// servers with snapshots on different UTC days, the per-day team total, the costliest servers, the
// budget's percentage and its alert, and that another team sees none of it.
//
// Hand-checked o200k_base counts (split in tests/unit/context-tokens.test.ts):
//   WEATHER {"name":"get_weather","description":"Get the weather","inputSchema":{"type":"object"}} → 19
//   A {"name":"a"} → 5
const WEATHER = { name: "get_weather", description: "Get the weather", inputSchema: { type: "object" } };
const A = { name: "a" };

/** Midnight UTC `n` days before today, plus `hours`. */
const daysAgo = (n: number, hours: number) => {
  const now = new Date();
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() - n, hours));
};
const dayString = (n: number) => daysAgo(n, 0).toISOString().slice(0, 10);

let team: TestTeam;
let owner: Caller;
let stranger: Caller;
let strangerTeam: TestTeam;
let x: string;
let y: string;

/** Records a listing, then moves it to `at` (the write path stamps now()). */
async function snapshotAt(serverId: string, tools: Array<{ name: string } & Record<string, unknown>>, at: Date | null) {
  const r = await recordSnapshot(team.ctx, { serverId, tools, trigger: "connect" });
  if (at) await testDb().snapshot.update({ where: { id: r.snapshotId }, data: { takenAt: at } });
}

beforeAll(async () => {
  const user = await signUp("report");
  owner = user.caller;
  team = await createTeam(user, "report");
  const other = await signUp("stranger");
  stranger = other.caller;
  strangerTeam = await createTeam(other, "stranger");
  x = await createHttpServer(team, "x-costly");
  y = await createHttpServer(team, "y-cheaper");
  // x: 19 forty days ago (before the 30-day window), 24 two days ago at 09:00 UTC.
  // y: 5 two days ago at 15:00 UTC, 19 now.
  await snapshotAt(x, [WEATHER], daysAgo(40, 12));
  await snapshotAt(x, [WEATHER, A], daysAgo(2, 9));
  await snapshotAt(y, [A], daysAgo(2, 15));
  await snapshotAt(y, [WEATHER], null);
});

afterAll(async () => {
  if (team && strangerTeam) await disableServers(team, strangerTeam);
});

const report = (as: Caller, query = "") => call("GET", `/api/v1/team/context-budget/report${query}`, { as });

describe("the context budget report", () => {
  it("shows a stranger's team nothing of another team: its own empty report, through the API and the verb", async () => {
    const seen = expectStatus(await report(stranger), 200).json;
    expect(seen.totalTokens).toBe(0);
    expect(seen.servers).toBe(0);
    expect(seen.countedServers).toBe(0);
    expect(seen.topServers).toEqual([]);
    expect(seen.alert).toBeNull();
    expect(seen.trend).toHaveLength(30);
    expect(seen.trend.every((p: { tokens: number | null; countedServers: number }) => p.tokens === null && p.countedServers === 0)).toBe(true);
    expect(JSON.stringify(seen)).not.toContain("x-costly");
    const direct = await getContextBudgetReport(strangerTeam.ctx, { days: 90, top: 50 });
    expect(direct.topServers).toEqual([]);
    expect(direct.trend.filter((p) => p.tokens !== null)).toEqual([]);
    expect((await call("GET", "/api/v1/team/context-budget/report", { as: null })).status).toBe(401);
  });

  it("sums each server's latest snapshot at the end of each UTC day, over 30 days by default", async () => {
    const r = expectStatus(await report(owner), 200).json;
    expect(r.totalTokens).toBe(24 + 19);
    expect(r.servers).toBe(2);
    expect(r.countedServers).toBe(2);
    expect(r.encoding).toBe("o200k_base");
    const expected = [];
    // Days 29…3 ago: only x's snapshot from before the window (19); y had none yet.
    for (let n = 29; n >= 3; n--) expected.push({ day: dayString(n), tokens: 19, countedServers: 1 });
    // Two days ago x became 24 and y appeared with 5; yesterday nothing changed; today y is 19.
    expected.push({ day: dayString(2), tokens: 29, countedServers: 2 });
    expected.push({ day: dayString(1), tokens: 29, countedServers: 2 });
    expected.push({ day: dayString(0), tokens: 43, countedServers: 2 });
    expect(r.trend).toEqual(expected);
    expect(() => ContextBudgetReport.parse(r)).not.toThrow(); // the OpenAPI document's schema
  });

  it("lists the costliest servers with their tool counts and tokens per tool, largest first", async () => {
    const r = expectStatus(await report(owner), 200).json;
    expect(r.topServers).toEqual([
      { serverId: x, serverName: "x-costly", contextTokens: 24, toolCount: 2, tokensPerTool: 12 }, // (19 + 5) / 2
      { serverId: y, serverName: "y-cheaper", contextTokens: 19, toolCount: 1, tokensPerTool: 19 },
    ]);
    const one = expectStatus(await report(owner, "?top=1&days=3"), 200).json;
    expect(one.topServers.map((s: { serverId: string }) => s.serverId)).toEqual([x]);
    expect(one.trend.map((p: { tokens: number }) => p.tokens)).toEqual([29, 29, 43]);
  });

  it("gives the percentage of the budget and the open context_budget alert once a budget below the total is set", async () => {
    let r = expectStatus(await report(owner), 200).json;
    expect(r.budgetTokens).toBeNull();
    expect(r.percentOfBudget).toBeNull();
    expect(r.alert).toBeNull();
    expectStatus(await call("PATCH", "/api/v1/team/context-budget", { as: owner, body: { budgetTokens: 40 } }), 200);
    const viewer = (await mintKey(owner, "viewer", "report-viewer")).caller;
    r = expectStatus(await report(viewer), 200).json;
    expect(r.budgetTokens).toBe(40);
    expect(r.percentOfBudget).toBe(107.5); // 43 / 40
    const alert = await testDb().alert.findFirstOrThrow({ where: { tenantId: team.id, kind: "context_budget", status: "open" } });
    expect(r.alert).toEqual({ id: alert.id, status: "open", title: "The team's tool lists cost 43 tokens, over the context budget of 40 (≈ tokens, o200k_base)", openedAt: alert.createdAt.toISOString() });
    // The stranger's team still sees neither the budget nor the alert.
    const seen = expectStatus(await report(stranger), 200).json;
    expect(seen.budgetTokens).toBeNull();
    expect(seen.alert).toBeNull();
  });

  it("answers 400 with the field for days or top out of range", async () => {
    for (const q of ["?days=0", "?days=91", "?days=abc", "?days=1.5", "?top=0", "?top=51"]) {
      const res = await report(owner, q);
      expect(res.status, q).toBe(400);
      expect(Object.keys(res.json.error.details?.fields ?? {}), q).toHaveLength(1);
    }
  });
});
