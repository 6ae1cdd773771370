import { vi } from "vitest";
// The rule under test, at its default, whatever the tier's test env says (vitest.config.ts sets
// "all" for suites that are not about it). Hoisted: it must be in place before lib/env is read.
vi.hoisted(() => {
  process.env.TOOLWATCH_PRIVATE_TARGETS = "admins";
});
// api-client comes first: it points lib/env at the per-run test database before anything reads it.
import { call, createTeam, disableServers, expectStatus, mintKey, signUp, type TestTeam, type TestUser } from "../helpers/api-client";
import { randomUUID } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testDb } from "../helpers/factories";

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
