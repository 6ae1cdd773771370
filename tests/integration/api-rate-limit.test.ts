import "./api-rate-limit.env";
import { call, createTeam, mintKey, signUp, type ApiResponse, type TestKey, type TestTeam } from "@/tests/helpers/api-client";
import { beforeAll, describe, expect, it } from "vitest";
import { testDb } from "@/tests/helpers/factories";

// An API client sending as fast as it likes, from its side: the limits below are this suite's
// own (api-rate-limit.env.ts), written here again by hand: 3 requests per key, 5 per team (all
// its keys together), 6 per signed-in person, each per 8 s window.
const PER_KEY = 3;
const PER_TEAM = 5;
const PER_USER = 6;
const WINDOW_SECONDS = 8;

let team: TestTeam;
let other: TestTeam;
let keyA: TestKey;
let keyB: TestKey;
let otherKey: TestKey;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function expectRefused(res: ApiResponse, scopeWords: RegExp) {
  expect(res.status).toBe(429);
  expect(res.json.error.code).toBe("RATE_LIMITED");
  expect(res.json.error.message).toMatch(scopeWords);
  const retryAfter = Number(res.headers.get("retry-after"));
  expect(Number.isInteger(retryAfter)).toBe(true);
  expect(retryAfter).toBeGreaterThanOrEqual(1);
  expect(retryAfter).toBeLessThanOrEqual(WINDOW_SECONDS);
  expect(res.headers.get("ratelimit-remaining")).toBe("0");
  expect(res.headers.get("x-ratelimit-remaining")).toBe("0");
  return retryAfter;
}

beforeAll(async () => {
  // Two owners, so minting keys (their session requests) stays under the per-person limit.
  team = await createTeam(await signUp("rate-owner"), "rate");
  other = await createTeam(await signUp("rate-other"), "rate-other");
  keyA = await mintKey(team.owner.caller, "admin", "fast-a");
  keyB = await mintKey(team.owner.caller, "admin", "fast-b");
  otherKey = await mintKey(other.owner.caller, "viewer", "bystander");
});

describe("/api/v1 rate limits", () => {
  it("a key over its limit gets 429 with Retry-After and RateLimit headers; another team's key is unaffected; the window resets", async () => {
    const allowed: ApiResponse[] = [];
    for (let i = 0; i < PER_KEY; i++) allowed.push(await call("GET", "/api/v1/servers", { as: keyA.caller }));
    expect(allowed.map((r) => r.status)).toEqual([200, 200, 200]);
    expect(allowed.map((r) => r.headers.get("ratelimit-limit"))).toEqual(["3", "3", "3"]);
    expect(allowed.map((r) => r.headers.get("ratelimit-remaining"))).toEqual(["2", "1", "0"]);
    expect(allowed.map((r) => r.headers.get("x-ratelimit-limit"))).toEqual(["3", "3", "3"]);
    expect(allowed[0]!.headers.get("ratelimit-policy")).toBe("3;w=8");
    expect(allowed[0]!.headers.get("retry-after")).toBeNull();

    // Request 4: refused, whatever the route (a write is refused before it writes).
    const refused = await call("POST", "/api/v1/servers", { as: keyA.caller, body: { name: "never-made", transport: "streamable-http", url: "http://127.0.0.1:9/mcp" } });
    const retryAfter = expectRefused(refused, /this API key/);
    expect(refused.json.error.details).toMatchObject({ scope: "key", limit: 3, windowSeconds: 8 });
    expect(await testDb().mcpServer.count({ where: { tenantId: team.id, name: "never-made" } })).toBe(0);

    // Another team's key: its own budget.
    expect((await call("GET", "/api/v1/servers", { as: otherKey.caller })).status).toBe(200);

    // Team budget: key A used 4 of the team's 5 (its refused request counts too), so key B gets
    // one (the headers show the team's budget, the closest to refusing), then the team is over.
    const lastOfTeam = await call("GET", "/api/v1/servers", { as: keyB.caller });
    expect(lastOfTeam.status).toBe(200);
    expect([lastOfTeam.headers.get("ratelimit-limit"), lastOfTeam.headers.get("ratelimit-remaining")]).toEqual([String(PER_TEAM), "0"]);
    const teamRefused = await call("GET", "/api/v1/servers", { as: keyB.caller });
    expectRefused(teamRefused, /this team's API keys/);
    expect(teamRefused.json.error.details).toMatchObject({ scope: "team", limit: 5 });

    // After Retry-After seconds the window is over.
    await sleep(retryAfter * 1000 + 200);
    const again = await call("GET", "/api/v1/servers", { as: keyA.caller });
    expect(again.status).toBe(200);
    expect(again.headers.get("ratelimit-remaining")).toBe("2");
  });

  it("a signed-in person is limited per person, across the team's keys", async () => {
    const person = await signUp("rate-person");
    await createTeam(person, "rate-person"); // request 1 of this person's window
    const statuses: number[] = [];
    for (let i = 2; i <= PER_USER + 1; i++) statuses.push((await call("GET", "/api/v1/me", { as: person.caller })).status);
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
    const refused = await call("GET", "/api/v1/servers", { as: person.caller });
    expectRefused(refused, /your account/);
    // The person's limit is not the team's: the other team's key is still answered.
    expect((await call("GET", "/api/v1/me", { as: otherKey.caller })).status).toBe(200);
  });

  it("no credentials: 401 before any limit (nothing to count against)", async () => {
    const res = await call("GET", "/api/v1/servers", { as: null });
    expect(res.status).toBe(401);
    expect(res.headers.get("ratelimit-limit")).toBeNull();
  });
});
