import { execFile } from "node:child_process";
import { randomUUID } from "node:crypto";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as listServersRoute } from "@/app/api/v1/servers/route";
import { DELETE as deleteServerRoute } from "@/app/api/v1/servers/[id]/route";
import { authenticate } from "@/lib/auth/authenticate";
import { closeDb, getDb } from "@/lib/db";
import { createServer } from "@/lib/servers/create-server";
import { testDatabaseUrl } from "@/tests/helpers/test-database";
import { toolwatchArgs } from "@/tests/helpers/test-bundles";

// lib/env.ts caches its first read of process.env; nothing above reads it at import time.
process.env.DATABASE_URL = testDatabaseUrl();

const ROOT = path.resolve(import.meta.dirname, "../..");
type Run = { code: number; stdout: string; stderr: string };
const run = (args: string[], env: NodeJS.ProcessEnv = { ...process.env, DATABASE_URL: testDatabaseUrl() }): Promise<Run> =>
  promisify(execFile)(process.execPath, toolwatchArgs(args), { cwd: ROOT, env, timeout: 60_000 }).then(
    (r) => ({ code: 0, stdout: r.stdout, stderr: r.stderr }),
    (e: { code: number; stdout: string; stderr: string }) => ({ code: e.code, stdout: e.stdout, stderr: e.stderr }),
  );

const bearer = (key: string) => ({ authorization: `Bearer ${key}` });

describe("toolwatch admin (the CLI, against the instance's database)", () => {
  const slug = `cli-${randomUUID().slice(0, 8)}`;
  let tenantId: string;
  let key: string;
  let keyId: string;
  let serverId: string;

  beforeAll(async () => {
    const created = await run(["admin", "create-team", slug, "--name", "CLI team"]);
    expect(created, created.stderr).toMatchObject({ code: 0 });
    expect(created.stdout).toContain(`created team "CLI team" (slug ${slug}, id `);
    tenantId = (await getDb().tenant.findUniqueOrThrow({ where: { slug } })).id;
  });
  afterAll(async () => {
    await closeDb();
  });

  it("create-team refuses a taken slug (exit 1) and a malformed one (exit 2); the team starts with no members", async () => {
    const [again, bad] = await Promise.all([run(["admin", "create-team", slug]), run(["admin", "create-team", "Not A Slug!"])]);
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/^toolwatch: A team with slug "[^"]+" already exists/);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/slug: 1–40 lowercase letters/);
    expect(await getDb().member.count({ where: { tenantId } })).toBe(0);
  });

  it("create-key prints the key alone on the last line of stdout, once; bad role exits 2, unknown team 1", async () => {
    const r = await run(["admin", "create-key", "--team", slug, "--role", "viewer", "--name", "ci bootstrap", "--expires-days", "30"]);
    expect(r.code, r.stderr).toBe(0);
    const lines = r.stdout.trimEnd().split("\n");
    key = lines.at(-1)!;
    expect(key).toMatch(/^tw_[A-Za-z0-9_-]{40,}$/);
    expect(r.stdout.split(key)).toHaveLength(2);
    expect(r.stderr).not.toContain(key);
    expect(lines.slice(0, -1).join("\n")).toMatch(/created API key "ci bootstrap" for team .+: role viewer, id [0-9a-f-]{36}, expires 20/);
    keyId = /id ([0-9a-f-]{36})/.exec(r.stdout)![1]!;

    const [badRole, noTeam] = await Promise.all([
      run(["admin", "create-key", "--team", slug, "--role", "superuser"]),
      run(["admin", "create-key", "--team", "no-such-team-zz", "--role", "owner"]),
    ]);
    expect(badRole.code).toBe(2);
    expect(badRole.stderr).toContain("--role must be one of owner, admin, member, viewer");
    expect(badRole.stderr).toContain("usage: toolwatch admin <command>");
    expect(noTeam.code).toBe(1);
    expect(noTeam.stderr).toMatch(/^toolwatch: no team with slug "no-such-team-zz"/);
    expect(noTeam.stdout).toBe("");
  });

  it("the key acts as its team with its role only: it lists servers (200) and may not delete one (403)", async () => {
    const principal = await authenticate(new Headers(bearer(key)));
    expect(principal).toMatchObject({ kind: "apiKey", tenantId, role: "viewer", keyId });

    const system = { tenantId, db: getDb(), actor: { kind: "system", id: "test" } } as const;
    ({ id: serverId } = await createServer(system, { name: "watched", transport: "streamable-http", url: "https://mcp.example.com/mcp" }, { allowStdio: false }));
    const list = await listServersRoute(new Request("http://localhost/api/v1/servers", { headers: bearer(key) }));
    expect(list.status).toBe(200);
    const body = (await list.json()) as { items: Array<{ id: string }> };
    expect(body.items.map((s) => s.id)).toEqual([serverId]);

    const del = await deleteServerRoute(new Request(`http://localhost/api/v1/servers/${serverId}`, { method: "DELETE", headers: bearer(key) }), {
      params: Promise.resolve({ id: serverId }),
    });
    expect(del.status).toBe(403);
    expect(await getDb().mcpServer.count({ where: { id: serverId } })).toBe(1);
  });

  it("list-teams and list-keys show the team and the key (never its secret); the audit log names the CLI", async () => {
    const [teams, keys] = await Promise.all([run(["admin", "list-teams"]), run(["admin", "list-keys", "--team", slug])]);
    expect(teams.code).toBe(0);
    expect(teams.stdout).toMatch(new RegExp(`^${slug}\\s+CLI team\\s+0\\s+\\d+\\s+1\\s+${tenantId}$`, "m"));
    expect(keys.stdout).toMatch(new RegExp(`^${keyId}\\s+ci bootstrap\\s+tw_\\S+…\\s+viewer\\s+active`, "m"));
    expect(keys.stdout).not.toContain(key);
    const audit = await getDb().auditEvent.findMany({ where: { tenantId, action: { in: ["team.created", "key.created"] } }, orderBy: { at: "asc" } });
    expect(audit.map((a) => [a.action, a.actorLabel])).toEqual([
      ["team.created", "system (admin-cli)"],
      ["key.created", "system (admin-cli)"],
    ]);
  });

  it("revoke-key disables the key at once (401); an unknown key id exits 1", async () => {
    const r = await run(["admin", "revoke-key", "--team", slug, keyId]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain(`revoked API key "ci bootstrap"`);
    const list = await listServersRoute(new Request("http://localhost/api/v1/servers", { headers: bearer(key) }));
    expect(list.status).toBe(401);
    const unknown = await run(["admin", "revoke-key", "--team", slug, randomUUID()]);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(/^toolwatch: API key not found/);
    const audit = await getDb().auditEvent.findFirst({ where: { tenantId, action: "key.revoked" } });
    expect(audit?.actorLabel).toBe("system (admin-cli)");
  });

  it("without DATABASE_URL and no running embedded Postgres it says to run npm start (exit 1)", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "toolwatch-cli-admin-"));
    try {
      const env = { ...process.env };
      delete env.DATABASE_URL;
      const none = await run(["admin", "list-teams"], { ...env, TOOLWATCH_DATA_DIR: dir });
      expect(none.code).toBe(1);
      expect(none.stderr).toMatch(/^toolwatch: no database: DATABASE_URL is not set .*npm start/);
      // A port file left by a stopped `npm start`: nothing listens there any more.
      fs.writeFileSync(path.join(dir, "pg.port"), `${await closedPort()}\n`);
      const stopped = await run(["admin", "create-key", "--team", slug, "--role", "viewer"], { ...env, TOOLWATCH_DATA_DIR: dir });
      expect(stopped.code).toBe(1);
      expect(stopped.stderr).toMatch(/^toolwatch: the embedded Postgres is not running .*npm start/);
      expect(stopped.stdout).toBe("");
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

function closedPort(): Promise<number> {
  return new Promise((resolve) => {
    const srv = net.createServer().listen(0, "127.0.0.1", () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}
