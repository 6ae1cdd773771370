import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { parseClientConfig } from "@/lib/import/parse-client-config";
import { ImportFormatError } from "@/lib/import/types";

// Each fixture is a hand-written example of a client's config (shapes from the clients' docs);
// every expectation below is written out by hand from the file.
const read = (name: string) => parseClientConfig(fs.readFileSync(path.join(import.meta.dirname, "../fixtures/client-configs", name), "utf8"));

describe("client config import: detect the format and read every server", () => {
  it("Claude Desktop: mcpServers of stdio commands, env values kept as written", () => {
    expect(read("claude_desktop_config.json")).toEqual({
      format: "claude-desktop",
      entries: [
        { name: "filesystem", notes: [], body: { name: "filesystem", transport: "stdio", command: "npx", args: ["-y", "@modelcontextprotocol/server-filesystem", "/Users/me/Desktop", "/Users/me/Downloads"], env: {} } },
        { name: "github", notes: [], body: { name: "github", transport: "stdio", command: "npx", args: ["-y", "@modelcontextprotocol/server-github"], env: { GITHUB_PERSONAL_ACCESS_TOKEN: "ghp_exampleexampleexample" } } },
        { name: "sqlite", notes: [], body: { name: "sqlite", transport: "stdio", command: "uvx", args: ["mcp-server-sqlite", "--db-path", "/Users/me/test.db"], env: {} } },
      ],
    });
  });

  it("Claude Code .mcp.json: type stdio/http/sse; ${VAR} stays literal, so a URL made of a placeholder is refused", () => {
    const { format, entries } = read("claude-code.mcp.json");
    expect(format).toBe("claude-code");
    expect(entries).toEqual([
      { name: "github", notes: [], body: { name: "github", transport: "stdio", command: "npx", args: ["-y", "@modelcontextprotocol/server-github"], env: { GITHUB_PERSONAL_ACCESS_TOKEN: "${GITHUB_TOKEN}" } } },
      { name: "api-server", refused: "url: The server URL is not a valid absolute URL (expected something like https://mcp.example.com/mcp)." },
      { name: "linear", notes: [], body: { name: "linear", transport: "sse", url: "https://mcp.linear.app/sse", headers: {} } },
      { name: "notion", notes: [], body: { name: "notion", transport: "streamable-http", url: "https://mcp.notion.com/mcp", headers: {} } },
    ]);
  });

  it("Cursor mcp.json: url entries without type (…/sse → sse, else streamable-http), ${env:…} kept", () => {
    expect(read("cursor-mcp.json")).toEqual({
      format: "cursor",
      entries: [
        { name: "postgres", notes: [], body: { name: "postgres", transport: "stdio", command: "npx", args: ["-y", "@modelcontextprotocol/server-postgres", "postgresql://localhost/mydb"], env: { PGPASSWORD: "${env:PGPASSWORD}" } } },
        { name: "remote-tools", notes: [], body: { name: "remote-tools", transport: "streamable-http", url: "https://tools.example.com/mcp", headers: { API_KEY: "${env:TOOLS_API_KEY}" } } },
        { name: "legacy-events", notes: [], body: { name: "legacy-events", transport: "sse", url: "https://events.example.com/sse", headers: {} } },
      ],
    });
  });

  it("VS Code .vscode/mcp.json (with a comment): servers + type, ${input:…} and ${workspaceFolder} kept, envFile noted", () => {
    expect(read("vscode-mcp.json")).toEqual({
      format: "vscode",
      entries: [
        {
          name: "github",
          notes: [],
          body: { name: "github", transport: "stdio", command: "docker", args: ["run", "-i", "--rm", "-e", "GITHUB_PERSONAL_ACCESS_TOKEN", "ghcr.io/github/github-mcp-server"], env: { GITHUB_PERSONAL_ACCESS_TOKEN: "${input:github-token}" } },
        },
        { name: "context7", notes: [], body: { name: "context7", transport: "streamable-http", url: "https://mcp.context7.com/mcp", headers: { CONTEXT7_API_KEY: "${env:CONTEXT7_API_KEY}" } } },
        {
          name: "workspace-tools",
          notes: ["envFile is not read: set those variables on the server after import"],
          body: { name: "workspace-tools", transport: "stdio", command: "node", args: ["${workspaceFolder}/tools/server.js"], env: {} },
        },
      ],
    });
  });

  it("VS Code settings.json (JSONC: comments, trailing commas): mcp.servers", () => {
    expect(read("vscode-settings.json")).toEqual({
      format: "vscode-settings",
      entries: [
        { name: "fetch", notes: [], body: { name: "fetch", transport: "stdio", command: "uvx", args: ["mcp-server-fetch"], env: {} } },
        { name: "remote", notes: [], body: { name: "remote", transport: "sse", url: "https://remote.example.com/sse", headers: { "X-Api-Key": "${input:remote-key}" } } },
      ],
    });
  });

  it("Windsurf mcp_config.json: serverUrl entries; disabled → enabled false", () => {
    expect(read("windsurf-mcp_config.json")).toEqual({
      format: "windsurf",
      entries: [
        { name: "tidewave", notes: [], body: { name: "tidewave", transport: "streamable-http", url: "http://localhost:4000/tidewave/mcp", headers: {} } },
        { name: "talaria", notes: [], body: { name: "talaria", transport: "streamable-http", url: "https://api.example.com/mcp", headers: { Authorization: "Bearer ${env:TALARIA_TOKEN}" } } },
        { name: "ollama", notes: [], body: { name: "ollama", transport: "stdio", command: "py", args: ["-m", "mcp_ollama_python"], env: {}, enabled: false } },
      ],
    });
  });

  it("Zed settings.json: command {path,args,env}, command + args, url + headers; an extension-provided server is refused", () => {
    expect(read("zed-settings.json")).toEqual({
      format: "zed",
      entries: [
        { name: "my-context-server", notes: [], body: { name: "my-context-server", transport: "stdio", command: "/path/to/my-context-server", args: ["run"], env: { LOG_LEVEL: "debug" } } },
        { name: "mcp-server-time", notes: [], body: { name: "mcp-server-time", transport: "stdio", command: "uvx", args: ["mcp-server-time", "--local-timezone=Europe/Paris"], env: {} } },
        { name: "spectron", notes: [], body: { name: "spectron", transport: "streamable-http", url: "https://context.example.com/mcp", headers: { Authorization: "Bearer <your-api-key>" } } },
        { name: "postgres-context-server", refused: "no command or url: the server is provided by a Zed extension, which Toolwatch cannot run" },
      ],
    });
  });

  it("Toolwatch export (version 1): bodies as written, tags, enabled, poll interval and audit policy included", () => {
    expect(read("toolwatch-export.json")).toEqual({
      format: "toolwatch",
      entries: [
        {
          name: "payments",
          notes: [],
          body: { name: "payments", transport: "streamable-http", url: "https://payments.example.com/mcp", headers: { Authorization: "${env:AUTHORIZATION}" }, tags: ["prod", "team:payments"], enabled: true, pollIntervalSeconds: 600, auditPolicy: "strict" },
        },
        {
          name: "git",
          notes: [],
          body: { name: "git", transport: "stdio", command: "uvx", args: ["mcp-server-git", "--repository", "/srv/repo"], env: { GIT_TOKEN: "${env:GIT_TOKEN}" }, tags: [], enabled: false, pollIntervalSeconds: 300, auditPolicy: "trust_first" },
        },
      ],
    });
  });

  it("refuses, per entry and with why, what cannot become a server; the rest still imports", () => {
    expect(read("refusals.json").entries).toEqual([
      { name: " padded", refused: "the name has leading or trailing spaces" },
      { name: "bad-header", refused: 'headers["Bad Header"]: is not a valid header name (RFC 9110 token: letters, digits and !#$%&\'*+-.^_`|~, no spaces)' },
      { name: "nothing", refused: "the entry has neither command nor url" },
      { name: "bad-type", refused: 'type "websocket" is not one of stdio, http, sse' },
      { name: "ftp", refused: 'url: The server URL uses the "ftp" scheme; only http and https are supported.' },
      { name: "ok", notes: [], body: { name: "ok", transport: "stdio", command: "node", args: ["ok.js"], env: {} } },
    ]);
  });

  it("a name over 100 characters is refused with the API's reason", () => {
    const long = "n".repeat(101);
    expect(parseClientConfig(JSON.stringify({ mcpServers: { [long]: { command: "node" } } })).entries).toEqual([{ name: long, refused: "name: name is at most 100 characters" }]);
  });

  it("files that are not a config are an ImportFormatError with a sentence, never a crash", () => {
    expect(() => parseClientConfig("{ not json")).toThrow(ImportFormatError);
    expect(() => parseClientConfig("[1, 2]")).toThrow(/not an object/);
    expect(() => parseClientConfig('{"editor.fontSize": 14}')).toThrow(/no MCP servers found/);
    expect(() => parseClientConfig('{"toolwatch": "servers", "version": 2, "servers": []}')).toThrow(/has version 2; this toolwatch reads version 1/);
  });
});
