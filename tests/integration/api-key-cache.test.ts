import "@/tests/helpers/test-env";
import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import path from "node:path";
import readline from "node:readline";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startApiKeyFeed, type ApiKeyFeed } from "@/lib/auth/api-key-feed";
import { addMember, call, createTeam, mintKey, signUp, type TestKey, type TestTeam } from "@/tests/helpers/api-client";
import { testDatabaseUrl } from "@/tests/helpers/test-database";
import { nodeArgsFor } from "@/tests/helpers/test-bundles";

// An attacker holds a team API key; web processes remember verified keys (lib/auth/api-key-cache.ts).
// Whatever revokes the key, from whichever web process or connection, the attacker's next request
// must be refused. Two web processes: this test process (key cache on) and a child process
// (tests/fixtures/api-key-web-process.ts, its own cache and LISTEN connection). Changes made with
// triggers off (session_replication_role = replica, our own connection only) show the cache is
// really in use: such a change is not heard, so a cached key keeps working until its TTL.

let feed: ApiKeyFeed;
let sql: pg.Client;
let team: TestTeam;
let child: ChildProcessWithoutNullStreams;
let lines: AsyncIterator<string>;

async function atB(key: TestKey): Promise<number> {
  child.stdin.write(`${JSON.stringify({ secret: key.secret })}\n`);
  for (;;) {
    const next = await lines.next();
    if (next.done) throw new Error("the second web process exited");
    if (!next.value.startsWith("{")) continue;
    const parsed = JSON.parse(next.value) as { status?: number; level?: number };
    if (typeof parsed.status === "number" && parsed.level === undefined) return parsed.status;
  }
}
const atA = async (key: TestKey) => (await call("GET", "/api/v1/servers", { as: key.caller })).status;

/** Changes a key's row without the trigger firing (no NOTIFY): what a cache without invalidation would miss. */
async function silently(statement: string, id: string) {
  await sql.query("SET session_replication_role = replica");
  await sql.query(statement, [id]);
  await sql.query("SET session_replication_role = DEFAULT");
}

/** Proves `serve` answers this key from memory: disabled behind its back, it still gets 200. */
async function expectCached(key: TestKey, serve: (key: TestKey) => Promise<number>) {
  const deadline = Date.now() + 5_000;
  for (;;) {
    expect(await serve(key)).toBe(200);
    await silently("UPDATE api_key SET enabled = false WHERE id = $1", key.id);
    const status = await serve(key);
    await silently("UPDATE api_key SET enabled = true WHERE id = $1", key.id);
    if (status === 200) return;
    // The feed was not listening yet (nothing cached without it): try again.
    if (Date.now() > deadline) throw new Error(`key ${key.id} was never served from memory`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

beforeAll(async () => {
  feed = startApiKeyFeed(testDatabaseUrl());
  sql = new pg.Client({ connectionString: testDatabaseUrl() });
  await sql.connect();
  team = await createTeam(await signUp("key-cache-owner"), "key-cache");
  child = spawn(process.execPath, nodeArgsFor(path.resolve(import.meta.dirname, "../fixtures/api-key-web-process.ts")), { env: process.env, stdio: ["pipe", "pipe", "pipe"] });
  child.stderr.on("data", (chunk: Buffer) => process.stderr.write(`[api key web process] ${chunk.toString()}`));
  lines = readline.createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  for (;;) {
    const next = await lines.next();
    if (next.done) throw new Error("the second web process exited before it was ready");
    if (next.value.includes("ready")) break;
  }
});

afterAll(async () => {
  child?.kill("SIGTERM");
  await feed?.close();
  await sql?.end();
});

describe("a cached API key stops working the moment it is revoked", () => {
  it("revoked through the API at process A: the next request at process B, which had it cached, is 401 (10 keys in a row)", async () => {
    for (let i = 0; i < 10; i++) {
      const key = await mintKey(team.owner.caller, "viewer", `attacker-${i}`);
      await expectCached(key, atB);
      expect((await call("DELETE", `/api/v1/keys/${key.id}`, { as: team.owner.caller })).status).toBe(200);
      expect(await atB(key)).toBe(401);
      expect(await atA(key)).toBe(401);
    }
  });

  it("revoked by SQL on another connection (the operator, better-auth's plugin): 401 at both processes at once", async () => {
    const key = await mintKey(team.owner.caller, "viewer", "attacker-sql");
    await expectCached(key, atA);
    await expectCached(key, atB);
    await sql.query("UPDATE api_key SET enabled = false WHERE id = $1", [key.id]);
    expect(await atA(key)).toBe(401);
    expect(await atB(key)).toBe(401);
  });

  it("deleted, or expired early: 401 on the next request", async () => {
    const deleted = await mintKey(team.owner.caller, "viewer", "attacker-deleted");
    const expired = await mintKey(team.owner.caller, "viewer", "attacker-expired");
    for (const key of [deleted, expired]) {
      await expectCached(key, atA);
      await expectCached(key, atB);
    }
    await sql.query("DELETE FROM api_key WHERE id = $1", [deleted.id]);
    await sql.query("UPDATE api_key SET expires_at = now() - interval '1 second' WHERE id = $1", [expired.id]);
    for (const key of [deleted, expired]) {
      expect(await atA(key)).toBe(401);
      expect(await atB(key)).toBe(401);
    }
  });

  it("a key whose holder is removed from the team stops at once (the revocation runs in the removal's transaction)", async () => {
    const admin = await signUp("key-cache-admin");
    const memberId = await addMember(team, admin, "admin");
    const key = await mintKey(admin.caller, "viewer", "held-by-admin");
    await expectCached(key, atB);
    expect((await call("DELETE", `/api/v1/members/${memberId}`, { as: team.owner.caller })).status).toBe(204);
    expect(await atB(key)).toBe(401);
  });

  it("a demoted key (role changed in its row) acts with its new role on the next request", async () => {
    const key = await mintKey(team.owner.caller, "admin", "demoted");
    await expectCached(key, atA);
    const body = { name: "demotion-probe", transport: "streamable-http", url: "http://127.0.0.1:9/mcp", enabled: false };
    await sql.query(`UPDATE api_key SET metadata = jsonb_set(metadata::jsonb, '{role}', '"viewer"')::text WHERE id = $1`, [key.id]);
    expect((await call("POST", "/api/v1/servers", { as: key.caller, body })).status).toBe(403);
  });

  it("under load at one process: no request that starts after the revocation committed is answered 200", async () => {
    const key = await mintKey(team.owner.caller, "viewer", "attacker-load");
    await expectCached(key, atA);
    const seen: { startedAt: number; status: number }[] = [];
    let revokedAt = Infinity;
    let stop = false;
    const attacker = async () => {
      while (!stop) {
        const startedAt = performance.now();
        seen.push({ startedAt, status: await atA(key) });
      }
    };
    const clients = Array.from({ length: 20 }, attacker);
    const warm = Date.now() + 10_000;
    while (seen.length < 60 && Date.now() < warm) await new Promise((r) => setTimeout(r, 20));
    await sql.query("UPDATE api_key SET enabled = false WHERE id = $1", [key.id]);
    revokedAt = performance.now();
    const deadline = Date.now() + 10_000;
    while (seen.filter((s) => s.startedAt > revokedAt).length < 40 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    stop = true;
    await Promise.all(clients);
    const before = seen.filter((s) => s.startedAt < revokedAt);
    const after = seen.filter((s) => s.startedAt > revokedAt);
    expect(before.filter((s) => s.status === 200).length).toBeGreaterThanOrEqual(60);
    expect(after.length).toBeGreaterThanOrEqual(40);
    expect(after.filter((s) => s.status !== 401)).toEqual([]);
  });
});
