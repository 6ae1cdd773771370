import { vi } from "vitest";
// The rule under test, at its default, whatever the tier's test env says (vitest.config.ts sets
// "all" for suites that are not about it). Hoisted: it must be in place before lib/env is read.
vi.hoisted(() => {
  process.env.TOOLWATCH_PRIVATE_TARGETS = "admins";
});
// api-client comes first: it points lib/env at the per-run test database before anything reads it.
import { call, createTeam, disableServers, expectStatus, mintKey, signUp, type TestTeam, type TestUser } from "@/tests/helpers/api-client";
import { randomUUID } from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTargetFetches } from "@/lib/discovery/node/guarded-fetch";
import { privateTargetsRule } from "@/lib/discovery/node/network-guard";
import { sealWebhookUrl } from "@/lib/webhooks/webhook-url";
import { startWebhookDispatcher } from "@/worker/webhook-dispatcher";
import { Scheduler } from "@/worker/scheduler";
import { startHttpFixture, writeFixtureState } from "@/tests/fixtures/spawn-fixture";
import { insertServerRow, TEST_KEY, testDb, waitFor } from "@/tests/helpers/factories";
import { silentLogger } from "@/lib/logger";
import { testDatabaseUrl } from "@/tests/helpers/test-database";

// Issue 13, from the attacker's side: on an instance with open sign-up, a stranger signs up,
// creates a team of their own and points a webhook and an MCP server at a service on the
// instance's loopback interface. Both are refused with a 4xx naming the rule and its setting; the
// service's answer never reaches the stranger. A team an instance administrator belongs to may.
const SECRET_BODY = "internal-service-SECRET-7f3a";
const uniq = () => randomUUID().slice(0, 8);
const RULE = /TOOLWATCH_PRIVATE_TARGETS=admins/;

let internal: http.Server;
let internalUrl: string;
let hits = 0;
let admin: TestUser;
let stranger: TestUser;
let adminTeam: TestTeam;
let strangerTeam: TestTeam;

beforeAll(async () => {
  // "An internal service": answers everything with a 500 whose body is a secret.
  internal = http.createServer((req, res) => {
    hits++;
    req.resume();
    res.writeHead(500, { "content-type": "text/plain" }).end(SECRET_BODY);
  });
  await new Promise<void>((resolve) => internal.listen(0, "127.0.0.1", resolve));
  internalUrl = `http://127.0.0.1:${(internal.address() as AddressInfo).port}`;

  admin = await signUp("pt-admin");
  await testDb().user.update({ where: { id: admin.id }, data: { instanceAdmin: true } });
  adminTeam = await createTeam(admin, "pt-admin");
  stranger = await signUp("pt-stranger");
  strangerTeam = await createTeam(stranger, "pt-stranger");
});

afterAll(async () => {
  await disableServers(adminTeam, strangerTeam);
  internal?.closeAllConnections();
  await new Promise<void>((resolve) => internal?.close(() => resolve()));
});

describe("a stranger's team cannot register private targets", () => {
  it("a webhook at a loopback IP is refused with 403 naming the rule and the setting", async () => {
    const res = await call("POST", "/api/v1/webhooks", { as: stranger.caller, body: { name: `hook-${uniq()}`, url: `${internalUrl}/hook` } });
    expect(res.status).toBe(403);
    expect(res.json.error.message).toMatch(RULE);
    expect(res.json.error.message).toMatch(/instance administrator/);
    expect(res.text).not.toContain(SECRET_BODY);
    expect(await testDb().webhook.count({ where: { tenantId: strangerTeam.id } })).toBe(0);
  });

  it("a webhook at a host name that resolves to loopback (localhost) is refused too", async () => {
    const port = (internal.address() as AddressInfo).port;
    const res = await call("POST", "/api/v1/webhooks", { as: stranger.caller, body: { name: `hook-${uniq()}`, url: `http://localhost:${port}/hook` } });
    expect(res.status).toBe(403);
    expect(res.json.error.message).toMatch(RULE);
  });

  it("an MCP server at a loopback address or a private one is refused on create, batch and edit", async () => {
    const create = await call("POST", "/api/v1/servers", { as: stranger.caller, body: { name: `mcp-${uniq()}`, transport: "streamable-http", url: `${internalUrl}/mcp` } });
    expect(create.status).toBe(403);
    expect(create.json.error.message).toMatch(RULE);
    const privateNet = await call("POST", "/api/v1/servers", { as: stranger.caller, body: { name: `mcp-${uniq()}`, transport: "sse", url: "http://10.0.0.7:8080/sse" } });
    expect(privateNet.status).toBe(403);
    expect(privateNet.json.error.message).toMatch(/private network address/);

    const batch = await call("POST", "/api/v1/servers/batch", {
      as: stranger.caller,
      body: { servers: [{ name: `ok-${uniq()}`, transport: "streamable-http", url: "https://mcp.example.invalid/mcp" }, { name: `lo-${uniq()}`, transport: "streamable-http", url: "http://[::1]:8080/mcp" }] },
    });
    expect(batch.status).toBe(403);
    expect(batch.json.error.details.errors).toHaveLength(1);
    expect(batch.json.error.details.errors[0].index).toBe(1);
    expect(batch.json.error.details.errors[0].message).toMatch(RULE);

    // A public server (its name does not resolve here: judged again at connect time) may be
    // registered; moving it onto loopback afterwards is refused the same way.
    const ok = expectStatus(await call("POST", "/api/v1/servers", { as: stranger.caller, body: { name: `pub-${uniq()}`, transport: "streamable-http", url: "https://mcp.example.invalid/mcp", enabled: false } }), 201).json;
    const move = await call("PATCH", `/api/v1/servers/${ok.server.id}`, { as: stranger.caller, body: { url: `${internalUrl}/mcp` } });
    expect(move.status).toBe(403);
    expect(move.json.error.message).toMatch(RULE);
    expect(await testDb().mcpServer.count({ where: { tenantId: strangerTeam.id } })).toBe(1);
  });

  it("an API key of the stranger's team is refused the same way (the right belongs to the team)", async () => {
    const key = await mintKey(stranger.caller, "admin");
    const res = await call("POST", "/api/v1/webhooks", { as: key.caller, body: { name: `hook-${uniq()}`, url: `${internalUrl}/hook` } });
    expect(res.status).toBe(403);
  });

  it("metadata and link-local addresses stay refused for everyone, administrators included (400)", async () => {
    for (const url of ["http://169.254.169.254/latest/meta-data/", "http://[fe80::1]/mcp"]) {
      const res = await call("POST", "/api/v1/servers", { as: admin.caller, body: { name: `meta-${uniq()}`, transport: "streamable-http", url } });
      expect(res.status, url).toBe(400);
    }
  });
});

describe("a team an instance administrator belongs to may use them", () => {
  it("registers a loopback webhook and MCP server (201), and a key of that team may too", async () => {
    expectStatus(await call("POST", "/api/v1/webhooks", { as: admin.caller, body: { name: `hook-${uniq()}`, url: `${internalUrl}/hook` } }), 201);
    expectStatus(await call("POST", "/api/v1/servers", { as: admin.caller, body: { name: `mcp-${uniq()}`, transport: "streamable-http", url: `${internalUrl}/mcp`, enabled: false } }), 201);
    const key = await mintKey(admin.caller, "admin");
    expectStatus(await call("POST", "/api/v1/servers", { as: key.caller, body: { name: `mcp-${uniq()}`, transport: "streamable-http", url: `http://localhost:9/mcp`, enabled: false } }), 201);
  });
});

// After registration, the worker decides again on the address it really connects to: a row that
// points at loopback behind the API's back (saved before the rule, or a name that resolved to a
// public address when saved and to 127.0.0.1 now) is refused before a packet is sent.
describe("at delivery and connect time the worker refuses them for the stranger's team", () => {
  // The worker's wiring (worker/main.ts): two guarded fetches, the team's right picks one.
  const targets = createTargetFetches({ privateRule: privateTargetsRule("admins"), maxResponseBytes: 64 * 1024, isStreaming: () => false });
  afterAll(() => targets.close());

  const deliverTest = async (as: TestUser, url: string) => {
    const hook = expectStatus(await call("POST", "/api/v1/webhooks", { as: as.caller, body: { name: `hook-${uniq()}`, url: "https://hooks.example.invalid/services/T/B/x" } }), 201).json;
    await testDb().webhook.update({ where: { id: hook.id }, data: sealWebhookUrl(TEST_KEY, url) });
    expectStatus(await call("POST", `/api/v1/webhooks/${hook.id}/test`, { as: as.caller }), 202);
    const dispatcher = await startWebhookDispatcher({ databaseUrl: testDatabaseUrl(), db: testDb(), key: TEST_KEY, targets, policy: "admins", retryLimit: 0, pollingIntervalSeconds: 0.5, sweepIntervalMs: 1_000 });
    try {
      await waitFor("delivery settled", () => testDb().webhookDelivery.findFirstOrThrow({ where: { webhookId: hook.id } }), (d) => d.status === "dead" || d.status === "delivered");
    } finally {
      await dispatcher.stop();
    }
    return expectStatus(await call("GET", `/api/v1/webhooks/${hook.id}/deliveries`, { as: as.caller }), 200);
  };

  it("a stranger's webhook at loopback: dead at once, the rule in the log, nothing sent, no body", async () => {
    const before = hits;
    const log = await deliverTest(stranger, `${internalUrl}/hook`);
    expect(hits).toBe(before);
    expect(log.json.items[0]).toMatchObject({ status: "dead", attempts: 1, statusCode: null });
    expect(log.json.items[0].lastError).toMatch(RULE);
    expect(log.text).not.toContain(SECRET_BODY);
  });

  it("an administrator's team reaches it, and its log keeps the status, never the body", async () => {
    const before = hits;
    const log = await deliverTest(admin, `${internalUrl}/hook`);
    expect(hits).toBe(before + 1);
    expect(log.json.items[0]).toMatchObject({ status: "dead", attempts: 1, statusCode: 500, lastError: "HTTP 500 Internal Server Error" });
    expect(log.text).not.toContain(SECRET_BODY);
  });

  it("a stranger's MCP server at a loopback MCP server is refused at connect; the administrator's team's is listed", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "toolwatch-private-targets-"));
    writeFixtureState(path.join(dir, "state.json"), { tools: [{ name: "internal_admin_tool", description: "Only for the operator", inputSchema: { type: "object", properties: {} } }] });
    const fixture = await startHttpFixture(path.join(dir, "state.json"));
    const config = { transport: "streamable_http" as const, url: fixture.url, headers: {} };
    const theirs = await insertServerRow({ ...strangerTeam.ctx }, `internal-${uniq()}`, config);
    const ours = await insertServerRow({ ...adminTeam.ctx }, `internal-${uniq()}`, config);
    const scheduler = new Scheduler(
      testDb(),
      TEST_KEY,
      `pt-worker-${uniq()}`,
      {
        discovery: { connectTimeoutMs: 10_000, requestTimeoutMs: 10_000, maxPages: 10, debounceMs: 100, backoffMaxMs: 60_000 },
        targets: createTargetFetches({ privateRule: privateTargetsRule("admins"), maxResponseBytes: 16 * 1024 * 1024 }),
        privateTargets: "admins",
        liveWorkerWindowMs: 15_000,
        stdioPolicy: "off",
      },
      silentLogger(),
    );
    try {
      await scheduler.start();
      const session = (id: string) => testDb().serverSession.findUnique({ where: { serverId: id } });
      const refused = await waitFor("the stranger's session to fail", () => session(theirs.id), (s) => s?.lastErrorCode === "TARGET_LOOPBACK");
      expect(refused!.lastError).toMatch(RULE);
      await waitFor("the administrator's team's snapshot", () => testDb().snapshot.count({ where: { serverId: ours.id } }), (n) => n === 1);
      expect(await testDb().snapshot.count({ where: { serverId: theirs.id } })).toBe(0);
      const detail = expectStatus(await call("GET", `/api/v1/servers/${theirs.id}`, { as: stranger.caller }), 200);
      expect(detail.text).not.toContain("internal_admin_tool");
    } finally {
      await scheduler.stopAll();
      await testDb().mcpServer.updateMany({ where: { id: { in: [theirs.id, ours.id] } }, data: { enabled: false } });
      await fixture.stop();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
