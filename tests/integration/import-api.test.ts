// api-client comes first: it points lib/env at the per-run test database before anything reads it.
import { call, createTeam, disableServers, expectStatus, mintKey, signUp, type Caller, type TestTeam, type TestUser } from "@/tests/helpers/api-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { decryptJson } from "@/lib/secrets";
import { TEST_KEY, testDb } from "@/tests/helpers/factories";

// POST /api/v1/servers/import through the real route handler and a real Postgres: a dry run
// stores nothing, an import creates, a second one finds everything unchanged; the stdio policy,
// roles and teams hold; secret values go into sealed columns and never into the answer.
// Servers are imported disabled ("disabled": true) so no worker of a later suite runs them.

const GITHUB_TOKEN = "ghp_exampleSECRETexample1234";
const DOCS_TOKEN = "docs-SECRET-bearer-5678";
const URL_KEY = "urlSECRETkey9012";

const claudeDesktop = (filesystemDir = "/Users/me/Desktop") =>
  JSON.stringify(
    {
      mcpServers: {
        filesystem: { command: "npx", args: ["-y", "@modelcontextprotocol/server-filesystem", filesystemDir], disabled: true },
        github: { command: "npx", args: ["-y", "@modelcontextprotocol/server-github"], env: { GITHUB_PERSONAL_ACCESS_TOKEN: GITHUB_TOKEN }, disabled: true },
        sqlite: { command: "uvx", args: ["mcp-server-sqlite", "--db-path", "/Users/me/test.db"], disabled: true },
      },
    },
    null,
    2,
  );

// VS Code's .vscode/mcp.json: JSONC (a comment, a trailing comma), `servers` with `type`.
const vscodeMcpJson = `// .vscode/mcp.json
{
  "inputs": [{ "type": "promptString", "id": "docs-token", "password": true }],
  "servers": {
    "vs-docs": { "type": "http", "url": "http://127.0.0.1:9/mcp", "headers": { "Authorization": "Bearer \${input:docs-token}", "X-Static": "${DOCS_TOKEN}" }, "disabled": true },
    "vs-events": { "type": "sse", "url": "http://127.0.0.1:9/events/sse?api_key=${URL_KEY}&region=eu", "disabled": true },
  },
}`;

type Item = { name: string; action: string; reason?: string; transport: string | null; target: string | null; changes?: string[]; notes: string[]; id?: string };

let admin: TestUser;
let owner: TestUser;
let stranger: TestUser;
let adminTeam: TestTeam;
let ownerTeam: TestTeam;
let strangerTeam: TestTeam;

const importConfig = (as: Caller, body: Record<string, unknown>) => call("POST", "/api/v1/servers/import", { as, body });
const rowsOf = (team: TestTeam) => testDb().mcpServer.findMany({ where: { tenantId: team.id }, orderBy: { name: "asc" } });
const byName = (items: Item[]) => Object.fromEntries(items.map((i) => [i.name, i]));

beforeAll(async () => {
  // stdio needs an instance administrator under the default TOOLWATCH_STDIO_POLICY=admins.
  admin = await signUp("imp-admin");
  await testDb().user.update({ where: { id: admin.id }, data: { instanceAdmin: true } });
  adminTeam = await createTeam(admin, "imp-admin");
  owner = await signUp("imp-owner");
  await testDb().user.update({ where: { id: owner.id }, data: { instanceAdmin: false } });
  ownerTeam = await createTeam(owner, "imp-owner");
  stranger = await signUp("imp-stranger");
  await testDb().user.update({ where: { id: stranger.id }, data: { instanceAdmin: false } });
  strangerTeam = await createTeam(stranger, "imp-stranger");
});

afterAll(async () => {
  await disableServers(adminTeam, ownerTeam, strangerTeam);
  await testDb().user.update({ where: { id: admin.id }, data: { instanceAdmin: false } });
});

describe("POST /api/v1/servers/import with a Claude Desktop config", () => {
  it("dryRun lists three servers to create and stores nothing", async () => {
    const res = expectStatus(await importConfig(admin.caller, { config: claudeDesktop(), dryRun: true }), 200, "dry run");
    expect(res.json.format).toBe("claude-desktop");
    expect(res.json.dryRun).toBe(true);
    expect(res.json.summary).toEqual({ create: 3, update: 0, unchanged: 0, refused: 0 });
    const items = byName(res.json.items);
    expect(Object.keys(items).sort()).toEqual(["filesystem", "github", "sqlite"]);
    expect(items.github).toMatchObject({ action: "create", transport: "stdio", target: "npx -y @modelcontextprotocol/server-github" });
    expect(items.sqlite!.target).toBe("uvx mcp-server-sqlite --db-path /Users/me/test.db");
    expect(res.text).not.toContain(GITHUB_TOKEN);
    expect(await rowsOf(adminTeam)).toEqual([]);
  });

  it("without dryRun creates the three, env values sealed, and never echoes them", async () => {
    const res = expectStatus(await importConfig(admin.caller, { config: claudeDesktop(), dryRun: false }), 200, "import");
    expect(res.json.summary).toEqual({ create: 3, update: 0, unchanged: 0, refused: 0 });
    expect(res.text).not.toContain(GITHUB_TOKEN);
    const rows = await rowsOf(adminTeam);
    expect(rows.map((r) => r.name)).toEqual(["filesystem", "github", "sqlite"]);
    const github = rows.find((r) => r.name === "github")!;
    expect(byName(res.json.items).github!.id).toBe(github.id);
    expect(github).toMatchObject({ transport: "stdio", command: "npx", args: ["-y", "@modelcontextprotocol/server-github"], enabled: false });
    expect(github.envEncrypted).not.toContain(GITHUB_TOKEN);
    expect(decryptJson(TEST_KEY, github.envEncrypted!)).toEqual({ GITHUB_PERSONAL_ACCESS_TOKEN: GITHUB_TOKEN });
    const audits = await testDb().auditEvent.count({ where: { tenantId: adminTeam.id, action: "server.created" } });
    expect(audits).toBe(3);
  });

  it("the same config again: three unchanged, none created", async () => {
    const res = expectStatus(await importConfig(admin.caller, { config: claudeDesktop(), dryRun: false }), 200, "again");
    expect(res.json.summary).toEqual({ create: 0, update: 0, unchanged: 3, refused: 0 });
    expect(res.json.items.map((i: Item) => i.action)).toEqual(["unchanged", "unchanged", "unchanged"]);
    expect((await rowsOf(adminTeam)).length).toBe(3);
  });

  it("a changed argument is an update naming the field, applied in place", async () => {
    const before = (await rowsOf(adminTeam)).find((r) => r.name === "filesystem")!;
    const preview = expectStatus(await importConfig(admin.caller, { config: claudeDesktop("/Users/me/Projects"), dryRun: true }), 200, "preview");
    expect(byName(preview.json.items).filesystem).toMatchObject({ action: "update", changes: ["command"], id: before.id });
    expect((await rowsOf(adminTeam)).find((r) => r.name === "filesystem")!.args).toEqual(before.args);
    const res = expectStatus(await importConfig(admin.caller, { config: claudeDesktop("/Users/me/Projects"), dryRun: false }), 200, "apply");
    expect(res.json.summary).toEqual({ create: 0, update: 1, unchanged: 2, refused: 0 });
    const after = (await rowsOf(adminTeam)).find((r) => r.name === "filesystem")!;
    expect(after.id).toBe(before.id);
    expect(after.args).toEqual(["-y", "@modelcontextprotocol/server-filesystem", "/Users/me/Projects"]);
  });

  it("an owner who is not an instance administrator gets each stdio server refused (the stdio policy), nothing created", async () => {
    const res = expectStatus(await importConfig(owner.caller, { config: claudeDesktop(), dryRun: false }), 200, "policy");
    expect(res.json.summary).toEqual({ create: 0, update: 0, unchanged: 0, refused: 3 });
    for (const item of res.json.items as Item[]) expect(item.reason).toMatch(/stdio/);
    expect(await rowsOf(ownerTeam)).toEqual([]);
  });
});

describe("POST /api/v1/servers/import with a VS Code mcp.json", () => {
  it("reads servers + type from JSONC, keeps ${input:…} literal, seals headers and shows no secret", async () => {
    const preview = expectStatus(await importConfig(owner.caller, { config: vscodeMcpJson, dryRun: true }), 200, "preview");
    expect(preview.json.format).toBe("vscode");
    expect(preview.json.items).toEqual([
      { name: "vs-docs", action: "create", transport: "streamable_http", target: "http://127.0.0.1:9/mcp", notes: [] },
      { name: "vs-events", action: "create", transport: "sse", target: "http://127.0.0.1:9/events/sse?api_key=REDACTED&region=eu", notes: [] },
    ]);
    const res = expectStatus(await importConfig(owner.caller, { config: vscodeMcpJson, dryRun: false }), 200, "import");
    expect(res.json.summary).toEqual({ create: 2, update: 0, unchanged: 0, refused: 0 });
    for (const secret of [DOCS_TOKEN, URL_KEY]) {
      expect(preview.text).not.toContain(secret);
      expect(res.text).not.toContain(secret);
    }
    const rows = await rowsOf(ownerTeam);
    expect(rows.map((r) => [r.name, r.transport])).toEqual([["vs-docs", "streamable_http"], ["vs-events", "sse"]]);
    const docs = rows[0]!;
    expect(docs.headersEncrypted).not.toContain(DOCS_TOKEN);
    expect(decryptJson(TEST_KEY, docs.headersEncrypted!)).toEqual({ Authorization: "Bearer ${input:docs-token}", "X-Static": DOCS_TOKEN });
  });

  it("takes the parsed object as well as the text, and a format override", async () => {
    const doc = { servers: { "vs-docs": { type: "http", url: "http://127.0.0.1:9/mcp", headers: { Authorization: "x", "X-Static": "y" }, disabled: true } } };
    const res = expectStatus(await importConfig(owner.caller, { config: doc, format: "vscode", dryRun: true }), 200, "object");
    expect(res.json.items).toEqual([{ name: "vs-docs", action: "unchanged", transport: "streamable_http", target: "http://127.0.0.1:9/mcp", notes: ["header values not compared (the API never returns them)"], id: expect.any(String) }]);
    const wrong = await importConfig(owner.caller, { config: doc, format: "zed", dryRun: true });
    expect(wrong.status).toBe(400);
    expect(wrong.json.error.message).toContain("context_servers");
  });
});

describe("POST /api/v1/servers/import: who may, and bad input", () => {
  it("a viewer gets 403 and nothing is written", async () => {
    const viewer = (await mintKey(owner.caller, "viewer", "import-viewer")).caller;
    const config = JSON.stringify({ mcpServers: { "viewer-made": { url: "http://127.0.0.1:9/mcp", disabled: true } } });
    for (const dryRun of [true, false]) expect((await importConfig(viewer, { config, dryRun })).status).toBe(403);
    expect((await rowsOf(ownerTeam)).map((r) => r.name)).not.toContain("viewer-made");
  });

  it("another team neither sees nor touches the first team's servers of the same names", async () => {
    const before = await rowsOf(ownerTeam);
    const changed = vscodeMcpJson.replace("http://127.0.0.1:9/mcp", "http://127.0.0.1:9/other");
    const preview = expectStatus(await importConfig(stranger.caller, { config: changed, dryRun: true }), 200, "stranger preview");
    expect(preview.json.items.map((i: Item) => [i.name, i.action, i.id])).toEqual([["vs-docs", "create", undefined], ["vs-events", "create", undefined]]);
    const res = expectStatus(await importConfig(stranger.caller, { config: changed, dryRun: false }), 200, "stranger import");
    const ids = res.json.items.map((i: Item) => i.id);
    expect(ids.some((id: string) => before.some((b) => b.id === id))).toBe(false);
    expect((await rowsOf(strangerTeam)).map((r) => r.url)).toEqual(["http://127.0.0.1:9/other", expect.stringContaining("/events/sse")]);
    expect(await rowsOf(ownerTeam)).toEqual(before);
  });

  it("refuses invalid input with a 400 naming what is wrong, writing nothing", async () => {
    const cases: [unknown, RegExp][] = [
      [{ config: "{ \"mcpServers\": { oops", dryRun: true }, /not JSON/],
      [{ config: JSON.stringify({ something: {} }), dryRun: true }, /mcpServers/],
      [{ config: "[1, 2]", dryRun: true }, /not an object/],
      [{ config: JSON.stringify({ mcpServers: {} }) }, /dryRun/],
      [{ config: 42, dryRun: true }, /config/],
      [{ config: "{}", format: "netscape", dryRun: true }, /format/],
      [{ config: "{}", dryRun: true, extra: 1 }, /extra|Unrecognized/i],
    ];
    for (const [body, message] of cases) {
      const res = await importConfig(owner.caller, body as Record<string, unknown>);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.json.error.message, JSON.stringify(body)).toMatch(message);
    }
    const raw = await call("POST", "/api/v1/servers/import", { as: owner.caller, rawBody: "{not json" });
    expect(raw.status).toBe(400);
    expect(raw.json.error.message).toMatch(/not valid JSON/);
  });

  it("refuses a huge body (size cap) with a 400", async () => {
    const res = await importConfig(owner.caller, { config: `{"mcpServers": {}, "pad": "${"x".repeat(2_100_000)}"}`, dryRun: true });
    expect(res.status).toBe(400);
    expect(res.json.error.message).toMatch(/too large/i);
  });

  it("an entry the API would refuse is refused alone, with the reason, and the rest imported", async () => {
    const config = JSON.stringify({ mcpServers: { "ok-one": { url: "http://127.0.0.1:9/ok", disabled: true }, "bad-url": { url: "ftp://127.0.0.1/x", disabled: true } } });
    const res = expectStatus(await importConfig(owner.caller, { config, dryRun: false }), 200, "mixed");
    expect(res.json.summary).toEqual({ create: 1, update: 0, unchanged: 0, refused: 1 });
    expect(byName(res.json.items)["bad-url"]).toMatchObject({ action: "refused", reason: expect.stringMatching(/url/) });
    const names = (await rowsOf(ownerTeam)).map((r) => r.name);
    expect(names).toContain("ok-one");
    expect(names).not.toContain("bad-url");
  });
});
