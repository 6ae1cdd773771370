// api-client comes first: it points lib/env at the per-run test database before anything reads it.
import { call, createTeam, disableServers, expectStatus, mintKey, signUp, UNREACHABLE_URL, type TestTeam, type TestUser } from "@/tests/helpers/api-client";
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testDb } from "@/tests/helpers/factories";

// Per-team quotas (issue 12), from the attacker's side first: a stranger with a team of their own
// on an open instance cannot raise their own limits, read other teams' quotas, or register past
// theirs; an instance administrator sets them and they hold for sessions and API keys alike.
const server = (name: string, extra: Record<string, unknown> = {}) => ({ name, transport: "streamable-http", url: UNREACHABLE_URL, ...extra });

describe("team quotas", () => {
  let admin: TestUser;
  let stranger: TestUser;
  let team: TestTeam;
  let other: TestTeam;

  beforeAll(async () => {
    admin = await signUp("quota-admin");
    await testDb().user.update({ where: { id: admin.id }, data: { instanceAdmin: true } });
    stranger = await signUp("quota-stranger");
    team = await createTeam(stranger, "quota");
    other = await createTeam(await signUp("quota-other"), "quota-other");
  });

  afterAll(async () => {
    await disableServers(team, other);
  });

  it("a team owner can read their own quota, but not set it or list other teams'", async () => {
    const own = expectStatus(await call("GET", "/api/v1/quota", { as: stranger.caller }), 200).json;
    expect(own.usage.servers).toBe(0);
    expect(own.source).toEqual({ maxServers: "instance", minPollSeconds: "instance", listingsPerMinute: "instance" });
    const raise = await call("PATCH", `/api/v1/admin/teams/${team.id}/quota`, { as: stranger.caller, body: { maxServers: 1_000_000 } });
    expect(raise.status).toBe(403);
    expect((await call("GET", "/api/v1/admin/quotas", { as: stranger.caller })).status).toBe(403);
    const key = await mintKey(stranger.caller, "owner");
    expect((await call("PATCH", `/api/v1/admin/teams/${team.id}/quota`, { as: key.caller, body: { maxServers: 5 } })).status).toBe(403);
    expect(await testDb().teamQuota.count({ where: { tenantId: team.id } })).toBe(0);
  });

  it("an instance administrator sets a team's limits; bad input is a 400 naming the field", async () => {
    expect((await call("PATCH", `/api/v1/admin/teams/${team.id}/quota`, { as: admin.caller, body: { maxServers: -1 } })).status).toBe(400);
    const bad = await call("PATCH", `/api/v1/admin/teams/${team.id}/quota`, { as: admin.caller, body: { maxServers: 2, bogus: true } });
    expect(bad.status).toBe(400);
    expect(bad.json.error.message).toMatch(/bogus|Unrecognized/);
    expect((await call("PATCH", `/api/v1/admin/teams/${randomUUID()}/quota`, { as: admin.caller, body: { maxServers: 2 } })).status).toBe(404);
    expect((await call("PATCH", "/api/v1/admin/teams/not-a-uuid/quota", { as: admin.caller, body: { maxServers: 2 } })).status).toBe(404);
    const set = expectStatus(await call("PATCH", `/api/v1/admin/teams/${team.id}/quota`, { as: admin.caller, body: { maxServers: 2, minPollSeconds: 600 } }), 200).json;
    expect(set.quota.maxServers).toBe(2);
    expect(set.quota.minPollSeconds).toBe(600);
    expect(set.source).toEqual({ maxServers: "team", minPollSeconds: "team", listingsPerMinute: "instance" });
    const listed = expectStatus(await call("GET", "/api/v1/admin/quotas", { as: admin.caller }), 200).json.items;
    expect(listed.find((t: { teamId: string }) => t.teamId === team.id).quota.maxServers).toBe(2);
    expect(listed.find((t: { teamId: string }) => t.teamId === other.id).source.maxServers).toBe("instance");
  });

  it("registration past the team's limits is refused with a 4xx naming the rule; other teams are unaffected", async () => {
    const tooOften = await call("POST", "/api/v1/servers", { as: stranger.caller, body: server("often", { pollIntervalSeconds: 60 }) });
    expect(tooOften.status).toBe(400);
    expect(tooOften.json.error.message).toMatch(/at least 600/);
    // A batch counts whole: three servers do not fit a limit of two, and nothing is created.
    const batch = await call("POST", "/api/v1/servers/batch", { as: stranger.caller, body: { servers: [server("b1"), server("b2"), server("b3")] } });
    expect(batch.status).toBe(403);
    expect(batch.json.error.details.rule).toBe("maxServers");
    expect(await testDb().mcpServer.count({ where: { tenantId: team.id } })).toBe(0);
    expectStatus(await call("POST", "/api/v1/servers", { as: stranger.caller, body: server("one") }), 201);
    const first = await testDb().mcpServer.findFirstOrThrow({ where: { tenantId: team.id, name: "one" } });
    // No interval given: the team's minimum, not the product default of 300 s.
    expect(first.pollIntervalSeconds).toBe(600);
    expectStatus(await call("POST", "/api/v1/servers", { as: stranger.caller, body: server("two", { pollIntervalSeconds: 900 }) }), 201);
    const third = await call("POST", "/api/v1/servers", { as: stranger.caller, body: server("three") });
    expect(third.status).toBe(403);
    expect(third.json.error.message).toMatch(/at most 2 servers/);
    expect(third.json.error.details.rule).toBe("maxServers");
    // Parallel requests cannot each squeeze past the limit.
    const burst = await Promise.all(Array.from({ length: 6 }, (_, i) => call("POST", "/api/v1/servers", { as: stranger.caller, body: server(`burst-${i}`) })));
    expect(burst.every((r) => r.status === 403)).toBe(true);
    expect(await testDb().mcpServer.count({ where: { tenantId: team.id } })).toBe(2);
    // Editing to a shorter interval than allowed is refused too.
    expect((await call("PATCH", `/api/v1/servers/${first.id}`, { as: stranger.caller, body: { pollIntervalSeconds: 30 } })).status).toBe(400);
    // The other team has the instance defaults.
    expectStatus(await call("POST", "/api/v1/servers", { as: other.owner.caller, body: server("elsewhere", { pollIntervalSeconds: 60 }) }), 201);
  });

  it("clearing a limit (null) goes back to the instance default", async () => {
    const cleared = expectStatus(await call("PATCH", `/api/v1/admin/teams/${team.id}/quota`, { as: admin.caller, body: { maxServers: null } }), 200).json;
    expect(cleared.source.maxServers).toBe("instance");
    expectStatus(await call("POST", "/api/v1/servers", { as: stranger.caller, body: server("three") }), 201);
  });
});
