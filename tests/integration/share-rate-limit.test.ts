import "./share-rate-limit.env";
import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { call, createTeam, expectStatus, signUp } from "@/tests/helpers/api-client";

// The public share endpoint, from a stranger's side: no credentials to count, so it counts per
// client address (3 per 8 s in this suite, share-rate-limit.env.ts) — valid and guessed tokens alike.
let token: string;
const from = (address: string) => ({ headers: { "x-forwarded-for": address } });

beforeAll(async () => {
  const owner = await signUp("share-rate");
  await createTeam(owner, "share-rate");
  const view = expectStatus(await call("POST", "/api/v1/views", { as: owner.caller, body: { name: "shared", filters: {} } }), 201).json;
  token = expectStatus(await call("POST", `/api/v1/views/${view.id ?? view.view?.id}/share`, { as: owner.caller, body: {} }), 201).json.token;
});

describe("share link rate limit", () => {
  it("the 4th request from one address in the window is a 429 with Retry-After; another address still gets the view", async () => {
    const statuses = [];
    for (let i = 0; i < 3; i++) statuses.push((await call("GET", `/api/v1/share/${token}`, from("203.0.113.7"))).status);
    expect(statuses).toEqual([200, 200, 200]);
    const refused = await call("GET", `/api/v1/share/${token}`, from("203.0.113.7"));
    expect(refused.status).toBe(429);
    expect(refused.json.error).toMatchObject({ code: "RATE_LIMITED", details: { scope: "address", limit: 3, windowSeconds: 8 } });
    const retryAfter = Number(refused.headers.get("retry-after"));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(8);
    expect((await call("GET", `/api/v1/share/${token}`, from("203.0.113.8"))).status).toBe(200);
  });

  it("guessing tokens counts too: three 404s, then 429 for the same address", async () => {
    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push((await call("GET", `/api/v1/share/${randomUUID()}`, from("198.51.100.9"))).status);
    expect(statuses).toEqual([404, 404, 404, 429]);
  });
});
