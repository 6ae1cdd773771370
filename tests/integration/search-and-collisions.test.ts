// api-client comes first: it points lib/env at the per-run test database before anything reads it.
import { call, createHttpServer, createTeam, disableServers, expectStatus, mintKey, signUp, type Caller, type TestTeam } from "@/tests/helpers/api-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { evaluateSnapshot } from "@/lib/alerts/evaluate-snapshot";
import { recordSnapshot } from "@/lib/snapshots/record-snapshot";

// GET /api/v1/search and GET /api/v1/collisions through the real route handlers, on data recorded
// and evaluated the way the worker's sink does it. Every expected value below is written by hand.

type Tool = { name: string; description: string; inputSchema: Record<string, unknown> };
const tool = (name: string, description: string): Tool => ({ name, description, inputSchema: { type: "object", properties: { id: { type: "string" } } } });

const SEND = tool("send_email", "Send an email to a recipient.");
const SEND_OTHER = tool("send_email", "Sends a note to someone by email.");
const INBOX = tool("list_inbox", "Lists up to 1000 entries of the mailbox.");
const NOTE = tool("take_note", "Writes a note: 100% of what was said.");
const SECRET = tool("secret_export", "Exports the quarterly ledger of Bravo.");
const SHARED = tool("bravo_shared", "A tool two of Bravo's servers offer.");

async function addServer(team: TestTeam, name: string, tools: Tool[]): Promise<string> {
  const id = await createHttpServer(team, name);
  await relist(team, id, tools);
  return id;
}
async function relist(team: TestTeam, serverId: string, tools: Tool[]): Promise<void> {
  const result = await recordSnapshot(team.ctx, { serverId, tools, trigger: "list_changed", serverVersion: "1.0.0" });
  await evaluateSnapshot(team.ctx, { serverId, trigger: result.kind });
}

type Fixture = { a: TestTeam; b: TestTeam; bKey: Caller; aViewerKey: Caller; ids: Record<"mailProd" | "mailStaging" | "notes" | "files" | "bravoSecret" | "bravoTwo" | "bravoThree", string> };
let f: Fixture;

beforeAll(async () => {
  const a = await createTeam(await signUp("finder-a"), "finder-a");
  const b = await createTeam(await signUp("finder-b"), "finder-b");
  const mailProd = await addServer(a, "mail-prod", [SEND, INBOX]);
  // The other team, in between A's servers: its rows sit next to A's in every index.
  const bravoSecret = await addServer(b, "bravo-secret", [SECRET, SEND]);
  const mailStaging = await addServer(a, "mail-staging", [SEND, INBOX]);
  const notes = await addServer(a, "Notes Server.v2", [SEND_OTHER, NOTE]);
  const files = await addServer(a, "files", [tool("read_file", "Reads a file.")]);
  const bravoTwo = await addServer(b, "bravo-two", [SHARED]);
  const bravoThree = await addServer(b, "bravo-three", [SHARED]);
  const bKey = (await mintKey(b.owner.caller, "owner", "bravo-owner-key")).caller;
  const aViewerKey = (await mintKey(a.owner.caller, "viewer", "alpha-viewer-key")).caller;
  f = { a, b, bKey, aViewerKey, ids: { mailProd, mailStaging, notes, files, bravoSecret, bravoTwo, bravoThree } };
});

afterAll(async () => {
  if (f) await disableServers(f.a, f.b);
});

const search = async (as: Caller, q: string) => expectStatus(await call("GET", `/api/v1/search?q=${encodeURIComponent(q)}`, { as }), 200, `search ${q}`).json;
const collisions = async (as: Caller, query = "") => expectStatus(await call("GET", `/api/v1/collisions${query}`, { as }), 200, "collisions").json;

describe("tenant isolation (the attacker's view first)", () => {
  for (const who of ["session", "key"] as const) {
    const caller = () => (who === "session" ? f.b.owner.caller : f.bKey);
    it(`team B's owner (${who}) finds none of team A's servers, tools or alerts`, async () => {
      for (const q of ["mail-prod", "mail", "Notes Server", "take_note", "100%", "mailbox", "recipient", "offered by", "list_inbox", "files"]) {
        const result = await search(caller(), q);
        const names = [...result.servers.map((s: { name: string }) => s.name), ...result.tools.map((t: { serverName: string }) => t.serverName), ...result.alerts.map((x: { serverName: string }) => x.serverName)];
        expect(names.filter((n: string) => !n.startsWith("bravo-")), `q=${q}`).toEqual([]);
      }
    });

    it(`team B's owner (${who}) sees only B's collisions: send_email on one B server and three A servers is not one`, async () => {
      const page = await collisions(caller());
      expect(page.items.map((c: { toolName: string }) => c.toolName)).toEqual(["bravo_shared"]);
      expect(page.items[0].servers.map((s: { serverName: string }) => s.serverName)).toEqual(["bravo-two", "bravo-three"]);
      expect(JSON.stringify(page)).not.toContain(f.ids.mailProd);
    });
  }

  it("a B search for send_email finds B's one server only", async () => {
    const result = await search(f.b.owner.caller, "send_email");
    expect(result.tools).toEqual([{ serverId: f.ids.bravoSecret, serverName: "bravo-secret", name: "send_email", description: "Send an email to a recipient." }]);
  });

  it("A's own searches do not see B's servers or tools either", async () => {
    const result = await search(f.a.owner.caller, "bravo");
    expect(result).toEqual({ query: "bravo", servers: [], tools: [], alerts: [] });
  });
});

describe("GET /api/v1/collisions", () => {
  it("lists each name two or more servers offer, servers in the order they started to, with definitions told apart", async () => {
    const page = await collisions(f.a.owner.caller);
    expect(page.nextCursor).toBeNull();
    expect(page.items.map((c: { toolName: string; serverCount: number; definitionCount: number }) => [c.toolName, c.serverCount, c.definitionCount])).toEqual([
      ["list_inbox", 2, 1],
      ["send_email", 3, 2],
    ]);
    const send = page.items[1];
    expect(send.servers.map((s: { serverId: string; serverName: string; definition: number }) => [s.serverId, s.serverName, s.definition])).toEqual([
      [f.ids.mailProd, "mail-prod", 1],
      [f.ids.mailStaging, "mail-staging", 1],
      [f.ids.notes, "Notes Server.v2", 2],
    ]);
  });

  it("gives the names Claude Code and VS Code would use", async () => {
    const send = (await collisions(f.a.owner.caller)).items[1];
    expect(send.servers.map((s: { qualifiedNames: unknown }) => s.qualifiedNames)).toEqual([
      [{ host: "claude-code", name: "mcp__mail-prod__send_email" }, { host: "vscode", name: "mcp_mail-prod_send_email" }],
      [{ host: "claude-code", name: "mcp__mail-staging__send_email" }, { host: "vscode", name: "mcp_mail-staging_send_email" }],
      [{ host: "claude-code", name: "mcp__Notes_Server_v2__send_email" }, { host: "vscode", name: "mcp_notes_server._send_email" }],
    ]);
  });

  it("links each name to its unresolved collision alert (and only alerts about that name)", async () => {
    const page = await collisions(f.a.owner.caller);
    for (const item of page.items) {
      for (const alert of item.alerts) expect(["name_collision", "suspicious_content"]).toContain(alert.kind);
    }
    const inbox = page.items[0].alerts.filter((x: { kind: string }) => x.kind === "name_collision");
    expect(inbox).toEqual([{ id: expect.any(String), kind: "name_collision", severity: "medium", status: "open", serverId: f.ids.mailProd, title: '"list_inbox" is offered by 2 servers: mail-prod, mail-staging' }]);
    const send = page.items[1].alerts.filter((x: { kind: string }) => x.kind === "name_collision");
    expect(send.map((x: { title: string }) => x.title)).toEqual(['"send_email" is offered by 3 servers: mail-prod, mail-staging, Notes Server.v2']);
  });

  it("pages by name with a cursor; a cursor of another list is a 400", async () => {
    const first = await collisions(f.a.owner.caller, "?limit=1");
    expect(first.items.map((c: { toolName: string }) => c.toolName)).toEqual(["list_inbox"]);
    expect(first.nextCursor).toEqual(expect.any(String));
    const second = await collisions(f.a.owner.caller, `?limit=1&cursor=${encodeURIComponent(first.nextCursor)}`);
    expect(second.items.map((c: { toolName: string }) => c.toolName)).toEqual(["send_email"]);
    expect(second.nextCursor).toBeNull();
    const alertsCursor = (await call("GET", "/api/v1/alerts?limit=1", { as: f.a.owner.caller })).json.nextCursor;
    expect((await call("GET", `/api/v1/collisions?cursor=${encodeURIComponent(alertsCursor)}`, { as: f.a.owner.caller })).status).toBe(400);
    expect((await call("GET", "/api/v1/collisions?limit=0", { as: f.a.owner.caller })).status).toBe(400);
    expect((await call("GET", "/api/v1/collisions?limit=501", { as: f.a.owner.caller })).status).toBe(400);
  });

  it("needs credentials (401) and lets a viewer key read", async () => {
    expect((await call("GET", "/api/v1/collisions", { as: null })).status).toBe(401);
    expect((await collisions(f.aViewerKey)).items).toHaveLength(2);
  });
});

describe("GET /api/v1/search", () => {
  it("finds servers by name: exact, then prefix, then the rest", async () => {
    expect((await search(f.a.owner.caller, "mail")).servers.map((s: { name: string }) => s.name)).toEqual(["mail-prod", "mail-staging"]);
    expect((await search(f.a.owner.caller, "FILES")).servers).toEqual([{ id: f.ids.files, name: "files", status: "pending" }]);
    expect((await search(f.a.owner.caller, "server")).servers.map((s: { name: string }) => s.name)).toEqual(["Notes Server.v2"]);
  });

  it("finds current tools by name before description", async () => {
    const result = await search(f.a.owner.caller, "mail");
    expect(result.tools.map((t: { serverName: string; name: string }) => `${t.serverName}/${t.name}`)).toEqual([
      // "mail" inside the name (rank 2), by tool name then server name; then description-only matches
      "mail-prod/send_email",
      "mail-staging/send_email",
      "Notes Server.v2/send_email",
      "mail-prod/list_inbox",
      "mail-staging/list_inbox",
    ]);
  });

  it("treats % _ and \\ as text, not patterns", async () => {
    const percent = await search(f.a.owner.caller, "100%");
    expect(percent.tools.map((t: { name: string }) => t.name)).toEqual(["take_note"]);
    const underscore = await search(f.a.owner.caller, "e_n");
    expect(underscore.tools.map((t: { name: string }) => t.name)).toEqual(["take_note"]);
    expect((await search(f.a.owner.caller, "\\")).tools).toEqual([]);
  });

  it("searches only the latest snapshot's tools", async () => {
    await relist(f.a, f.ids.mailStaging, [SEND]);
    const result = await search(f.a.owner.caller, "list_inbox");
    expect(result.tools.map((t: { serverName: string }) => t.serverName)).toEqual(["mail-prod"]);
    await relist(f.a, f.ids.mailStaging, [SEND, INBOX]);
  });

  it("finds alerts by title, unresolved first", async () => {
    const result = await search(f.a.owner.caller, "is offered by");
    const titles = result.alerts.map((x: { title: string; status: string }) => [x.title, x.status]);
    expect(titles.filter(([, status]: string[]) => status !== "resolved")).toEqual([
      ['"list_inbox" is offered by 2 servers: mail-prod, mail-staging', "open"],
      ['"send_email" is offered by 3 servers: mail-prod, mail-staging, Notes Server.v2', "open"],
    ]);
  });

  it("answers 400 for a missing, empty, blank or oversized q, and 200 at 100 characters", async () => {
    for (const path of ["/api/v1/search", "/api/v1/search?q=", "/api/v1/search?q=%20%20", `/api/v1/search?q=${"x".repeat(101)}`]) {
      const response = await call("GET", path, { as: f.a.owner.caller });
      expect(response.status, path).toBe(400);
      expect(response.json.error.code).toBe("INVALID_INPUT");
    }
    expect((await search(f.a.owner.caller, "x".repeat(100))).servers).toEqual([]);
    expect((await call("GET", "/api/v1/search?q=mail", { as: null })).status).toBe(401);
    expect((await search(f.aViewerKey, "mail")).servers).toHaveLength(2);
  });

  it("caps each group at 8", async () => {
    const team = await createTeam(await signUp("finder-many"), "finder-many");
    for (let i = 0; i < 10; i++) await addServer(team, `many-${String(i).padStart(2, "0")}`, [tool(`many_tool_${i}`, "one of many")]);
    const result = await search(team.owner.caller, "many");
    expect(result.servers.map((s: { name: string }) => s.name)).toEqual(["many-00", "many-01", "many-02", "many-03", "many-04", "many-05", "many-06", "many-07"]);
    expect(result.tools).toHaveLength(8);
    await disableServers(team);
  });
});
