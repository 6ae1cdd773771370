import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import { createRequire } from "node:module";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { takeSnapshot, type OneShotSnapshot } from "@/lib/discovery/take-snapshot";
import type { ServerConnectionConfig } from "@/lib/servers/server-config";
import { freePort } from "@/tests/helpers/processes";
import { testFetch } from "@/tests/helpers/guarded";

// Servers published on npm, spoken to over the real wire with the worker's own engine.
const require = createRequire(import.meta.url);
const entry = (pkg: string) => path.join(path.dirname(require.resolve(`${pkg}/package.json`)), "dist/index.js");
const EVERYTHING = entry("@modelcontextprotocol/server-everything");
const opts = { connectTimeoutMs: 20_000, requestTimeoutMs: 20_000, maxPages: 100, fetch: testFetch() };
const stdio = (args: string[], env: Record<string, string> = {}): ServerConnectionConfig => ({ transport: "stdio", command: process.execPath, args, env });

async function startEverythingHttp(mode: "streamableHttp" | "sse"): Promise<{ child: ChildProcess; port: number }> {
  const port = await freePort();
  const child = spawn(process.execPath, [EVERYTHING, mode], { env: { ...process.env, PORT: String(port) }, stdio: ["ignore", "pipe", "pipe"] });
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server-everything ${mode} did not start`)), 20_000);
    const onData = (chunk: Buffer) => {
      if (/listening on port|running on port/i.test(chunk.toString())) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout!.on("data", onData);
    child.stderr!.on("data", onData);
  });
  return { child, port };
}

const names = (s: OneShotSnapshot) => s.tools.map((t) => t.name);

describe("published MCP servers from npm", () => {
  let http: { child: ChildProcess; port: number };
  let sse: { child: ChildProcess; port: number };
  let dir: string;
  let viaStdio: OneShotSnapshot;

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "toolwatch-published-"));
    [http, sse] = await Promise.all([startEverythingHttp("streamableHttp"), startEverythingHttp("sse")]);
  });
  afterAll(() => {
    http?.child.kill();
    sse?.child.kill();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it("server-everything over stdio: every tool, legacy era, list_changed advertised", async () => {
    viaStdio = await takeSnapshot(stdio([EVERYTHING, "stdio"]), opts);
    expect(viaStdio.facts).toMatchObject({ era: "legacy", transportUsed: "stdio", pushChannel: true });
    expect(viaStdio.facts.serverInfo?.name).toContain("everything");
    expect(names(viaStdio)).toEqual(expect.arrayContaining(["echo", "get-sum", "get-env"]));
    expect(viaStdio.tools.length).toBeGreaterThanOrEqual(10);
  });

  it("server-everything over Streamable HTTP lists the same tools (same content hash)", async () => {
    const snap = await takeSnapshot({ transport: "streamable_http", url: `http://127.0.0.1:${http.port}/mcp`, headers: {} }, opts);
    expect(snap.facts.transportUsed).toBe("streamable_http");
    expect(snap.contentHash).toBe(viaStdio.contentHash);
  });

  it("server-everything over legacy HTTP+SSE, chosen explicitly and by automatic fallback", async () => {
    const explicit = await takeSnapshot({ transport: "sse", url: `http://127.0.0.1:${sse.port}/sse`, headers: {} }, opts);
    expect(explicit.facts.transportUsed).toBe("sse");
    expect(explicit.contentHash).toBe(viaStdio.contentHash);
    // Configured as Streamable HTTP: the POST is refused, so the engine falls back to SSE.
    const fallback = await takeSnapshot({ transport: "streamable_http", url: `http://127.0.0.1:${sse.port}/sse`, headers: {} }, opts);
    expect(fallback.facts.transportUsed).toBe("sse");
    expect(fallback.contentHash).toBe(viaStdio.contentHash);
  });

  it("server-filesystem over stdio, with its allowed directory as an argument", async () => {
    const snap = await takeSnapshot(stdio([entry("@modelcontextprotocol/server-filesystem"), dir]), opts);
    expect(names(snap)).toEqual(expect.arrayContaining(["read_text_file", "write_file", "list_directory"]));
    const write = snap.tools.find((t) => t.name === "write_file")!;
    expect((write.inputSchema.required as string[]) ?? []).toEqual(expect.arrayContaining(["path", "content"]));
  });

  it("server-memory over stdio, with its storage path in the server's env", async () => {
    const snap = await takeSnapshot(stdio([entry("@modelcontextprotocol/server-memory")], { MEMORY_FILE_PATH: path.join(dir, "memory.jsonl") }), opts);
    expect(names(snap)).toEqual(expect.arrayContaining(["create_entities", "read_graph", "search_nodes"]));
  });
});
