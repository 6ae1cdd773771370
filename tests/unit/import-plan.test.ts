import { describe, expect, it } from "vitest";
import { planImport } from "@/lib/import/plan-import";
import { parseRegistryPage, registryEntries, registryPageUrl } from "@/lib/import/registry";
import { exportDocument, exportServer } from "@/lib/import/toolwatch-format";
import type { ServerSummary } from "@/lib/servers/server-dto";

// A server as GET /api/v1/servers shows it (only the fields the plan reads matter).
const summary = (over: Partial<ServerSummary>): ServerSummary =>
  ({ id: "id-1", name: "s", transport: "stdio", target: "node a.js", tags: [], enabled: true, demo: false, envKeys: [], headerKeys: [], pollIntervalSeconds: 300, auditPolicy: "trust_first", ...over }) as ServerSummary;

describe("planImport: idempotent by name", () => {
  it("creates new names, leaves equal ones unchanged (saying secret values were not compared), patches what differs", () => {
    const existing = [
      summary({ id: "a", name: "same", target: "npx -y pkg", envKeys: ["TOKEN"] }),
      summary({ id: "b", name: "moved", transport: "streamable_http", target: "https://old.example.com/mcp", headerKeys: ["Authorization"] }),
      summary({ id: "c", name: "retagged", target: "node x.js", tags: ["keep"] }),
    ];
    const plan = planImport(
      [
        { name: "same", notes: [], body: { name: "same", transport: "stdio", command: "npx", args: ["-y", "pkg"], env: { TOKEN: "new-value" } } },
        { name: "moved", notes: [], body: { name: "moved", transport: "streamable-http", url: "https://new.example.com/mcp", headers: { Authorization: "Bearer x" } } },
        { name: "retagged", notes: [], body: { name: "retagged", transport: "stdio", command: "node", args: ["x.js"], env: {} } },
        { name: "fresh", notes: [], body: { name: "fresh", transport: "sse", url: "https://f.example.com/sse", headers: {} } },
        { name: "fresh", notes: [], body: { name: "fresh", transport: "sse", url: "https://g.example.com/sse", headers: {} } },
        { name: "bad", refused: "why not" },
      ],
      existing,
      ["laptop"],
    );
    expect(plan).toEqual([
      { kind: "update", name: "same", id: "a", changed: ["tags"], patch: { tags: ["laptop"] }, notes: [] },
      { kind: "update", name: "moved", id: "b", changed: ["url", "tags"], patch: { url: "https://new.example.com/mcp", headers: { Authorization: "Bearer x" }, tags: ["laptop"] }, notes: [] },
      { kind: "update", name: "retagged", id: "c", changed: ["tags"], patch: { tags: ["keep", "laptop"] }, notes: [] },
      { kind: "create", name: "fresh", body: { name: "fresh", transport: "sse", url: "https://f.example.com/sse", headers: {}, tags: ["laptop"] }, notes: [] },
      { kind: "refused", name: "fresh", why: "the name appears more than once in the input" },
      { kind: "refused", name: "bad", why: "why not" },
    ]);
  });

  it("without --tag: equal is unchanged; changed env names send the whole config; a transport change is refused", () => {
    const existing = [
      summary({ id: "a", name: "same", target: "npx -y pkg", envKeys: ["TOKEN"] }),
      summary({ id: "b", name: "env", target: "node a.js", envKeys: ["OLD"] }),
      summary({ id: "c", name: "kind", transport: "sse", target: "https://k.example.com/sse" }),
    ];
    const plan = planImport(
      [
        { name: "same", notes: [], body: { name: "same", transport: "stdio", command: "npx", args: ["-y", "pkg"], env: { TOKEN: "v" } } },
        { name: "env", notes: [], body: { name: "env", transport: "stdio", command: "node", args: ["a.js"], env: { NEW: "1" }, cwd: "/srv" } },
        { name: "kind", notes: [], body: { name: "kind", transport: "streamable-http", url: "https://k.example.com/sse", headers: {} } },
      ],
      existing,
    );
    expect(plan).toEqual([
      { kind: "unchanged", name: "same", id: "a", notes: ["env values not compared (the API never returns them)"] },
      { kind: "update", name: "env", id: "b", changed: ["env names"], patch: { command: "node", args: ["a.js"], env: { NEW: "1" }, cwd: "/srv" }, notes: [] },
      { kind: "refused", name: "kind", why: "a server with this name exists with transport sse; the API cannot change a server's transport (delete it, or rename the entry)" },
    ]);
  });
});

describe("MCP Registry pages", () => {
  it("builds /v0.1/servers URLs with limit, search and cursor", () => {
    expect(registryPageUrl("https://registry.example.com", { limit: 30, search: "git hub" })).toBe("https://registry.example.com/v0.1/servers?limit=30&search=git+hub");
    expect(registryPageUrl("https://r.example.com/base/v0.1/servers", { limit: 5, cursor: "abc/1" })).toBe("https://r.example.com/base/v0.1/servers?limit=5&cursor=abc%2F1");
  });

  it("registers one remote per server name (latest version), skips package-only entries with why", () => {
    const page = parseRegistryPage({
      servers: [
        { server: { name: "io.example/remote", version: "1.0.0", remotes: [{ type: "streamable-http", url: "https://old.example.com/mcp" }] }, _meta: { "io.modelcontextprotocol.registry/official": { isLatest: false } } },
        { server: { name: "io.example/remote", version: "1.1.0", remotes: [{ type: "sse", url: "https://r.example.com/sse" }, { type: "streamable-http", url: "https://r.example.com/mcp", headers: [{ name: "X-Key", isSecret: true }] }] }, _meta: { "io.modelcontextprotocol.registry/official": { isLatest: true } } },
        { server: { name: "io.example/npm-only", version: "2.0.0", packages: [{ registryType: "npm", identifier: "@example/mcp" }] }, _meta: {} },
        { server: { name: "io.example/ws", version: "1.0.0", remotes: [{ type: "websocket", url: "wss://w.example.com" }] } },
      ],
      metadata: { nextCursor: "next-1", count: 4 },
    });
    expect(page.nextCursor).toBe("next-1");
    expect(registryEntries([page], ["registry"])).toEqual({
      entries: [
        {
          name: "io.example/remote",
          notes: ["registry version 1.1.0", "the registry lists headers X-Key: add them to the server after import"],
          body: { name: "io.example/remote", transport: "streamable-http", url: "https://r.example.com/mcp", tags: ["registry"] },
        },
      ],
      skipped: [
        { name: "io.example/npm-only", why: "package only (no remote URL): it would have to be installed and run as a stdio server" },
        { name: "io.example/ws", why: "no remote of type streamable-http or sse" },
      ],
    });
  });

  it("an answer without a servers list is refused with a sentence", () => {
    expect(() => parseRegistryPage({ items: [] })).toThrow(/no servers list/);
  });
});

describe("toolwatch export format", () => {
  it("writes names of secrets with ${env:NAME} values, never values; demo servers are left out", () => {
    const doc = exportDocument(
      [
        summary({ name: "git", target: "uvx mcp-server-git --repository /srv/repo", envKeys: ["GIT_TOKEN"], tags: ["prod"] }),
        summary({ name: "pay", transport: "streamable_http", target: "https://p.example.com/mcp", headerKeys: ["Authorization", "X-Api-Key"], auditPolicy: "strict", pollIntervalSeconds: 600 }),
        summary({ name: "demo", demo: true }),
      ],
      new Date("2026-12-01T00:00:00Z"),
    );
    expect(doc).toEqual({
      toolwatch: "servers",
      version: 1,
      exportedAt: "2026-12-01T00:00:00.000Z",
      servers: [
        { name: "git", transport: "stdio", command: "uvx", args: ["mcp-server-git", "--repository", "/srv/repo"], env: { GIT_TOKEN: "${env:GIT_TOKEN}" }, tags: ["prod"], enabled: true, pollIntervalSeconds: 300, auditPolicy: "trust_first" },
        { name: "pay", transport: "streamable-http", url: "https://p.example.com/mcp", headers: { Authorization: "${env:AUTHORIZATION}", "X-Api-Key": "${env:X_API_KEY}" }, tags: [], enabled: true, pollIntervalSeconds: 600, auditPolicy: "strict" },
      ],
    });
    expect(exportServer(summary({ target: "node" })).args).toEqual([]);
  });
});
