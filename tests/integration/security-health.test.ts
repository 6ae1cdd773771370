// api-client comes first: it points lib/env at the per-run test database before anything reads it.
import { bearer, createTeam, mintKey, signIn, signUp, type Caller, type TestUser } from "@/tests/helpers/api-client";
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as healthRoute from "@/app/api/health/route";
import { createDb } from "@/lib/db";
import { testDb } from "@/tests/helpers/factories";

// Issue 13: GET /api/health is public (load balancers, uptime checks). Anonymous callers learn the
// status and nothing else: no worker host name, no pid, no worker id, no raw database error.
// Details are for signed-in instance administrators only (worker hosts are instance internals,
// not any team's business, so a team's API key, even an owner's, gets the status only).

const HOST = `secret-host-${randomUUID().slice(0, 8)}`;
const WORKER_ID = `worker-${randomUUID().slice(0, 8)}`;
const PID = 424_242;

async function health(caller: Caller | null = null) {
  const response = await healthRoute.GET(new Request("http://localhost:3000/api/health", { headers: { host: "localhost:3000", ...(caller?.headers ?? {}) } }));
  const text = await response.text();
  return { status: response.status, text, json: JSON.parse(text) as Record<string, unknown>, cacheControl: response.headers.get("cache-control") };
}

const revealsNothing = (text: string) => {
  for (const secret of [HOST, WORKER_ID, String(PID), "hostname", "pid", "workerId"]) expect(text).not.toContain(secret);
};

let admin: Caller;
let someone: TestUser;
beforeAll(async () => {
  await signUp("health-probe"); // the instance administrator, unless an earlier suite made one
  // Every test account has the same password: sign the administrator in, as the browser does.
  admin = await signIn((await testDb().user.findFirstOrThrow({ where: { instanceAdmin: true } })).email, "instance admin");
  someone = await signUp("health-someone");
  const now = new Date();
  await testDb().workerHeartbeat.create({ data: { workerId: WORKER_ID, hostname: HOST, pid: PID, startedAt: now, beatAt: now, sessions: 3 } });
});
afterAll(async () => {
  await testDb().workerHeartbeat.deleteMany({ where: { workerId: WORKER_ID } });
});

describe("GET /api/health", () => {
  it("anonymous: exactly {status} with 200, never cached, no host name, pid or worker id", async () => {
    const res = await health();
    expect(res.status).toBe(200);
    expect(res.json).toEqual({ status: "ok" });
    expect(res.cacheControl).toBe("no-store");
    revealsNothing(res.text);
  });

  it("anonymous with no live worker: degraded, still 200 (the database answers)", async () => {
    const old = new Date(Date.now() - 3_600_000);
    const live = await testDb().workerHeartbeat.findMany({ where: { beatAt: { gt: old } }, select: { workerId: true, beatAt: true } });
    await testDb().workerHeartbeat.updateMany({ where: { workerId: { in: live.map((w) => w.workerId) } }, data: { beatAt: old } });
    try {
      const res = await health();
      expect(res.status).toBe(200);
      expect(res.json).toEqual({ status: "degraded" });
    } finally {
      for (const w of live) await testDb().workerHeartbeat.update({ where: { workerId: w.workerId }, data: { beatAt: w.beatAt } });
    }
  });

  it("a signed-in person who is not an instance administrator, and a team owner's API key: status only", async () => {
    const team = await createTeam(someone, "health");
    const key = await mintKey(team.owner.caller, "owner", "health-key");
    for (const caller of [someone.caller, key.caller]) {
      const res = await health(caller);
      expect(res.json).toEqual({ status: "ok" });
      revealsNothing(res.text);
    }
  });

  it("a bad API key or cookie is no error on a health check: status only", async () => {
    for (const caller of [bearer("tw_not-a-key"), { label: "junk", headers: { cookie: "toolwatch.session_token=junk" } }]) {
      const res = await health(caller);
      expect(res.status).toBe(200);
      expect(res.json).toEqual({ status: "ok" });
    }
  });

  it("a signed-in instance administrator gets the details: database latency and each worker", async () => {
    const res = await health(admin);
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ status: "ok", database: { ok: true }, workers: { ok: true } });
    const workers = (res.json.workers as { workers: { workerId: string; hostname: string; pid: number; sessions: number }[] }).workers;
    expect(workers.find((w) => w.workerId === WORKER_ID)).toMatchObject({ hostname: HOST, pid: PID, sessions: 3 });
  });
});

describe("the database is unreachable", () => {
  it("anonymous: {status: down} with 503 and no driver error text", async () => {
    const { healthResponse } = await import("@/lib/health/health-response");
    const dead = createDb("postgresql://toolwatch:secret-password@127.0.0.1:9/toolwatch", 2);
    try {
      const result = await healthResponse(dead, 5_000, new Headers());
      expect(result).toEqual({ httpStatus: 503, body: { status: "down" } });
    } finally {
      await dead.$disconnect();
    }
  });
});
