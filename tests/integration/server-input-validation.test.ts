// api-client comes first: it points lib/env at the per-run test database before anything reads it.
import { call, createTeam, disableServers, expectStatus, signUp, type TestTeam, type TestUser } from "@/tests/helpers/api-client";
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testDb } from "@/tests/helpers/factories";

// Issue 13: what is saved must be sendable. A header name with a space and a newline used to be
// accepted (201) and fail only at connect time; a value with CR/LF could smuggle a header in. Now
// refused when saved, 400 naming the field as headers["…"], on create, edit and batch alike. Same
// for stdio env names and NUL bytes. The URL here is public and never dialled (no worker runs).
const URL = "https://mcp.example.invalid/mcp";
const uniq = () => randomUUID().slice(0, 8);

let admin: TestUser;
let team: TestTeam;

beforeAll(async () => {
  admin = await signUp("siv-admin");
  // stdio servers need an instance administrator (TOOLWATCH_STDIO_POLICY=admins).
  await testDb().user.update({ where: { id: admin.id }, data: { instanceAdmin: true } });
  team = await createTeam(admin, "siv");
});
afterAll(async () => {
  await disableServers(team);
});

const http = (headers: Record<string, string>) => ({ name: `h-${uniq()}`, transport: "streamable-http", url: URL, headers, enabled: false });
const stdio = (env: Record<string, string>, extra: Record<string, unknown> = {}) => ({ name: `s-${uniq()}`, transport: "stdio", command: "node", args: ["x.js"], env, enabled: false, ...extra });

describe("header names and values", () => {
  it.each<[string, Record<string, string>, string, RegExp]>([
    ["a name with a space and a newline", { "Bad Header\n": "x" }, 'headers["Bad Header\\n"]', /not a valid header name/],
    ["a name with a colon", { "X-Api:Key": "x" }, 'headers["X-Api:Key"]', /not a valid header name/],
    ["a non-ASCII name", { "X-Clé": "x" }, 'headers["X-Clé"]', /not a valid header name/],
    ["a value with CR LF (header smuggling)", { "X-Token": "abc\r\nX-Injected: 1" }, 'headers["X-Token"]', /line break/],
    ["a value with a NUL", { Authorization: "Bearer a\u0000b" }, "headers.Authorization", /NUL/], // caught by the storable-text check every route shares (lib/validation.ts)
  ])("%s → 400 naming the field", async (_what, headers, field, reason) => {
    const res = await call("POST", "/api/v1/servers", { as: admin.caller, body: http(headers) });
    expect(res.status, res.text).toBe(400);
    expect(res.json.error.code).toBe("INVALID_INPUT");
    expect(res.json.error.details.fields[field]).toMatch(reason);
    expect(res.json.error.message.startsWith(`${field}: `)).toBe(true);
    // The value may be a secret: never repeated.
    expect(res.text).not.toContain("abc");
  });

  it("ordinary header names are accepted (201)", async () => {
    expectStatus(await call("POST", "/api/v1/servers", { as: admin.caller, body: http({ Authorization: "Bearer t", "X-Api-Key": "k", "x_custom.v2": "v" }) }), 201);
  });

  it("PATCH refuses the same, and the stored headers stay", async () => {
    const id = expectStatus(await call("POST", "/api/v1/servers", { as: admin.caller, body: http({ Authorization: "Bearer t" }) }), 201).json.server.id;
    const before = await testDb().mcpServer.findUniqueOrThrow({ where: { id } });
    const res = await call("PATCH", `/api/v1/servers/${id}`, { as: admin.caller, body: { headers: { "Bad Header\n": "x" } } });
    expect(res.status, res.text).toBe(400);
    expect(res.json.error.details.fields).toHaveProperty(['headers["Bad Header\\n"]']);
    expect((await testDb().mcpServer.findUniqueOrThrow({ where: { id } })).headersEncrypted).toBe(before.headersEncrypted);
  });

  it("a batch names each bad item by index and registers none", async () => {
    const res = await call("POST", "/api/v1/servers/batch", { as: admin.caller, body: { servers: [http({ Good: "1" }), http({ "Bad Header\n": "x" }), http({ Fine: "a\nb" })] } });
    expect(res.status, res.text).toBe(400);
    expect(res.json.error.details.errors).toEqual([
      { index: 1, message: 'headers["Bad Header\\n"]: is not a valid header name (RFC 9110 token: letters, digits and !#$%&\'*+-.^_`|~, no spaces)' },
      { index: 2, message: 'headers["Fine"]: the value contains a line break (CR or LF) or a NUL character' },
    ]);
  });
});

describe("stdio environment and command", () => {
  it.each<[string, Record<string, unknown>, string]>([
    ['an env name with "="', stdio({ "A=B": "x" }), 'env["A=B"]'],
    ["an env name with a space", stdio({ "MY VAR": "x" }), 'env["MY VAR"]'],
    ["an env name with a NUL", stdio({ "A\u0000B": "x" }), 'env["A\\u0000B"]'],
    ["an env value with a NUL", stdio({ TOKEN: "a\u0000b" }), "env.TOKEN"],
    ["an argument with a NUL", stdio({}, { args: ["a\u0000b"] }), "args.0"],
  ])("%s → 400 naming the field", async (_what, body, field) => {
    const res = await call("POST", "/api/v1/servers", { as: admin.caller, body });
    expect(res.status, res.text).toBe(400);
    expect(res.json.error.details.fields).toHaveProperty([field]);
  });

  it("ordinary env names are accepted, lower case and dots included (201)", async () => {
    expectStatus(await call("POST", "/api/v1/servers", { as: admin.caller, body: stdio({ API_TOKEN: "t", npm_config_cache: "/tmp/c", "dotted.name": "v" }) }), 201);
  });
});
