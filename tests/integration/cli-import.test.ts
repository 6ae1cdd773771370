import { execFile } from "node:child_process";
import { randomUUID } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildIfNeeded } from "@/scripts/build-if-needed";
import { decryptJson } from "@/lib/secrets";
import { startFixtureRegistry, type FixtureRegistry } from "@/tests/fixtures/registry-server";
import { TEST_KEY, testDb } from "@/tests/helpers/factories";
import { freePort, startProcess, type Proc } from "@/tests/helpers/processes";
import { testDatabaseUrl } from "@/tests/helpers/test-database";
import { toolwatchArgs } from "@/tests/helpers/test-bundles";

// `toolwatch import` / `export` as a user runs them: the real CLI (spawned) against the product's
// real web process (production bundle) and a real Postgres; the team and its key come from
// `toolwatch admin`. Row counts are read from the database, expected values written by hand.

const ROOT = path.resolve(import.meta.dirname, "../..");
const CONFIGS = path.join(ROOT, "tests/fixtures/client-configs");
type Run = { code: number; stdout: string; stderr: string };

describe("toolwatch import / export against a running instance", () => {
  const slug = `imp-${randomUUID().slice(0, 8)}`;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "toolwatch-import-"));
  let web: Proc;
  let registry: FixtureRegistry;
  let tenantId: string;
  let apiUrl: string;
  let apiKey: string;
  let port: number;

  const baseEnv = () => ({ ...process.env, DATABASE_URL: testDatabaseUrl() });
  const cli = (args: string[], stdin?: string): Promise<Run> =>
    new Promise((resolve) => {
      const child = execFile(process.execPath, toolwatchArgs(args), { cwd: ROOT, env: { ...baseEnv(), TOOLWATCH_API_URL: apiUrl, TOOLWATCH_API_KEY: apiKey }, timeout: 60_000 }, (error, stdout, stderr) =>
        resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
      );
      if (stdin !== undefined) child.stdin!.end(stdin);
    });
  const admin = (args: string[]) => promisify(execFile)(process.execPath, toolwatchArgs(["admin", ...args]), { cwd: ROOT, env: baseEnv(), timeout: 60_000 });
  const startWeb = (stdioPolicy: string) =>
    startProcess(
      "server.ts",
      { DATABASE_URL: testDatabaseUrl(), NODE_ENV: "production", PORT: String(port), HOST: "127.0.0.1", TOOLWATCH_DATA_DIR: dir, TOOLWATCH_SECRET_KEY: TEST_KEY.toString("base64"), TOOLWATCH_DEMO: "0", TOOLWATCH_STDIO_POLICY: stdioPolicy },
      /Toolwatch is ready at/,
    );
  const rows = () => testDb().mcpServer.findMany({ where: { tenantId }, orderBy: { name: "asc" } });
  const vscodeFile = (docsUrl: string) => {
    const file = path.join(dir, "mcp.json");
    fs.writeFileSync(
      file,
      `// .vscode/mcp.json\n${JSON.stringify({
        inputs: [{ type: "promptString", id: "lint-token", password: true }],
        servers: {
          docs: { type: "http", url: docsUrl, headers: { Authorization: "Bearer ${env:DOCS_TOKEN}" } },
          events: { type: "sse", url: "http://127.0.0.1:9/events/sse" },
          lint: { type: "stdio", command: "node", args: ["lint-server.js"], env: { LINT_TOKEN: "${input:lint-token}" } },
        },
      })}`,
    );
    return file;
  };

  beforeAll(async () => {
    // The web process runs the production bundle, as `npm start` does (built once if missing).
    // Always through buildIfNeeded: it waits while another test file builds (they run two at a time).
    await buildIfNeeded((line) => console.log(`[cli-import] ${line}`));
    port = await freePort();
    apiUrl = `http://127.0.0.1:${port}`;
    [web, registry] = await Promise.all([startWeb("all"), startFixtureRegistry()]);
    await admin(["create-team", slug, "--name", "Import team"]);
    tenantId = (await testDb().tenant.findUniqueOrThrow({ where: { slug } })).id;
    const key = await admin(["create-key", "--team", slug, "--role", "admin", "--name", "import"]);
    apiKey = key.stdout.trimEnd().split("\n").at(-1)!;
  }, 600_000);
  afterAll(async () => {
    await Promise.all([web?.stop(), registry?.stop()]);
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it("registers a Claude Desktop config's three servers and a VS Code mcp.json's three; placeholders are stored as written", async () => {
    const claude = await cli(["import", path.join(CONFIGS, "claude_desktop_config.json")]);
    expect(claude, claude.stderr).toMatchObject({ code: 0 });
    expect(claude.stdout).toBe(
      ["created    filesystem", "created    github", "created    sqlite", "Claude Desktop (mcpServers): 3 created, 0 updated, 0 unchanged, 0 refused", ""].join("\n"),
    );
    const vscode = await cli(["import", vscodeFile("http://127.0.0.1:9/docs/mcp"), "--tag", "vscode"]);
    expect(vscode, vscode.stderr).toMatchObject({ code: 0 });
    expect(vscode.stdout).toBe(["created    docs", "created    events", "created    lint", "VS Code mcp.json (servers): 3 created, 0 updated, 0 unchanged, 0 refused", ""].join("\n"));

    const all = await rows();
    expect(all.map((r) => [r.name, r.transport, r.tags])).toEqual([
      ["docs", "streamable_http", ["vscode"]],
      ["events", "sse", ["vscode"]],
      ["filesystem", "stdio", []],
      ["github", "stdio", []],
      ["lint", "stdio", ["vscode"]],
      ["sqlite", "stdio", []],
    ]);
    const docs = all.find((r) => r.name === "docs")!;
    expect(decryptJson(TEST_KEY, docs.headersEncrypted!)).toEqual({ Authorization: "Bearer ${env:DOCS_TOKEN}" });
    expect(decryptJson(TEST_KEY, all.find((r) => r.name === "lint")!.envEncrypted!)).toEqual({ LINT_TOKEN: "${input:lint-token}" });
    expect(all.find((r) => r.name === "filesystem")!.args).toEqual(["-y", "@modelcontextprotocol/server-filesystem", "/Users/me/Desktop", "/Users/me/Downloads"]);
  });

  it("running both again reports everything unchanged and creates nothing", async () => {
    const before = await rows();
    const claude = await cli(["import", path.join(CONFIGS, "claude_desktop_config.json")]);
    const vscode = await cli(["import", vscodeFile("http://127.0.0.1:9/docs/mcp"), "--tag", "vscode"]);
    expect(claude, claude.stderr).toMatchObject({ code: 0 });
    expect(claude.stdout).toBe(
      [
        "unchanged  filesystem",
        "unchanged  github (env values not compared (the API never returns them))",
        "unchanged  sqlite",
        "Claude Desktop (mcpServers): 0 created, 0 updated, 3 unchanged, 0 refused",
        "",
      ].join("\n"),
    );
    expect(vscode.stdout).toMatch(/^unchanged {2}docs \(header values not compared.*\nunchanged {2}events\nunchanged {2}lint \(env values not compared.*\nVS Code mcp.json \(servers\): 0 created, 0 updated, 3 unchanged, 0 refused\n$/);
    const after = await rows();
    expect(after).toHaveLength(6);
    expect(after.map((r) => [r.id, r.updatedAt.toISOString()])).toEqual(before.map((r) => [r.id, r.updatedAt.toISOString()]));
  });

  it("a changed entry is updated (after a dry run that changes nothing); the others stay unchanged", async () => {
    const file = vscodeFile("http://127.0.0.1:9/docs/v2/mcp");
    const dry = await cli(["import", file, "--tag", "vscode", "--dry-run"]);
    expect(dry.code).toBe(0);
    expect(dry.stdout).toContain("would update docs: url\n");
    expect(dry.stdout).toContain("VS Code mcp.json (servers): 0 would be created, 1 would be updated, 2 unchanged, 0 refused (dry run: nothing was changed)");
    expect((await testDb().mcpServer.findFirstOrThrow({ where: { tenantId, name: "docs" } })).url).toBe("http://127.0.0.1:9/docs/mcp");

    const real = await cli(["import", file, "--tag", "vscode"]);
    expect(real, real.stderr).toMatchObject({ code: 0 });
    expect(real.stdout).toMatch(/^updated {4}docs: url\nunchanged {2}events\nunchanged {2}lint .*\nVS Code mcp.json \(servers\): 0 created, 1 updated, 2 unchanged, 0 refused\n$/);
    const docs = await testDb().mcpServer.findFirstOrThrow({ where: { tenantId, name: "docs" } });
    expect(docs.url).toBe("http://127.0.0.1:9/docs/v2/mcp");
    expect(decryptJson(TEST_KEY, docs.headersEncrypted!)).toEqual({ Authorization: "Bearer ${env:DOCS_TOKEN}" });
    expect(await testDb().mcpServer.count({ where: { tenantId } })).toBe(6);
  });

  it("registers the registry's remote servers across its three pages, skips the package-only one, once", async () => {
    const first = await cli(["import", "--registry", registry.url, "--tag", "registry"]);
    expect(first, first.stderr).toMatchObject({ code: 0 });
    expect(first.stdout).toBe(
      [
        "created    io.example/weather (registry version 1.2.0)",
        "created    io.example/news (registry version 2.0.0)",
        "created    io.example/maps (registry version 1.1.0)",
        "skipped    io.example/files: package only (no remote URL): it would have to be installed and run as a stdio server",
        `registry ${registry.url}: 3 created, 0 updated, 0 unchanged, 0 refused, 1 skipped`,
        "",
      ].join("\n"),
    );
    expect(registry.requests).toEqual(["/v0.1/servers?limit=100", "/v0.1/servers?limit=100&cursor=page-1", "/v0.1/servers?limit=100&cursor=page-2"]);
    const imported = (await rows()).filter((r) => r.tags.includes("registry")).map((r) => [r.name, r.transport, r.url]);
    expect(imported).toEqual([
      ["io.example/maps", "streamable_http", "http://127.0.0.1:9/maps/v2"],
      ["io.example/news", "sse", "http://127.0.0.1:9/news/sse"],
      ["io.example/weather", "streamable_http", "http://127.0.0.1:9/weather/mcp"],
    ]);
    const again = await cli(["import", "--registry", registry.url, "--tag", "registry", "--search", "weather"]);
    expect(again.stdout).toBe(["unchanged  io.example/weather (registry version 1.2.0)", `registry ${registry.url}: 0 created, 0 updated, 1 unchanged, 0 refused, 0 skipped`, ""].join("\n"));
    expect(await testDb().mcpServer.count({ where: { tenantId } })).toBe(9);
  });

  it("export writes the team in the import format with ${env:NAME} for secrets, and importing it back changes nothing", async () => {
    const out = await cli(["export"]);
    expect(out, out.stderr).toMatchObject({ code: 0 });
    const doc = JSON.parse(out.stdout) as { toolwatch: string; version: number; servers: { name: string; env?: object; headers?: object }[] };
    expect(doc).toMatchObject({ toolwatch: "servers", version: 1 });
    expect(doc.servers).toHaveLength(9);
    expect(doc.servers.find((s) => s.name === "github")!.env).toEqual({ GITHUB_PERSONAL_ACCESS_TOKEN: "${env:GITHUB_PERSONAL_ACCESS_TOKEN}" });
    expect(doc.servers.find((s) => s.name === "docs")!.headers).toEqual({ Authorization: "${env:AUTHORIZATION}" });
    expect(out.stdout).not.toContain("ghp_example");
    const back = await cli(["import", "-"], out.stdout);
    expect(back.code, back.stderr).toBe(0);
    expect(back.stdout).toMatch(/Toolwatch export: 0 created, 0 updated, 9 unchanged, 0 refused\n$/);
  });

  it("with stdio registration off, a new stdio entry is refused (why, exit 1) and the HTTP entry beside it is still created", async () => {
    await web.stop();
    web = await startWeb("off");
    const file = path.join(dir, "claude-more.json");
    fs.writeFileSync(file, JSON.stringify({ mcpServers: { shell: { command: "bash", args: ["-c", "echo"] }, remote: { type: "http", url: "http://127.0.0.1:9/remote/mcp" } } }));
    const r = await cli(["import", file]);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe(
      [
        "refused    shell: Registering stdio servers is not allowed for you on this instance (it runs a command on the worker host)",
        "created    remote",
        "Claude Code / .mcp.json (mcpServers with type): 1 created, 0 updated, 0 unchanged, 1 refused",
        "",
      ].join("\n"),
    );
    expect(await testDb().mcpServer.count({ where: { tenantId } })).toBe(10);
    expect(await testDb().mcpServer.count({ where: { tenantId, name: "shell" } })).toBe(0);
  });

  it("bad input is a sentence and an exit code, never a stack", async () => {
    const missing = await cli(["import", path.join(dir, "nope.json")]);
    expect(missing).toMatchObject({ code: 1, stdout: "" });
    expect(missing.stderr).toBe(`toolwatch import: cannot read ${path.join(dir, "nope.json")}: ENOENT\n`);
    const notConfig = await cli(["import", "-"], '{"editor.fontSize": 14}');
    expect(notConfig.code).toBe(1);
    expect(notConfig.stderr).toMatch(/^toolwatch import: no MCP servers found/);
    const badKey = await cli(["import", path.join(CONFIGS, "claude_desktop_config.json"), "--api-key", "tw_wrong"]);
    expect(badKey.code).toBe(1);
    expect(badKey.stderr).toMatch(/^toolwatch import: UNAUTHENTICATED: /);
    expect(badKey.stderr).not.toMatch(/\n\s+at /);
    const usage = await cli(["import"]);
    expect(usage.code).toBe(2);
    expect(usage.stderr).toContain("give one file (or - for standard input), or --registry <url>");
  });
});
